package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two CLIs at once, for real: while one runs, a second {@code stackbench run} is refused before it starts anything,
 * naming the first one's pid and results directory, and {@code stackbench script} (which starts nothing) still works.
 * Once the first CLI has ended, the kernel has released its lock.
 */
class SecondRunIT {

    @TempDir
    Path dir;

    @Test
    void aSecondRunIsRefusedWhileOneRunsAndScriptStillWorks() throws Exception {
        Path spec = Files.writeString(dir.resolve("long.yaml"), CliJvm.lowRateRun("it-first-cli", "300s"));
        Path lockFile = CliJvm.lockFile(dir);
        Path firstResults = dir.resolve("first");
        Path secondResults = dir.resolve("second");
        List<CliJvm.Seen> started = List.of();
        try (CliJvm first = CliJvm.startRun(dir, "first", firstResults, spec)) {
            first.awaitErr("starting PostgreSQL", Duration.ofMinutes(2));

            try (CliJvm second = CliJvm.startRun(dir, "second", secondResults, spec)) {
                assertThat(second.awaitExit(Duration.ofMinutes(2)))
                        .as("the second run's exit code; stderr:\n" + second.err())
                        .isEqualTo(4);
                assertThat(second.err())
                        .contains("another local run is under way on this machine (pid " + first.pid() + ",")
                        .contains("results in " + firstResults)
                        .contains("nothing was started")
                        .contains("kill " + first.pid());
                assertThat(secondResults)
                        .as("the refused run's results directory")
                        .doesNotExist();
            }
            try (CliJvm script = CliJvm.start(
                    dir, "script", Map.of(RunLock.PATH_ENV, lockFile.toString()), "script", spec.toString())) {
                assertThat(script.awaitExit(Duration.ofMinutes(2)))
                        .as("stackbench script beside a run; stderr:\n" + script.err())
                        .isZero();
                assertThat(script.out()).contains("scenarios");
            }
            assertThat(first.process().isAlive())
                    .as("the first run goes on; stderr:\n" + first.err())
                    .isTrue();

            started = first.descendants();
            first.process().destroy();
            first.awaitExit(Duration.ofMinutes(2));
            assertThat(CliJvm.awaitGone(started, Duration.ofSeconds(20))).isEmpty();
        } finally {
            CliJvm.killAll(started);
        }
        try (RunLock free = RunLock.acquire(lockFile)) {
            assertThat(Files.readString(lockFile))
                    .contains("pid=" + ProcessHandle.current().pid());
        }
    }
}
