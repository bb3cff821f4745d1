package dev.stackbench.operator.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.api.status.TargetSummary;
import dev.stackbench.k6.K6SummaryParser;
import dev.stackbench.k6.RunnerSummary;
import dev.stackbench.operator.ExampleRuns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Runner pod logs read into the run's summary with the shared results code. */
class RunnerResultsTest {

    private static final Path RESOURCES = Path.of("..", "core", "src", "test", "resources");

    @Test
    void theLoadStartedWhenTheEarliestRunnerSaysItDid() throws Exception {
        String withEnd = Files.readString(RESOURCES.resolve("k6/tiny-run-with-end.stdout"));
        String withoutEnd = Files.readString(RESOURCES.resolve("k6/tiny-run.stdout"));
        RunnerResults results = new RunnerResults(ExampleRuns.catalogue());

        assertThat(results.loadStartedAt(List.of(
                        new RunnerResults.RunnerLog("run-k6-1", withoutEnd),
                        new RunnerResults.RunnerLog("run-k6-2", "level=info msg=starting\n" + withEnd),
                        new RunnerResults.RunnerLog("run-k6-3", "no summary at all"))))
                .contains(Instant.ofEpochMilli(1795508568907L));
        assertThat(results.loadStartedAt(List.of(new RunnerResults.RunnerLog("run-k6-1", withoutEnd))))
                .as("runners whose summaries do not say when they ended leave the operator's own observation")
                .isEmpty();
    }

    @Test
    void combinesTheSummariesOfEveryRunnerLogDespiteLogLinesAroundThem() throws Exception {
        String k6Output = Files.readString(RESOURCES.resolve("k6/tiny-run.stdout"));
        RunnerSummary oneRunner = K6SummaryParser.parse(k6Output);
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        TargetSummary target = new TargetSummary().withPeakThreads(42);

        RunSummary summary = new RunnerResults(ExampleRuns.catalogue())
                .summarize(
                        run,
                        List.of(
                                new RunnerResults.RunnerLog(
                                        "run-k6-1-abcde", "time=\"...\" level=info msg=\"starting\"\n" + k6Output),
                                new RunnerResults.RunnerLog(
                                        "run-k6-2-fghij", k6Output + "\nlevel=warning msg=\"done\"\n")),
                        target);

        assertThat(summary.getRunners()).isEqualTo(2);
        assertThat(summary.getRequests()).isPositive().isEqualTo(2 * oneRunner.requests());
        assertThat(summary.getFailedRequests()).isEqualTo(2 * oneRunner.failedRequests());
        assertThat(summary.getTarget().getPeakThreads()).isEqualTo(42);
    }

    @Test
    void aLogWithoutASummaryIsRefusedNamingThePod() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        RunnerResults results = new RunnerResults(ExampleRuns.catalogue());

        assertThatThrownBy(() -> results.summarize(
                        run,
                        List.of(new RunnerResults.RunnerLog(
                                "run-k6-1-abcde", "level=error msg=\"GoError: connection refused\"\n")),
                        null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("run-k6-1-abcde")
                .hasMessageContaining("kubectl logs");
        assertThatThrownBy(() -> results.summarize(run, List.of(), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no k6 runner pod");
    }

    @Test
    void aSummaryCutByTheLogLimitSaysWhichRunnerAndWhatLimit() throws Exception {
        String k6Output = Files.readString(RESOURCES.resolve("k6/tiny-run.stdout"));
        // What the end of a log keeps when the summary is longer than the limit: its end marker without its start.
        String end = k6Output.substring(k6Output.length() - 1000);
        RunnerResults results = new RunnerResults(ExampleRuns.catalogue());

        assertThatThrownBy(() -> results.summarize(
                        ExampleRuns.webfluxR2dbc(),
                        List.of(new RunnerResults.RunnerLog("run-k6-7-abcde", 7, end, 2 * 1024 * 1024)),
                        null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the last 2 MiB of the log of k6 runner pod run-k6-7-abcde (runner 7)")
                .hasMessageContaining("does not fit the operator's limit of 2 MiB");
    }
}
