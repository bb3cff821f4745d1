package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.status.BenchmarkRunStatus;
import dev.stackbench.api.status.Phase;
import dev.stackbench.api.status.VerificationResult;
import dev.stackbench.verification.VerificationLoad;
import dev.stackbench.verification.VerificationVerdict;
import dev.stackbench.verification.WorkCounts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The work per request counted on the real parts (PostgreSQL's pg_stat_statements, the delay service's call counter)
 * for two variants of the mixed scenario, one through {@code stackbench verify}, one through the verification {@code
 * stackbench run} makes before its load; and the same real counts judged against a scenario asking for other work
 * are named as a difference.
 */
class WorkVerificationIT {

    private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules();

    @TempDir
    Path dir;

    private static String mixedRun(String name, String variant) {
        return """
                apiVersion: stackbench.dev/v1alpha1
                kind: BenchmarkRun
                metadata:
                  name: %s
                spec:
                  target:
                    variant: %s
                    resources: {cpu: "1", memory: 512Mi}
                  workload:
                    scenario: mixed
                    upstreamDelay: 5ms
                    dbSleep: 5ms
                    load: {executor: constant-arrival-rate, rate: 5, vus: 10}
                    warmup: 1s
                    duration: 2s
                """.formatted(name, variant);
    }

    @Test
    void everyVariantDoesOneStatementAndOneUpstreamCallPerMixedRequest() throws Exception {
        Path mvc = Files.writeString(dir.resolve("mvc.yaml"), mixedRun("it-verify-mvc-jdbc", "mvc-jdbc"));
        Path webflux = Files.writeString(dir.resolve("webflux.yaml"), mixedRun("it-verify-r2dbc", "webflux-r2dbc"));

        CliInvocation verify =
                CliInvocation.verify("--results-dir", dir.resolve("verified").toString(), mvc.toString());

        assertThat(verify.exitCode()).as("exit code; stderr:\n" + verify.err()).isZero();
        assertThat(verify.out()).contains("it-verify-mvc-jdbc").contains("SameWork");
        VerificationResult mvcResult = JSON.readValue(
                onlyRunDirectory(dir.resolve("verified"))
                        .resolve("verification.json")
                        .toFile(),
                VerificationResult.class);
        assertSameMixedWork(mvcResult);
        assertThat(mvcResult.getStatements())
                .extracting(VerificationResult.StatementCount::getQuery)
                .containsExactly("select pg_sleep($1)");

        CliInvocation run = CliInvocation.run(
                "--results-dir", dir.resolve("run").toString(), "--output", "json", webflux.toString());

        assertThat(run.exitCode()).as("exit code; stderr:\n" + run.err()).isZero();
        BenchmarkRunStatus status = JSON.readValue(run.out(), BenchmarkRunStatus.class);
        assertThat(status.getPhase()).isEqualTo(Phase.Succeeded);
        assertSameMixedWork(status.getVerification());
        assertThat(status.getSummary().getRequests())
                .as("the measured load does not include the verification's requests")
                .isLessThan(40);

        // The same real counts, judged against the db scenario (no upstream call): the difference is named.
        VerificationResult asDb = VerificationVerdict.judge(
                VerificationLoad.spec(
                                BenchmarkRuns.read(
                                                mixedRun("db", "mvc-jdbc").replace("scenario: mixed", "scenario: db"),
                                                "db.yaml")
                                        .getFirst()
                                        .getSpec(),
                                1)
                        .getWorkload(),
                countsOf(mvcResult));
        assertThat(asDb.getVerdict()).isEqualTo(VerificationResult.DIFFERS);
        assertThat(asDb.getMessage())
                .isEqualTo("upstream calls: 20 for 20 requests (1.0 per request), the scenario asks for 0 (0.0 per"
                        + " request)");
    }

    private static void assertSameMixedWork(VerificationResult result) {
        assertThat(result.getVerdict()).as(result.getMessage()).isEqualTo(VerificationResult.SAME_WORK);
        assertThat(result.getRequests()).isEqualTo(VerificationLoad.COUNTED_ITERATIONS);
        assertThat(result.getStatusCodes()).containsEntry("200", (long) VerificationLoad.COUNTED_ITERATIONS);
        assertThat(result.getChecksFailed()).isZero();
        assertThat(result.getMeasured().getStatements()).isEqualTo(1.0);
        assertThat(result.getMeasured().getRowsRead()).isEqualTo(1.0);
        assertThat(result.getMeasured().getRowsWritten()).isZero();
        assertThat(result.getMeasured().getUpstreamCalls()).isEqualTo(1.0);
    }

    private static WorkCounts countsOf(VerificationResult result) {
        return new WorkCounts(
                result.getRequests(),
                result.getIterations(),
                result.getStatusCodes(),
                result.getChecksPassed(),
                result.getChecksFailed(),
                result.getStatements(),
                List.of(),
                Math.round(result.getMeasured().getUpstreamCalls() * result.getRequests()));
    }

    private static Path onlyRunDirectory(Path results) throws Exception {
        try (Stream<Path> entries = Files.list(results)) {
            return entries.filter(Files::isDirectory).findFirst().orElseThrow();
        }
    }
}
