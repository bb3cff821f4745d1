package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** KilledCliIT shows the watchdogs at work on a real run; this checks the start time they compare. */
class ChildWatchdogTest {

    @TempDir
    Path dir;

    @Test
    void readsTheStartTimeAfterACommandNameWithSpacesAndParentheses() throws Exception {
        Path stat = Files.writeString(
                dir.resolve("stat"),
                "4242 (a b) c) S 1 4242 4242 0 -1 4194560 100 0 0 0 5 3 0 0 20 0 30 0 987654 1000 50\n");

        assertThat(ChildWatchdog.startTicks(stat)).isEqualTo("987654");
    }

    @Test
    void thisJvmHasAStartTimeThatStaysTheSame() throws Exception {
        String once = ChildWatchdog.startTicks(Path.of("/proc/self/stat"));

        assertThat(once).matches("[0-9]+");
        assertThat(ChildWatchdog.startTicks(Path.of("/proc/self/stat"))).isEqualTo(once);
    }
}
