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
}
