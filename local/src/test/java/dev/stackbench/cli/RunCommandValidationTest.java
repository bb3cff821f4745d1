package dev.stackbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** A bad file is refused before anything starts, with the field named and what to change. */
class RunCommandValidationTest {

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = StackbenchCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    private Path write(String name, String yaml) throws Exception {
        return Files.writeString(dir.resolve(name), yaml);
    }

    @Test
    void aMisspelledFieldIsNamedAndNothingStarts() throws Exception {
        Path file = write("typo.yaml", """
                apiVersion: stackbench.dev/v1alpha1
                kind: BenchmarkRun
                metadata: {name: typo}
                spec:
                  target: {variant: mvc-jdbc}
                  workload:
                    scenario: upstream
                    upstreamDelay: 300ms
                    load: {executor: constant-arrival-rate, rat: 100}
                """);

        int exitCode = run("run", "--results-dir", dir.resolve("results").toString(), file.toString());

        assertThat(exitCode).isEqualTo(2);
        assertThat(err.toString()).contains("rat").contains("unknown field").contains("nothing was started");
        assertThat(dir.resolve("results")).doesNotExist();
    }

    @Test
    void aRuleViolationNamesTheFieldAndAnUnknownVariantListsTheKnownOnes() throws Exception {
        Path missingRate = write("missing-rate.yaml", """
                apiVersion: stackbench.dev/v1alpha1
                kind: BenchmarkRun
                metadata: {name: missing-rate}
                spec:
                  target: {variant: mvc-jdbc}
                  workload:
                    scenario: upstream
                    upstreamDelay: 300ms
                    load: {executor: constant-arrival-rate}
                """);
        Path unknownVariant = write("unknown-variant.yaml", """
                apiVersion: stackbench.dev/v1alpha1
                kind: BenchmarkRun
                metadata: {name: unknown-variant}
                spec:
                  target: {variant: mvc-cobol}
                  workload:
                    scenario: upstream
                    upstreamDelay: 300ms
                    load: {executor: constant-arrival-rate, rate: 10}
                """);

        int exitCode = run(
                "run",
                "--results-dir",
                dir.resolve("results").toString(),
                missingRate.toString(),
                unknownVariant.toString());

        assertThat(exitCode).isEqualTo(2);
        assertThat(err.toString())
                .contains("missing-rate.yaml")
                .contains("spec.workload.load.rate")
                .contains("unknown-variant.yaml")
                .contains("mvc-cobol")
                .contains("webflux-r2dbc");
        assertThat(dir.resolve("results")).doesNotExist();
    }

    @Test
    void aMalformedThresholdIsRefusedBeforeAnythingStartsWithTheGrammar() throws Exception {
        Path file = write("threshold.yaml", """
                apiVersion: stackbench.dev/v1alpha1
                kind: BenchmarkRun
                metadata: {name: threshold}
                spec:
                  target: {variant: mvc-jdbc}
                  workload:
                    scenario: upstream
                    upstreamDelay: 300ms
                    load: {executor: constant-arrival-rate, rate: 10}
                    thresholds:
                      http_req_duration: ["p95 < 1s"]
                      http_req_latency: ["p(95)<500"]
                """);

        int exitCode = run("run", "--results-dir", dir.resolve("results").toString(), file.toString());

        assertThat(exitCode).isEqualTo(2);
        assertThat(err.toString())
                .contains("spec.workload.thresholds.http_req_duration: 'p95 < 1s' is not a k6 threshold")
                .contains("'p95' is not an aggregation")
                .contains("p(95)<500", "rate<0.01", "avg<200", "max<1000", "count>0")
                .contains("spec.workload.thresholds.http_req_latency: 'http_req_latency' is not a metric")
                .contains("nothing was started");
        assertThat(dir.resolve("results")).doesNotExist();
    }

    @Test
    void aMissingFileIsAnInputError() {
        assertThat(run("run", dir.resolve("nope.yaml").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("nope.yaml").contains("no such file");
    }

    @Test
    void repetitionsNeedTwoNamedRunsAndThreeRepetitionsAndSayWhyBeforeAnythingStarts() throws Exception {
        String run = """
                apiVersion: stackbench.dev/v1alpha1
                kind: BenchmarkRun
                metadata:
                  name: same
                spec:
                  target:
                    variant: webflux-r2dbc
                    resources: {cpu: "1", memory: 512Mi}
                  workload:
                    scenario: upstream
                    upstreamDelay: 20ms
                    load: {executor: constant-arrival-rate, rate: 10, vus: 20}
                    warmup: 1s
                    duration: 3s
                """;
        Path a = write("a.yaml", run);
        Path b = write("b.yaml", run);

        int exit = run("run", "--repetitions", "2", "--order", "random", a.toString(), b.toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString())
                .contains("--repetitions 2: at least 3 are needed")
                .contains("two runs are named same")
                .contains("--order random: use interleaved or sequential")
                .contains("nothing was started");
        assertThat(out.toString()).isEmpty();
    }
}
