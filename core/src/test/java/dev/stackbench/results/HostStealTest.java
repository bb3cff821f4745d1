package dev.stackbench.results;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HostStealTest {

    @Test
    void aWindowIsDoubtedOnlyAboveFivePercentAndTheWarningSaysWhatToDo() {
        assertThat(HostSteal.doubts(null)).isFalse();
        assertThat(HostSteal.doubts(0.05)).isFalse();
        assertThat(HostSteal.doubts(0.0501)).isTrue();
        assertThat(HostSteal.warning(0.02)).isEmpty();
        assertThat(HostSteal.warning(0.25)).hasValueSatisfying(warning -> assertThat(warning)
                .startsWith("the machine's host took 25.0 % of its CPU time during the measured window")
                .contains("run it again"));
    }
}
