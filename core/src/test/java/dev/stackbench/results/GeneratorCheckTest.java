package dev.stackbench.results;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.status.PodResources;
import dev.stackbench.results.GeneratorCheck.Generator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class GeneratorCheckTest {

    private static PodResources pod(String role, String name, Double limit, Double cores, Double throttled) {
        return new PodResources()
                .withRole(role)
                .withPod(name)
                .withCpuLimitCores(limit)
                .withAvgCpuCores(cores)
                .withCpuThrottledRatio(throttled);
    }

    private static Generator runner(Double limit, Double cores, Double throttled) {
        return Generator.runnerPod(pod("runner", "r-k6-1", limit, cores, throttled));
    }

    private static Generator local(double cores, int cpus, double busy) {
        return Generator.localProcess(cores, cpus, busy, "the delay service and PostgreSQL ([1])");
    }

    /** One threshold model for both modes: a CPU limit and a CPU set are two inputs to the same share. */
    static Stream<Arguments> cases() {
        return Stream.of(
                // what was observed, dropped iterations, expected reason (null: kept up), a fact the message names
                Arguments.of(
                        List.of(runner(0.10, 0.095, 0.0)),
                        0,
                        "RunnerCpuSaturated",
                        "r-k6-1 used 0.10 of the 0.10 CPU it may use (95%)"),
                Arguments.of(
                        List.of(local(0.95, 1, 0.95)),
                        0,
                        "RunnerCpuSaturated",
                        "k6 used 0.95 of the 1.00 CPU it may use (95%)"),
                Arguments.of(List.of(runner(1.0, 0.80, 0.0)), 0, "RunnerCpuSaturated", "CPU it may use (80%)"),
                Arguments.of(List.of(local(0.80, 1, 0.85)), 0, "RunnerCpuSaturated", "CPU it may use (80%)"),
                Arguments.of(List.of(runner(1.0, 0.79, 0.0)), 0, null, "below 80% of what it may use"),
                Arguments.of(List.of(local(0.79, 1, 0.85)), 0, null, "below 80% of what it may use"),
                Arguments.of(
                        List.of(runner(2.0, 0.5, 0.03)),
                        0,
                        "RunnerThrottled",
                        "r-k6-1 was throttled in 3.0% of" + " its CPU periods"),
                Arguments.of(
                        List.of(local(0.42, 1, 0.97)),
                        0,
                        "RunnerCpuSaturated",
                        "the CPUs k6 shares with the delay"
                                + " service and PostgreSQL ([1]) were 97% busy, k6 itself using 0.42 CPU"),
                Arguments.of(List.of(runner(2.0, 0.3, 0.0)), 12, "IterationsDropped", "12 iterations dropped"),
                Arguments.of(List.of(local(0.3, 1, 0.5)), 12, "IterationsDropped", "12 iterations dropped"),
                Arguments.of(List.of(runner(null, 3.0, null)), 0, null, "k6 kept up"),
                Arguments.of(List.of(), 0, null, "the load generator's CPU could not be read"));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void judgesEveryGeneratorWithOneModel(List<Generator> generators, long dropped, String reason, String fact) {
        GeneratorCheck.Judgement judgement = GeneratorCheck.judge(generators, dropped, List.of());

        if (reason == null) {
            assertThat(judgement.finding()).isEmpty();
            assertThat(judgement.keptUpDescription()).contains(fact);
        } else {
            assertThat(judgement.finding()).hasValueSatisfying(finding -> {
                assertThat(finding.reason()).isEqualTo(reason);
                assertThat(finding.message())
                        .startsWith(GeneratorCheck.FINDING_PREFIX + " (")
                        .contains(fact);
            });
        }
    }

    @Test
    void theSameFiguresGiveTheSameWordsWhicheverModeMeasuredThem() {
        Generator onACluster = Generator.runnerPod(pod("runner", "k6", 1.0, 0.9, null));
        Generator locally = Generator.localProcess(0.9, 1, Double.NaN, "nobody");

        assertThat(GeneratorCheck.check(List.of(onACluster), 4))
                .map(GeneratorCheck.Finding::message)
                .get()
                .isEqualTo(GeneratorCheck.check(List.of(locally), 4)
                        .map(GeneratorCheck.Finding::message)
                        .orElseThrow());
    }

    @Test
    void aSaturatedOrThrottledGeneratorMeansTheResultMeasuresK6AndDroppedIterationsALowerLoad() {
        assertThat(GeneratorCheck.check(List.of(runner(0.1, 0.1, 0.0)), 0)
                        .orElseThrow()
                        .message())
                .contains("this result measures the load generator, not the target");
        assertThat(GeneratorCheck.check(List.of(runner(2.0, 0.3, 0.0)), 12)
                        .orElseThrow()
                        .message())
                .contains("the target got a lower load than requested");
    }

    @Test
    void onlyRunnerPodsAreGenerators() {
        assertThat(GeneratorCheck.runnerPods(
                        List.of(pod("target", "t", 1.0, 0.99, 0.5), pod("runner", "r-k6-1", 2.0, 0.4, 0.001))))
                .extracting(Generator::name)
                .containsExactly("r-k6-1");
    }

    @Test
    void keptUpSaysWhyTheCpuIsUnknownWhenNoGeneratorWasMeasured() {
        assertThat(GeneratorCheck.judge(List.of(runner(1.0, null, null)), 0, List.of("runner r-k6-1: no kubelet"))
                        .keptUpDescription())
                .isEqualTo("no iterations dropped; the load generator's CPU could not be read (runner r-k6-1: no"
                        + " kubelet)");
    }
}
