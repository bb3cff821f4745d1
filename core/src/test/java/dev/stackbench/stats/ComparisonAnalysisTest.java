package dev.stackbench.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stackbench.api.status.CapacityLimit;
import dev.stackbench.api.status.LatencySummary;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.stats.ComparisonAnalysis.Repetition;
import dev.stackbench.stats.ComparisonAnalysis.Result;
import dev.stackbench.stats.ComparisonPlan.Order;
import dev.stackbench.stats.ComparisonPlan.Slot;
import dev.stackbench.stats.RepetitionStatistics.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ComparisonAnalysisTest {

    private static final double[] MVC_RPS = {31.4, 32.0, 31.5, 31.3, 32.2, 31.9, 31.6, 31.8, 31.45, 31.7};
    private static final double[] WEBFLUX_RPS = {60.1, 59.8, 60.3, 60.0, 59.9, 60.2, 60.4, 59.7, 60.05, 60.15};

    private static RunSummary summary(double rps, double p95, long dropped) {
        RunSummary summary = new RunSummary();
        summary.setRps(rps);
        summary.setErrorRate(0.0);
        summary.setDroppedIterations(dropped);
        LatencySummary latency = new LatencySummary();
        latency.setP50(p95 / 2);
        latency.setP95(p95);
        latency.setP99(p95 * 1.2);
        summary.setLatencyMs(latency);
        return summary;
    }

    private static List<Repetition> demo() {
        List<Repetition> repetitions = new ArrayList<>();
        for (int round = 0; round < 10; round++) {
            repetitions.add(Repetition.of(
                    "mvc-jdbc", round, "mvc-" + round, summary(MVC_RPS[round], 9000 + 100 * round, 500), false, null));
            repetitions.add(Repetition.of(
                    "webflux-r2dbc",
                    round,
                    "webflux-" + round,
                    summary(WEBFLUX_RPS[round], 320 + round, 0),
                    false,
                    null));
        }
        return repetitions;
    }

    @Test
    void capacitiesThatAreOnlyBoundsAreComparedButSaidToBeBounds() {
        // As measured with examples/comparison/capacity.yaml: the baseline's searches found 183/s each, the
        // contender's all held the objective at capacity.to (400/s); one of a third variant hit the generator's limit
        // and one broke at capacity.from.
        List<Repetition> repetitions = new ArrayList<>();
        for (int round = 0; round < 4; round++) {
            repetitions.add(capacity("jdbc", round, 183 - round, CapacityLimit.Target));
            repetitions.add(capacity("virtual", round, 400, CapacityLimit.Range));
            repetitions.add(capacity(
                    "mixed",
                    round,
                    round == 0 ? 50 : 300 + round,
                    round == 0 ? CapacityLimit.Floor : round == 1 ? CapacityLimit.Generator : CapacityLimit.Target));
        }

        Result result = ComparisonAnalysis.analyse(
                List.of("jdbc", "virtual", "mixed"), repetitions, List.of(ComparisonMetric.CAPACITY), 0.95, false);

        assertThat(result.contenders()
                        .getFirst()
                        .shifts()
                        .get(ComparisonMetric.CAPACITY)
                        .verdict())
                .isEqualTo(Verdict.BETTER);
        assertThat(result.warnings())
                .noneMatch(warning -> warning.startsWith("jdbc:"))
                .anySatisfy(warning -> assertThat(warning)
                        .startsWith("virtual: 4 of 4 capacity searches ended with the objective still met at"
                                + " capacity.to")
                        .contains("lower bound", "raise capacity.to"))
                .anySatisfy(warning -> assertThat(warning)
                        .startsWith("mixed: 1 of 4 capacity searches ended where the load generator could not")
                        .contains("lower bound", "more CPU"))
                .anySatisfy(warning -> assertThat(warning)
                        .startsWith("mixed: 1 of 4 capacity searches broke the objective already at capacity.from")
                        .contains("upper bound"));
    }

    private static Repetition capacity(String variant, int round, double capacity, CapacityLimit limit) {
        return new Repetition(
                variant,
                round,
                variant + "-" + round,
                Map.of(ComparisonMetric.CAPACITY, capacity),
                0,
                false,
                null,
                limit,
                null);
    }

    @Test
    void leavingOutFlaggedRunsSaysWhatTheVerdictWouldBeWithThem() {
        // mvc-jdbc drops iterations in every run: left out, it has no valid runs and there is no verdict; counted,
        // webflux-r2dbc serves more.
        Result result = ComparisonAnalysis.analyse(
                List.of("mvc-jdbc", "webflux-r2dbc"), demo(), ComparisonMetric.DEFAULTS, 0.95, false);

        assertThat(result.verdictWithFlaggedRuns())
                .startsWith("webflux-r2dbc rps +")
                .isNotEqualTo(result.verdict());
        assertThat(result.warnings()).anySatisfy(warning -> assertThat(warning)
                .startsWith("counting the 10 flagged runs left out (includeFlaggedRuns) would change the"
                        + " verdict to: webflux-r2dbc rps +"));
        // Counted already: nothing to say.
        assertThat(ComparisonAnalysis.analyse(
                                List.of("mvc-jdbc", "webflux-r2dbc"), demo(), ComparisonMetric.DEFAULTS, 0.95, true)
                        .verdictWithFlaggedRuns())
                .isNull();
    }

    @Test
    void theDemoPairGetsVerdictsInEachMetricsDirectionAndAHeadline() {
        // mvc-jdbc at its thread cap drops iterations in every run; counted here on purpose.
        Result result = ComparisonAnalysis.analyse(
                List.of("mvc-jdbc", "webflux-r2dbc"), demo(), ComparisonMetric.DEFAULTS, 0.95, true);

        assertThat(result.baseline()).isEqualTo("mvc-jdbc");
        assertThat(result.variants())
                .extracting(ComparisonAnalysis.VariantResult::validRuns)
                .containsExactly(10, 10);
        var contender = result.contenders().getFirst();
        assertThat(contender.shifts().get(ComparisonMetric.RPS).verdict()).isEqualTo(Verdict.BETTER);
        assertThat(contender.shifts().get(ComparisonMetric.P95).verdict()).isEqualTo(Verdict.BETTER);
        // Every run has 0 errors: identical samples, no difference.
        assertThat(contender.shifts().get(ComparisonMetric.ERROR_RATE).verdict())
                .isEqualTo(Verdict.NO_SIGNIFICANT_DIFFERENCE);
        // Shift 28.4 [28.1, 28.65] req/s over a baseline median of 31.65: +90 % [89, 91].
        assertThat(result.verdict()).isEqualTo("webflux-r2dbc rps +90% [89,91]");
        assertThat(result.warnings()).hasSize(10).allMatch(w -> w.contains("counted although 500 iterations dropped"));
    }

    @Test
    void aRunWhoseMachineTheHostStoleFromIsLeftOutByDefaultAndCountedOnRequest() {
        List<Repetition> repetitions = new ArrayList<>();
        for (int round = 0; round < 8; round++) {
            repetitions.add(Repetition.of("a", round, "a-" + round, summary(30, 400, 0), false, null));
            RunSummary b = summary(WEBFLUX_RPS[round], 320, 0);
            // 5 % of the machine's time is still judged; more is not.
            b.setHostSteal(round == 0 ? 0.18 : round == 1 ? 0.05 : 0.0);
            repetitions.add(Repetition.of("b", round, "b-" + round, b, false, null));
        }

        Result leftOut =
                ComparisonAnalysis.analyse(List.of("a", "b"), repetitions, List.of(ComparisonMetric.RPS), 0.95, false);
        assertThat(leftOut.variants().get(1).validRuns()).isEqualTo(7);
        assertThat(leftOut.warnings())
                .contains("run b-0 (b, round 1) is left out: the machine's host took 18.0 % of its CPU time"
                        + " during the measured window (steal in /proc/stat), so the stack had less CPU than the spec"
                        + " gave it (set includeFlaggedRuns to count such runs)")
                .anyMatch(warning -> warning.startsWith("counting the 1 flagged runs left out"));
        assertThat(leftOut.verdictWithFlaggedRuns()).isNotNull();

        Result counted =
                ComparisonAnalysis.analyse(List.of("a", "b"), repetitions, List.of(ComparisonMetric.RPS), 0.95, true);
        assertThat(counted.variants().get(1).validRuns()).isEqualTo(8);
        assertThat(counted.warnings())
                .singleElement()
                .asString()
                .startsWith("run b-0 (b, round 1) is counted although the machine's host took 18.0 %");
    }

    @Test
    void runsThatMeasuredTheGeneratorOrFailedAreLeftOutByDefaultSayingWhich() {
        List<Repetition> repetitions = new ArrayList<>(demo());
        repetitions.add(Repetition.of("webflux-r2dbc", 10, "webflux-10", null, false, "TargetOOMKilled"));
        repetitions.add(Repetition.of("webflux-r2dbc", 11, "webflux-11", summary(58, 330, 0), true, null));

        Result result = ComparisonAnalysis.analyse(
                List.of("mvc-jdbc", "webflux-r2dbc"), repetitions, List.of(ComparisonMetric.RPS), 0.95, false);

        // Every mvc-jdbc run dropped iterations: none is valid, so there is nothing to compare against.
        assertThat(result.variants().getFirst().validRuns()).isZero();
        assertThat(result.variants().get(1).runs()).isEqualTo(12);
        assertThat(result.variants().get(1).validRuns()).isEqualTo(10);
        assertThat(result.contenders().getFirst().shifts()).isEmpty();
        assertThat(result.verdict()).isEqualTo("webflux-r2dbc rps ? (too few valid runs)");
        assertThat(result.warnings())
                .anyMatch(w -> w.equals(
                        "run webflux-10 (webflux-r2dbc, round 11) failed and is left out:" + " TargetOOMKilled"))
                .anyMatch(w -> w.startsWith(
                        "run webflux-11 (webflux-r2dbc, round 12) is left out: its load generator" + " was saturated"))
                .anyMatch(w -> w.startsWith("run mvc-0 (mvc-jdbc, round 1) is left out: 500 iterations dropped"))
                .anyMatch(w -> w.contains("0 and") || w.contains("10 and 0 valid runs of rps"));
    }

    @Test
    void theSameVariantTwiceIsNoSignificantDifference() {
        List<Repetition> repetitions = new ArrayList<>();
        for (int round = 0; round < 6; round++) {
            repetitions.add(Repetition.of("a", round, "a-" + round, summary(WEBFLUX_RPS[round], 320, 0), false, null));
            repetitions.add(
                    Repetition.of("b", round, "b-" + round, summary(WEBFLUX_RPS[round + 4], 320, 0), false, null));
        }

        Result result =
                ComparisonAnalysis.analyse(List.of("a", "b"), repetitions, List.of(ComparisonMetric.RPS), 0.95, false);

        assertThat(result.contenders()
                        .getFirst()
                        .shifts()
                        .get(ComparisonMetric.RPS)
                        .verdict())
                .isEqualTo(Verdict.NO_SIGNIFICANT_DIFFERENCE);
        assertThat(result.verdict()).startsWith("b rps ~ (p=");
        assertThat(result.warnings()).isEmpty();
    }

    @Test
    void aRateEqualInEveryRunIsNoDifferenceAndSaysSoWithoutAPValue() {
        // Both stacks serve an offered 40.1 requests/s in every run: the rank test has no spread to work with.
        List<Repetition> repetitions = new ArrayList<>();
        for (int round = 0; round < 6; round++) {
            repetitions.add(Repetition.of("a", round, "a-" + round, summary(40.1, 120, 0), false, null));
            repetitions.add(Repetition.of("b", round, "b-" + round, summary(40.1, 110 + round, 0), false, null));
        }

        Result result = ComparisonAnalysis.analyse(
                List.of("a", "b"), repetitions, List.of(ComparisonMetric.RPS, ComparisonMetric.P95), 0.95, false);

        var shifts = result.contenders().getFirst().shifts();
        assertThat(shifts.get(ComparisonMetric.RPS).verdict()).isEqualTo(Verdict.NO_SIGNIFICANT_DIFFERENCE);
        assertThat(shifts.get(ComparisonMetric.P95).verdict()).isEqualTo(Verdict.BETTER);
        assertThat(result.verdict()).isEqualTo("b rps ~ (the same in every run)");
    }

    @Test
    void interleavedRoundsRunEveryVariantOnceInASeededOrder() {
        List<Slot> plan = ComparisonPlan.of(3, 4, Order.INTERLEAVED, 42);

        assertThat(plan).hasSize(12);
        for (int round = 0; round < 4; round++) {
            int r = round;
            assertThat(plan.subList(3 * round, 3 * round + 3))
                    .allMatch(slot -> slot.round() == r)
                    .extracting(Slot::variant)
                    .containsExactlyInAnyOrder(0, 1, 2);
        }
        assertThat(ComparisonPlan.of(3, 4, Order.INTERLEAVED, 42)).isEqualTo(plan);
        assertThat(ComparisonPlan.of(2, 3, Order.SEQUENTIAL, 42))
                .containsExactly(
                        new Slot(0, 0), new Slot(0, 1), new Slot(0, 2), new Slot(1, 0), new Slot(1, 1), new Slot(1, 2));
        assertThatThrownBy(() -> ComparisonPlan.of(1, 3, Order.INTERLEAVED, 1)).hasMessageContaining("two or more");
    }
}
