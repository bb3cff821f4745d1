package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProcessCpuClockTest {

    @Test
    void readsUserAndSystemTicksEvenWhenTheCommandNameHasSpacesAndParentheses() {
        String stat = "4242 (k6 (run) x) S 1 4242 4242 0 -1 4194560 1000 0 0 0 250 50 0 0 20 0 12 0 100 0 0";

        assertThat(ProcessCpuClock.parseTicks(stat)).isEqualTo(300);
    }

    @Test
    void measuresThisJvm() {
        assertThat(ProcessCpuClock.cpuSeconds(ProcessHandle.current())).isPositive();
    }
}
