package dev.stackbench.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.run.CapacityObjective;
import dev.stackbench.api.run.CapacitySpec;
import dev.stackbench.api.run.Executor;
import dev.stackbench.api.run.LoadSpec;
import dev.stackbench.api.run.Scenario;
import dev.stackbench.api.run.TargetSpec;
import dev.stackbench.api.run.WorkloadSpec;
import dev.stackbench.api.status.CapacityLimit;
import dev.stackbench.api.status.LatencySummary;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.api.status.StepOutcome;
import dev.stackbench.api.status.StepResult;
import dev.stackbench.api.status.ThresholdResult;
import dev.stackbench.results.GeneratorCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SteppedLoadTest {

    /** What a fake target and generator did at one level. */
    private record Outcome(RunSummary summary, Optional<GeneratorCheck.Finding> finding) {}

    /**
     * A target whose p95 grows from 120 ms to 420 ms up to {@code knee} iterations/s, within the 450 ms objective, and
     * jumps past it beyond, as a queue does once its servers are all busy: the highest rate that meets the objective
     * is {@code knee} exactly.
     */
    private static IntFunction<Outcome> queueingTarget(int knee) {
        return rate -> {
            double p95 = rate <= knee ? 120 + 300.0 * rate / knee : 480 + 2000.0 * (rate - knee) / knee;
            return new Outcome(summary(rate, Math.min(rate, knee), p95, 0, 0), Optional.empty());
        };
    }

    private static RunSummary summary(int rate, double rps, double p95, double errorRate, long dropped) {
        RunSummary summary = new RunSummary();
        summary.setRps(rps);
        summary.setRequests((long) (rps * 20));
        summary.setErrorRate(errorRate);
        summary.setDroppedIterations(dropped);
        summary.setMeasuredSeconds(20.0);
        LatencySummary latency = new LatencySummary();
        latency.setP50(p95 / 2);
        latency.setP95(p95);
        latency.setP99(p95 * 1.2);
        summary.setLatencyMs(latency);
        return summary;
    }

    private static WorkloadSpec capacityWorkload(int from, int to, String resolution) {
        WorkloadSpec workload = new WorkloadSpec();
        workload.setScenario(Scenario.UPSTREAM);
        workload.setUpstreamDelay("300ms");
        workload.setWarmup("5s");
        workload.setDuration("20s");
        workload.setLoad(new LoadSpec().withExecutor(Executor.CONSTANT_ARRIVAL_RATE));
        workload.setCapacity(new CapacitySpec()
                .withObjective(new CapacityObjective().withP95("450ms").withErrorRate(0.01))
                .withFrom(from)
                .withTo(to)
                .withResolution(resolution));
        return workload;
    }

    /** Runs the search against a fake, as local mode and the operator do: one judged step at a time. */
    private static SteppedLoad.Done search(WorkloadSpec workload, IntFunction<Outcome> fake, List<StepResult> steps) {
        for (int guard = 0; guard < 100; guard++) {
            SteppedLoad.Next next = SteppedLoad.next(workload, steps);
            if (next instanceof SteppedLoad.Done done) {
                return done;
            }
            int level = ((SteppedLoad.Step) next).level();
            assertThat(steps)
                    .extracting(StepResult::getLevel)
                    .as("never probes a rate twice")
                    .doesNotContain(level);
            Outcome outcome = fake.apply(level);
            steps.add(SteppedLoad.judge(workload, steps.size() + 1, level, outcome.summary(), outcome.finding(), 0.5));
        }
        throw new AssertionError("the search did not end: " + steps);
    }

    @ParameterizedTest(name = "knee {0}/s, from {1} to {2}, resolution {3}")
    @CsvSource({
        "667, 50, 5000, 5%",
        "2000, 50, 5000, 5%",
        "51, 50, 5000, 5%",
        "4999, 50, 5000, 5%",
        "333, 10, 1000, 1%",
        "1234, 100, 100000, 10%",
        "95, 20, 400, 0.5%"
    })
    void theSearchLandsWithinTheResolutionOfTheKnee(int knee, int from, int to, String resolution) {
        WorkloadSpec workload = capacityWorkload(from, to, resolution);
        List<StepResult> steps = new ArrayList<>();

        SteppedLoad.Done done = search(workload, queueingTarget(knee), steps);

        double fraction = CapacitySpec.resolutionFraction(resolution);
        assertThat(done.capacity().getLimitedBy()).isEqualTo(CapacityLimit.Target);
        int capacity = done.capacity().getRate();
        assertThat(capacity).isLessThanOrEqualTo(knee);
        assertThat((double) knee).isLessThan(Math.max(capacity + 1, capacity * (1 + fraction)));
        assertThat(done.capacity().getLowerBound()).isEqualTo(capacity);
        assertThat(done.capacity().getUpperBound()).isGreaterThan(knee);
        assertThat(done.capacity().getProbes()).hasSize(steps.size());
        assertThat(steps.size()).as("probes made").isLessThanOrEqualTo(SteppedLoad.maxSteps(workload));
        assertThat(done.message()).contains("capacity " + capacity + " iterations/s");
    }

    @Test
    void aTargetStillWithinTheObjectiveAtTheTopOfTheRangeIsReportedAsALowerBound() {
        WorkloadSpec workload = capacityWorkload(50, 300, "5%");
        List<StepResult> steps = new ArrayList<>();

        SteppedLoad.Done done = search(workload, queueingTarget(10_000), steps);

        assertThat(steps).extracting(StepResult::getLevel).containsExactly(50, 100, 200, 300);
        assertThat(done.capacity().getLimitedBy()).isEqualTo(CapacityLimit.Range);
        assertThat(done.capacity().getRate()).isEqualTo(300);
        assertThat(done.capacity().getUpperBound()).isNull();
        assertThat(done.message()).contains("raise capacity.to");
    }

    @Test
    void aTargetFailingAtTheFirstRateHasNoCapacity() {
        WorkloadSpec workload = capacityWorkload(50, 300, "5%");
        List<StepResult> steps = new ArrayList<>();

        SteppedLoad.Done done = search(workload, queueingTarget(20), steps);

        assertThat(steps).hasSize(1);
        assertThat(done.capacity().getLimitedBy()).isEqualTo(CapacityLimit.Floor);
        assertThat(done.capacity().getRate()).isNull();
        assertThat(done.capacity().getUpperBound()).isEqualTo(50);
        assertThat(done.message()).contains("lower capacity.from").contains("p95");
    }

    @Test
    void aProbeThatFailedWhileTheHostStoleSaysSoAndTheCapacityMayBeHigher() {
        // The knee is at 300/s; the probe at 400/s fails while the host takes 12 % of the machine, the one at 50/s
        // passes with 9 % taken (a pass needs no doubt).
        IntFunction<Outcome> fake = rate -> {
            Outcome outcome = queueingTarget(300).apply(rate);
            outcome.summary().setHostSteal(rate == 400 ? 0.12 : rate == 50 ? 0.09 : 0.001);
            return outcome;
        };
        WorkloadSpec workload = capacityWorkload(50, 1000, "50%");
        List<StepResult> steps = new ArrayList<>();

        SteppedLoad.Done done = search(workload, fake, steps);

        StepResult stolen = steps.stream()
                .filter(step -> step.getLevel() == 400)
                .findFirst()
                .orElseThrow();
        assertThat(stolen.getOutcome()).isEqualTo(StepOutcome.Failed);
        assertThat(stolen.getHostSteal()).isEqualTo(0.12);
        assertThat(stolen.getReason())
                .startsWith("p95 ")
                .contains("; the machine's host took 12.0 % of its CPU time during the measured window");
        assertThat(steps.getFirst().getReason()).doesNotContain("host took");
        assertThat(done.message())
                .contains("the machine's host took 12.0 % of its CPU time during the probe at 400 iterations/s (steal)")
                .contains("the capacity may be higher than found")
                .doesNotContain("at 50 iterations/s");
        assertThat(done.capacity().getMessage()).isEqualTo(done.message());

        List<StepResult> quiet = new ArrayList<>();
        assertThat(search(workload, queueingTarget(300), quiet).message()).doesNotContain("host took");
    }

    @Test
    void aGeneratorThatCannotDeliverTheRateStopsTheSearchAndIsNamed() {
        // The target would hold 5000/s; the generator drops a fifth of the iterations above 700/s.
        IntFunction<Outcome> fake = rate -> rate <= 700
                ? new Outcome(summary(rate, rate, 110, 0, 0), Optional.empty())
                : new Outcome(summary(rate, 700, 110, 0, (long) (rate * 20 * 0.2)), Optional.empty());
        WorkloadSpec workload = capacityWorkload(50, 5000, "5%");
        List<StepResult> steps = new ArrayList<>();

        SteppedLoad.Done done = search(workload, fake, steps);

        assertThat(steps).extracting(StepResult::getLevel).containsExactly(50, 100, 200, 400, 800);
        assertThat(steps.get(4).getOutcome()).isEqualTo(StepOutcome.GeneratorLimited);
        assertThat(steps.get(4).getReason()).contains("k6 dropped 3200 of about 16000 iterations");
        assertThat(done.reason()).isEqualTo(SteppedLoad.GENERATOR_LIMITED);
        assertThat(done.capacity().getLimitedBy()).isEqualTo(CapacityLimit.Generator);
        assertThat(done.capacity().getRate()).isEqualTo(400);
        assertThat(done.message())
                .contains("the load generator, not the target, was the limit at 800 iterations/s")
                .contains("at least 400");
    }

    @Test
    void aSaturatedGeneratorCpuStopsTheSearchEvenWithoutDroppedIterations() {
        IntFunction<Outcome> fake = rate -> new Outcome(
                summary(rate, rate, 110, 0, 0),
                rate >= 400
                        ? Optional.of(new GeneratorCheck.Finding(
                                GeneratorCheck.RUNNER_CPU_SATURATED, "k6 used 0.97 CPU (97% of the CPUs it may use)"))
                        : Optional.empty());
        List<StepResult> steps = new ArrayList<>();

        SteppedLoad.Done done = search(capacityWorkload(100, 5000, "5%"), fake, steps);

        assertThat(done.capacity().getLimitedBy()).isEqualTo(CapacityLimit.Generator);
        assertThat(done.capacity().getRate()).isEqualTo(200);
        assertThat(done.message()).contains("k6 used 0.97 CPU");
    }

    @Test
    void droppedIterationsWhileTheObjectiveFailsAreTheTargetsFault() {
        WorkloadSpec workload = capacityWorkload(50, 5000, "5%");
        StepResult step = SteppedLoad.judge(workload, 1, 400, summary(400, 300, 2400, 0, 2000), Optional.empty(), null);

        assertThat(step.getOutcome()).isEqualTo(StepOutcome.Failed);
        assertThat(step.getReason()).contains("p95 2400.0 ms > 450ms").contains("VUs all waiting on slow answers");
    }

    @Test
    void aFewIterationsDroppedAtTheStartDoNotMakeAGeneratorLimit() {
        StepResult step = SteppedLoad.judge(
                capacityWorkload(50, 5000, "5%"), 1, 400, summary(400, 400, 100, 0, 12), Optional.empty(), null);

        assertThat(step.getOutcome()).isEqualTo(StepOutcome.Passed);
        assertThat(step.getReason()).isEqualTo("p95 100.0 ms <= 450ms, error rate 0.0000 <= 0.01");
    }

    private static WorkloadSpec sweep(List<Integer> levels, Boolean continueAfterBreak) {
        WorkloadSpec workload = new WorkloadSpec();
        workload.setScenario(Scenario.UPSTREAM);
        workload.setUpstreamDelay("300ms");
        workload.setWarmup("5s");
        workload.setDuration("20s");
        workload.setLoad(new LoadSpec().withExecutor(Executor.CONSTANT_VUS));
        workload.setSweep(levels);
        workload.setContinueAfterBreak(continueAfterBreak);
        return workload;
    }

    /** A closed-model target with 200 threads and a 300 ms call: Little's law caps it at 667/s. */
    private static Outcome threadBound(int vus, boolean withThreshold) {
        double rps = Math.min(vus / 0.3, 200 / 0.3);
        double latencyMs = vus / rps * 1000;
        RunSummary summary = summary(vus, rps, latencyMs * 1.1, vus >= 3000 ? 0.2 : 0, 0);
        if (withThreshold) {
            boolean passed = latencyMs * 1.1 < 450;
            summary.setThresholdsPassed(passed);
            summary.setThresholdResults(List.of(new ThresholdResult()
                    .withMetric("http_req_duration")
                    .withExpression("p(95)<450")
                    .withPassed(passed)
                    .withValue(latencyMs * 1.1)));
        }
        return new Outcome(summary, Optional.empty());
    }

    @Test
    void aSweepRunsEveryLevelAndKeepsTheFastestStepThatPassed() {
        WorkloadSpec workload = sweep(List.of(50, 100, 150, 200), null);
        List<StepResult> steps = new ArrayList<>();

        SteppedLoad.Done done = search(workload, level -> threadBound(level, true), steps);

        assertThat(done.reason()).isEqualTo(SteppedLoad.SWEEP_COMPLETE);
        assertThat(done.capacity()).isNull();
        assertThat(steps).extracting(StepResult::getOutcome).containsOnly(StepOutcome.Passed);
        assertThat(steps).extracting(StepResult::getUnit).containsOnly("VUs");
        assertThat(SteppedLoad.best(steps).orElseThrow().getLevel()).isEqualTo(200);
    }

    @Test
    void aSweepStepThatBrokeWhileTheHostStoleSaysSoInTheSweepsEnd() {
        WorkloadSpec workload = sweep(List.of(100, 800, 1600), null);
        List<StepResult> steps = new ArrayList<>();

        SteppedLoad.Done done = search(
                workload,
                level -> {
                    Outcome outcome = threadBound(level, true);
                    outcome.summary().setHostSteal(level == 800 ? 0.3 : 0.0);
                    return outcome;
                },
                steps);

        assertThat(steps).extracting(StepResult::getOutcome).containsExactly(StepOutcome.Passed, StepOutcome.Broken);
        assertThat(steps).extracting(StepResult::getHostSteal).containsExactly(0.0, 0.3);
        assertThat(done.message())
                .startsWith("step 2 (800 VUs) broke the stack: missed by more than half its limit")
                .contains("the machine's host took 30.0 % of its CPU time during the measured window");
    }

    @Test
    void aSweepStopsAfterTheStepThatBrokeTheStack() {
        WorkloadSpec workload = sweep(List.of(100, 200, 250, 400, 800, 1600), null);
        List<StepResult> steps = new ArrayList<>();

        SteppedLoad.Done done = search(workload, level -> threadBound(level, true), steps);

        // 250 VUs: p95 412 ms passes; 400 VUs: 660 ms fails but by less than half; 800 VUs: 1320 ms is broken.
        assertThat(steps)
                .extracting(StepResult::getOutcome)
                .containsExactly(
                        StepOutcome.Passed,
                        StepOutcome.Passed,
                        StepOutcome.Passed,
                        StepOutcome.Failed,
                        StepOutcome.Broken);
        assertThat(done.reason()).isEqualTo(SteppedLoad.SWEEP_STOPPED);
        assertThat(done.message())
                .contains("step 5 (800 VUs) broke the stack")
                .contains("the higher level was not run (continueAfterBreak: true runs them)");
        // 200 and 250 VUs both reach the 667/s cap: the first step to reach the highest rps is kept.
        assertThat(SteppedLoad.best(steps).orElseThrow().getLevel()).isEqualTo(200);
    }

    @Test
    void continueAfterBreakRunsEveryLevel() {
        WorkloadSpec workload = sweep(List.of(1000, 3000, 6000), true);
        List<StepResult> steps = new ArrayList<>();

        SteppedLoad.Done done = search(workload, level -> threadBound(level, false), steps);

        assertThat(steps).hasSize(3);
        assertThat(steps.get(1).getOutcome()).isEqualTo(StepOutcome.Broken);
        assertThat(steps.get(1).getReason()).contains("20.0% of its requests failed");
        assertThat(done.reason()).isEqualTo(SteppedLoad.SWEEP_COMPLETE);
        assertThat(SteppedLoad.best(steps).orElseThrow().getLevel()).isEqualTo(1000);
    }

    @Test
    void aStepSpecIsAnOrdinaryRunAtItsLevel() {
        BenchmarkRunSpec spec = new BenchmarkRunSpec();
        spec.setTarget(new TargetSpec().withVariant("webflux-r2dbc"));
        spec.setWorkload(capacityWorkload(50, 5000, "5%"));
        spec.getWorkload().setRestartBetweenSteps(true);

        BenchmarkRunSpec step = SteppedLoad.specFor(spec, 800);

        assertThat(step.getWorkload().isStepped()).isFalse();
        assertThat(step.getWorkload().getRestartBetweenSteps()).isNull();
        assertThat(step.getWorkload().getLoad().getRate()).isEqualTo(800);
        // Room for twice the objective's p95 at 800/s: 800 x 0.9 s.
        assertThat(dev.stackbench.k6.K6ScriptGenerator.maxVus(step)).isGreaterThanOrEqualTo(720);
        assertThat(spec.getWorkload().getCapacity())
                .as("the run's own spec is untouched")
                .isNotNull();
        assertThat(spec.getWorkload().getLoad().getRate()).isNull();

        BenchmarkRunSpec closed = new BenchmarkRunSpec();
        closed.setTarget(new TargetSpec().withVariant("mvc-jdbc"));
        closed.setWorkload(sweep(List.of(10, 20), null));
        assertThat(SteppedLoad.specFor(closed, 20).getWorkload().getLoad().getVus())
                .isEqualTo(20);
    }

    @Test
    void theMostStepsBoundWhatATimeoutMustCover() {
        assertThat(SteppedLoad.maxSteps(capacityWorkload(50, 5000, "5%"))).isEqualTo(13);
        assertThat(SteppedLoad.maxSteps(sweep(List.of(1, 2, 3), null))).isEqualTo(3);
    }
}
