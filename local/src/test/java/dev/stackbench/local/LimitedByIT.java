package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stackbench.api.status.BenchmarkRunStatus;
import dev.stackbench.api.status.LimitedBy;
import dev.stackbench.api.status.Phase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run whose answer is known, for real: the README demo's mvc-jdbc shrunk to 4 Tomcat threads holding each request
 * 200 ms (a Little's-law cap of 20 requests/s) and offered twice that. Its summary must name the request pool, with
 * the busy threads and the cap as evidence, and the results table must show it. No assertion on timings or rates: the
 * machine is shared, and the verdict must hold anyway.
 */
class LimitedByIT {

    private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules();

    @TempDir
    Path dir;

    @BeforeAll
    static void requireToolsAndJars() {
        CliInvocation.k6FromEnvironment();
        for (String jar :
                List.of("targets/delay-service/target/delay-service.jar", "targets/mvc-app/target/mvc-app.jar")) {
            assertThat(CliInvocation.REPO_ROOT.resolve(jar))
                    .as(jar + " is missing: build the targets first (mvn -pl targets/mvc-app,targets/delay-service -am"
                            + " package, or the full build)")
                    .isRegularFile();
        }
    }

    @Test
    void theDemosMvcJdbcIsLimitedByItsRequestPool() throws Exception {
        Path spec = Files.writeString(dir.resolve("pool.yaml"), """
                apiVersion: stackbench.dev/v1alpha1
                kind: BenchmarkRun
                metadata:
                  name: it-limited-mvc-jdbc
                spec:
                  target:
                    variant: mvc-jdbc
                    resources: {cpu: "1", memory: 512Mi}
                    env:
                      SERVER_TOMCAT_THREADS_MAX: "4"
                  workload:
                    scenario: upstream
                    upstreamDelay: 200ms
                    load: {executor: constant-arrival-rate, rate: 40, vus: 200, preAllocatedVUs: 100}
                    warmup: 3s
                    duration: 8s
                """);
        Path results = dir.resolve("results");

        CliInvocation cli = CliInvocation.run("--results-dir", results.toString(), "--output", "json", spec.toString());

        assertThat(cli.exitCode()).as("exit code; stderr:\n" + cli.err()).isZero();
        BenchmarkRunStatus status = JSON.readValue(cli.out(), BenchmarkRunStatus.class);
        assertThat(status.getPhase()).isEqualTo(Phase.Succeeded);
        LimitedBy limitedBy = status.getSummary().getLimitedBy();
        assertThat(limitedBy.getResource())
                .as("verdict %s; summary target %s", limitedBy.describe(), JSON.writeValueAsString(status.getSummary()))
                .isEqualTo("request-pool");
        assertThat(limitedBy.getEvidence())
                .anySatisfy(line -> assertThat(line).startsWith("4/4 tomcat threads in use in"))
                .anySatisfy(line ->
                        assertThat(line).contains("of the Little's-law cap 20.0 (4 threads / 0.200 s per request"));
        assertThat(cli.err()).contains("request-pool");
    }
}
