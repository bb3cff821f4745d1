package dev.stackbench.results;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.PodResources;
import java.util.List;
import org.junit.jupiter.api.Test;

class GeneratorCheckTest {

    private static PodResources pod(String role, String name, Double limit, double cores, Double throttled) {
        return new PodResources()
                .withRole(role)
                .withPod(name)
                .withCpuLimitCores(limit)
                .withAvgCpuCores(cores)
                .withCpuThrottledRatio(throttled);
    }

    @Test
    void aRunnerNearItsLimitIsSaturatedAndNamedWithItsFigures() {
        var finding = GeneratorCheck.check(
                List.of(pod("target", "t", 1.0, 0.99, 0.5), pod("runner", "r-k6-1", 0.1, 0.095, 0.0)), 0);

        assertThat(finding).isPresent();
        assertThat(finding.get().reason()).isEqualTo(GeneratorCheck.RUNNER_CPU_SATURATED);
        assertThat(finding.get().message())
                .startsWith("!! k6 could not generate the requested load")
                .contains("r-k6-1 used 0.10 of its 0.10 CPU (95%)")
                .contains("measures the load generator, not the target")
                .doesNotContain("t used");
    }

    @Test
    void aThrottledRunnerIsFlaggedEvenBelowTheCpuShare() {
        var finding = GeneratorCheck.check(List.of(pod("runner", "r-k6-1", 2.0, 0.5, 0.03)), 0);

        assertThat(finding.orElseThrow().reason()).isEqualTo(GeneratorCheck.RUNNER_THROTTLED);
        assertThat(finding.get().message()).contains("r-k6-1 was throttled in 3.0% of its CPU periods");
    }

    @Test
    void droppedIterationsAloneSayTheLoadWasLowerThanAsked() {
        var finding = GeneratorCheck.check(List.of(pod("runner", "r-k6-1", 2.0, 0.3, 0.0)), 12);

        assertThat(finding.orElseThrow().reason()).isEqualTo(GeneratorCheck.ITERATIONS_DROPPED);
        assertThat(finding.get().message()).contains("12 iterations dropped").contains("lower load than requested");
    }

    @Test
    void aRunnerThatKeptUpOrWasNotMeasuredGivesNoFinding() {
        assertThat(GeneratorCheck.check(List.of(pod("runner", "r-k6-1", 2.0, 0.4, 0.001)), 0))
                .isEmpty();
        assertThat(GeneratorCheck.check(List.of(), 0)).isEmpty();
        assertThat(GeneratorCheck.check(List.of(pod("runner", "r", null, 3.0, null)), 0))
                .as("no limit: no share to judge")
                .isEmpty();
    }
}
