package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LoadGeneratorAlarmTest {

    @Test
    void quietWhenK6KeptTheRateWithCpuToSpare() {
        assertThat(LocalRunner.loadGeneratorAlarm(0, 0.3, 0.3)).isNull();
    }

    @Test
    void aSaturatedGeneratorMeansTheResultMeasuresK6() {
        assertThat(LocalRunner.loadGeneratorAlarm(0, 0.95, 0.95))
                .startsWith("k6 could not generate the requested rate (k6 used 0.95 CPU (95% of the CPUs it may use))")
                .endsWith("measures the load generator, not the target");
    }

    @Test
    void droppedIterationsWithCpuToSpareMeanTheOfferedLoadWasLower() {
        assertThat(LocalRunner.loadGeneratorAlarm(120, 0.2, 0.2))
                .contains("120 iterations dropped")
                .contains("lower load than requested");
    }

    @Test
    void fullCpusSharedWithTheDelayServiceMakeAGeneratorLimitEvenWhenK6ItselfUsesLittle() {
        String alarm = LocalRunner.loadGeneratorAlarm(0, 0.42, 0.42, 0.97, "[1]");

        assertThat(alarm)
                .contains("the CPUs k6 shares with the delay service and PostgreSQL ([1]) were 97% busy, k6 itself"
                        + " using 0.42 CPU")
                .endsWith("measures the load generator, not the target");
        assertThat(LocalRunner.loadGeneratorAlarm(0, 0.42, 0.42, 0.6, "[1]")).isNull();
    }
}
