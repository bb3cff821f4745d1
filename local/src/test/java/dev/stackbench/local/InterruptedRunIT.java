package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stackbench.api.status.BenchmarkRunStatus;
import dev.stackbench.api.status.Phase;
import dev.stackbench.lifecycle.RunProgress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM during the second of two runs, for real: the first run's row is printed and written (summary.txt, its
 * status, report.html), the second is marked interrupted, every process is stopped and the CLI exits with 143.
 */
class InterruptedRunIT {

    private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules();

    @TempDir
    Path dir;

    @Test
    void sigtermKeepsTheRunsThatFinishedAndMarksTheOneUnderWay() throws Exception {
        Path firstSpec = Files.writeString(dir.resolve("first.yaml"), CliJvm.lowRateRun("it-done", "4s"));
        Path secondSpec = Files.writeString(dir.resolve("second.yaml"), CliJvm.lowRateRun("it-cut-short", "300s"));
        Path results = dir.resolve("results");
        List<CliJvm.Seen> started = List.of();
        try (CliJvm cli = CliJvm.startRun(dir, "cli", results, firstSpec, secondSpec)) {
            cli.awaitErr("[it-cut-short] LoadRunning", Duration.ofMinutes(6));
            started = cli.descendants();

            cli.process().destroy();

            assertThat(cli.awaitExit(Duration.ofMinutes(3)))
                    .as("exit code after SIGTERM; stderr:\n" + cli.err())
                    .isEqualTo(143);
            List<CliJvm.Seen> left = CliJvm.awaitGone(started, Duration.ofSeconds(20));
            assertThat(left).as("processes left:\n" + CliJvm.describe(left)).isEmpty();
            String table = cli.out();
            assertThat(table).contains("NAME").containsPattern("it-done +webflux-r2dbc +Succeeded");
            assertThat(table).containsPattern("it-cut-short +webflux-r2dbc +Failed");
            assertThat(table).contains("it-cut-short: failed: interrupted (Ctrl-C or SIGTERM)");
            assertThat(cli.err()).contains("stopped by a signal");
        } finally {
            CliJvm.killAll(started);
        }
        assertThat(Files.readString(results.resolve("summary.txt")))
                .containsPattern("it-done +webflux-r2dbc +Succeeded")
                .containsPattern("it-cut-short +webflux-r2dbc +Failed");
        assertThat(Files.readString(results.resolve("report.html"))).contains("it-done");
        BenchmarkRunStatus done = JSON.readValue(
                results.resolve("01-it-done").resolve("status.json").toFile(), BenchmarkRunStatus.class);
        assertThat(done.getPhase()).isEqualTo(Phase.Succeeded);
        assertThat(done.getSummary().getRequests()).isPositive();
        BenchmarkRunStatus cut = JSON.readValue(
                results.resolve("02-it-cut-short").resolve("status.json").toFile(), BenchmarkRunStatus.class);
        assertThat(cut.getPhase()).isEqualTo(Phase.Failed);
        assertThat(cut.getConditions())
                .anySatisfy(condition -> assertThat(condition.getReason()).isEqualTo(RunProgress.INTERRUPTED));
        assertThat(JSON.readTree(results.resolve("statuses.json").toFile())).hasSize(2);
    }
}
