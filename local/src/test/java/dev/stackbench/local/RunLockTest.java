package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lock within one JVM; SecondRunIT shows it between two CLI processes. */
class RunLockTest {

    @TempDir
    Path dir;

    @Test
    void aHeldLockIsRefusedWithItsHolderAndResultsAndFreedByClose() throws Exception {
        Path file = dir.resolve("run.lock");
        long pid = ProcessHandle.current().pid();
        try (RunLock held = RunLock.acquire(file)) {
            held.describe(dir.resolve("results/20261127-083015"));

            assertThatThrownBy(() -> RunLock.acquire(file))
                    .isInstanceOf(RunLock.Busy.class)
                    .hasMessageContaining("another local run is under way on this machine (pid " + pid + ",")
                    .hasMessageContaining("results in " + dir.resolve("results/20261127-083015"))
                    .hasMessageContaining("kill " + pid)
                    .hasMessageContaining(RunLock.PATH_ENV);
        }
        try (RunLock again = RunLock.acquire(file)) {
            assertThat(Files.readString(file)).contains("pid=" + pid).contains("results=\n");
        }
    }
}
