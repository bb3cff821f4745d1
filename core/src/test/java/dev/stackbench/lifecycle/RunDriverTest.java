package dev.stackbench.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.Conditions;
import dev.stackbench.api.status.LatencySummary;
import dev.stackbench.api.status.LimitedBy;
import dev.stackbench.api.status.Phase;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.api.status.StepOutcome;
import dev.stackbench.results.GeneratorCheck;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The run driver with no cluster and no processes: the same loop both modes go through, fed with what a platform
 * would have measured at each load level.
 */
class RunDriverTest {

    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private static final GeneratorCheck.Judgement KEPT_UP =
            new GeneratorCheck.Judgement(Optional.empty(), "k6 kept up");

    private static BenchmarkRun example(String file) {
        BenchmarkRun run = BenchmarkRuns.readOne(Path.of("..", "examples", file));
        run.getMetadata().setGeneration(1L);
        return run;
    }

    private static RunSummary summary(double rps, double p95, double errorRate) {
        RunSummary summary = new RunSummary();
        summary.setRps(rps);
        summary.setRequests((long) (rps * 10));
        summary.setErrorRate(errorRate);
        summary.setDroppedIterations(0L);
        summary.setMeasuredSeconds(10.0);
        LatencySummary latency = new LatencySummary();
        latency.setP50(p95 / 2);
        latency.setP95(p95);
        latency.setP99(p95);
        summary.setLatencyMs(latency);
        return summary;
    }

    private static RunDriver.MeasuredLoad measured(RunSummary summary) {
        return new RunDriver.MeasuredLoad(summary, KEPT_UP, 0.2, 1, "2026-01-01T10:00:05Z", "2026-01-01T10:00:20Z");
    }

    @Test
    void aResolvedRunIsDefaultedOnceAndOwnsItsSpec() {
        BenchmarkRun run = example("webflux-r2dbc.yaml");
        run.getSpec().setTimeout(null);

        ResolvedRun resolved = ResolvedRun.of(run);
        run.getSpec().getWorkload().setDuration("1h");

        assertThat(resolved.spec().getTimeout()).as("defaulted").isEqualTo("15m");
        assertThat(resolved.spec().getWorkload().getDuration())
                .as("a later change of the object does not reach the run")
                .isNotEqualTo("1h");
        assertThat(resolved.generation()).isEqualTo(1L);
    }

    @Test
    void anOrdinaryRunHasOneLoadNumberedZeroAtItsOwnSpec() {
        ResolvedRun run = ResolvedRun.of(example("webflux-r2dbc.yaml"));

        RunDriver.NextLoad next = RunDriver.nextLoad(run, List.of());

        assertThat(next).isInstanceOf(RunDriver.Send.class);
        LoadStep load = ((RunDriver.Send) next).load();
        assertThat(load.number()).isZero();
        assertThat(load.isStep()).isFalse();
        assertThat(load.label("r")).isEqualTo("r");
        assertThat(load.spec().getWorkload().getDuration())
                .isEqualTo(run.spec().getWorkload().getDuration());
    }

    /** Elapsed time since the runners started -> the phase a first load is in. */
    static Stream<Arguments> phases() {
        return Stream.of(
                Arguments.of(0, Phase.WarmingUp),
                Arguments.of(4, Phase.WarmingUp),
                Arguments.of(5, Phase.Running),
                Arguments.of(60, Phase.Running));
    }

    @ParameterizedTest
    @MethodSource("phases")
    void aRunningLoadIsWarmingUpThenRunning(int elapsedSeconds, Phase expected) {
        BenchmarkRun object = example("webflux-r2dbc.yaml");
        object.getSpec().getWorkload().setWarmup("5s");
        ResolvedRun run = ResolvedRun.of(object);
        RunProgress progress = new RunProgress(object, T0);
        progress.accepted();
        progress.poolsAcquired("pools");
        progress.targetReady();

        RunDriver.loadStarted(progress, run.plainLoad(), 1, "http://t");
        RunDriver.loadElapsed(progress, run.plainLoad(), Duration.ofSeconds(elapsedSeconds));

        assertThat(progress.phase()).isEqualTo(expected);
        assertThat(Conditions.isTrue(progress.status().getConditions(), Conditions.LOAD_RUNNING))
                .isTrue();
    }

    /**
     * A sweep through the whole driver loop: each row is what the platform measured at a level (rps, p95, error rate),
     * and the expected outcome of the step. The sweep stops at the first broken step.
     */
    static Stream<Arguments> sweeps() {
        return Stream.of(
                Arguments.of(
                        List.of(new double[] {50, 100, 0}, new double[] {100, 120, 0}, new double[] {150, 140, 0}),
                        List.of(StepOutcome.Passed, StepOutcome.Passed, StepOutcome.Passed),
                        SteppedLoad.SWEEP_COMPLETE,
                        3),
                Arguments.of(
                        List.of(new double[] {50, 100, 0}, new double[] {90, 2000, 0.5}),
                        List.of(StepOutcome.Passed, StepOutcome.Broken),
                        SteppedLoad.SWEEP_STOPPED,
                        1));
    }

    @ParameterizedTest
    @MethodSource("sweeps")
    void aSweepRunsItsStepsKeepsTheBestAndSucceeds(
            List<double[]> measurements, List<StepOutcome> outcomes, String doneReason, int keptStep) {
        BenchmarkRun object = example("webflux-r2dbc.yaml");
        object.getSpec().getWorkload().getLoad().setRate(null);
        object.getSpec().getWorkload().setSweep(List.of(50, 100, 150));
        ResolvedRun run = ResolvedRun.of(object);
        RunProgress progress = new RunProgress(object, T0);
        progress.accepted();
        progress.poolsAcquired("pools");
        progress.targetReady();

        List<StepOutcome> seen = new ArrayList<>();
        RunDriver.NextLoad next = RunDriver.nextLoad(run, List.of());
        int measuredSoFar = 0;
        while (next instanceof RunDriver.Send send) {
            LoadStep load = send.load();
            assertThat(load.number()).isEqualTo(measuredSoFar + 1);
            assertThat(load.spec().getWorkload().getLoad().getRate()).isEqualTo(load.level());
            assertThat(load.spec().getWorkload().isStepped())
                    .as("a step's spec is an ordinary run's")
                    .isFalse();
            RunDriver.loadStarted(progress, load, 1, "http://t");
            double[] figures = measurements.get(measuredSoFar++);
            RunDriver.StepRecorded recorded =
                    RunDriver.stepMeasured(progress, run, load, measured(summary(figures[0], figures[1], figures[2])));
            seen.add(recorded.result().getOutcome());
            // What a platform does between steps: the next step's load is prepared with LoadRunning False.
            progress.condition(Conditions.LOAD_RUNNING, false, "TestRunCreated", "next step prepared");
            next = recorded.next();
        }
        RunDriver.stepsFinished(progress, ((RunDriver.Finished) next).done(), kept -> KEPT_UP, 1);

        assertThat(seen).isEqualTo(outcomes);
        assertThat(progress.phase()).isEqualTo(Phase.Succeeded);
        assertThat(progress.status().getSteps()).hasSize(outcomes.size());
        assertThat(progress.status().getSummary().getStep()).isEqualTo(keptStep);
        assertThat(progress.status().getMessage()).contains("the summary is step " + keptStep);
        assertThat(progress.takeEvents())
                .extracting(RunProgress.Event::reason)
                .filteredOn(reason -> reason.startsWith("Step") || reason.equals(doneReason))
                .as("each step announced once, judged once, then why the steps ended")
                .hasSize(2 * outcomes.size() + 1)
                .last()
                .isEqualTo(doneReason);
    }

    /** A sweep of one step, 50 iterations/s, about to send that step's load. */
    private record OneStep(ResolvedRun run, RunProgress progress, LoadStep load) {

        static OneStep sweep() {
            BenchmarkRun object = example("webflux-r2dbc.yaml");
            object.getSpec().getWorkload().getLoad().setRate(null);
            object.getSpec().getWorkload().setSweep(List.of(50));
            ResolvedRun run = ResolvedRun.of(object);
            return new OneStep(
                    run, new RunProgress(object, T0), ((RunDriver.Send) RunDriver.nextLoad(run, List.of())).load());
        }
    }

    @Test
    void aStepsRunWhoseKeptSummaryWasLostFailsInsteadOfSucceedingEmpty() {
        OneStep step = OneStep.sweep();
        RunProgress progress = step.progress();
        RunDriver.StepRecorded recorded =
                RunDriver.stepMeasured(progress, step.run(), step.load(), measured(summary(50, 100, 0)));
        progress.status().setSummary(null);

        RunDriver.stepsFinished(progress, ((RunDriver.Finished) recorded.next()).done(), kept -> KEPT_UP, 1);

        assertThat(progress.phase()).isEqualTo(Phase.Failed);
        assertThat(progress.status().getMessage()).contains("missing from status.summary");
    }

    @Test
    void aStepCarriesWhatLimitedItsLoad() {
        OneStep step = OneStep.sweep();
        RunSummary summary = summary(50, 100, 0);
        summary.setLimitedBy(new LimitedBy("none", List.of("50.0 of 50.0 req/s offered")));

        RunDriver.StepRecorded recorded =
                RunDriver.stepMeasured(step.progress(), step.run(), step.load(), measured(summary));

        assertThat(recorded.result().getLimitedBy().getResource()).isEqualTo("none");
        assertThat(step.progress().status().getSteps().getFirst().getLimitedBy().getEvidence())
                .containsExactly("50.0 of 50.0 req/s offered");
    }

    @Test
    void anOrdinaryRunsMeasuredLoadChecksTheGeneratorAndSucceeds() {
        BenchmarkRun object = example("webflux-r2dbc.yaml");
        RunProgress progress = new RunProgress(object, T0);
        RunSummary summary = summary(60, 310, 0);
        GeneratorCheck.Judgement saturated = GeneratorCheck.judge(
                List.of(GeneratorCheck.Generator.localProcess(0.95, 1, Double.NaN, "nobody")), 0, List.of());

        RunDriver.loadMeasured(progress, new RunDriver.MeasuredLoad(summary, saturated, 0.95, 1, null, null));

        assertThat(progress.phase()).isEqualTo(Phase.Succeeded);
        assertThat(progress.condition(Conditions.GENERATOR_SATURATED))
                .map(c -> Map.entry(c.getStatus(), c.getReason()))
                .contains(Map.entry(Conditions.TRUE, GeneratorCheck.RUNNER_CPU_SATURATED));
        assertThat(summary.getWarnings()).anyMatch(w -> w.startsWith(GeneratorCheck.FINDING_PREFIX));
    }

    // ---------------------------------------------------------------------------------------------------------
    // The phase order: next(progress, run, facts) -> action

    private static final RunFacts.Pools FREE = new RunFacts.Pools(true, "the pools are free");

    private static RunFacts facts(
            RunFacts.Pools pools, boolean handedOver, RunFacts.Readiness readiness, RunFacts.LoadState load) {
        return new RunFacts(List.of(), pools, handedOver, readiness, Duration.ofMinutes(5), true, load, true);
    }

    /** As {@link #facts}, with the target's work per request not verified yet. */
    private static RunFacts unverified(boolean handedOver, RunFacts.LoadState load) {
        return new RunFacts(List.of(), FREE, handedOver, ready(), Duration.ofMinutes(5), true, load, false);
    }

    private static RunFacts.Readiness ready() {
        return new RunFacts.Ready();
    }

    private static RunFacts.LoadState notCreated() {
        return new RunFacts.NotCreated();
    }

    /** A run in each situation a platform can observe, and the action the driver picks. */
    static Stream<Arguments> actions() {
        return Stream.of(
                Arguments.of(
                        "another run holds a pool",
                        facts(new RunFacts.Pools(false, "run other holds pool target"), false, ready(), notCreated()),
                        RunDriver.Queue.class,
                        Phase.Queued),
                Arguments.of(
                        "pools free, target starting",
                        facts(FREE, false, new RunFacts.NotReady("target t: 0/1 Ready"), notCreated()),
                        RunDriver.Provision.class,
                        Phase.Provisioning),
                Arguments.of(
                        "target OOMKilled while starting",
                        facts(FREE, false, new RunFacts.Broken("TargetOOMKilled", "target t OOMKilled"), notCreated()),
                        RunDriver.Fail.class,
                        Phase.Failed),
                Arguments.of(
                        "target Ready, no load yet",
                        facts(FREE, false, ready(), notCreated()),
                        RunDriver.StartLoad.class,
                        Phase.Provisioning),
                Arguments.of(
                        "target Ready, its work not verified yet",
                        unverified(false, notCreated()),
                        RunDriver.Verify.class,
                        Phase.Provisioning),
                Arguments.of(
                        "runners started early wait in their gate, the work not verified yet",
                        unverified(true, new RunFacts.Starting(Optional.empty())),
                        RunDriver.Verify.class,
                        Phase.Provisioning),
                Arguments.of(
                        "runners starting",
                        facts(FREE, true, ready(), new RunFacts.Starting(Optional.empty())),
                        RunDriver.FollowLoad.class,
                        Phase.Provisioning),
                Arguments.of(
                        "runners sending load",
                        facts(FREE, true, ready(), new RunFacts.Running(2, Duration.ofSeconds(3))),
                        RunDriver.FollowLoad.class,
                        Phase.Provisioning),
                Arguments.of(
                        "runners finished",
                        facts(FREE, true, ready(), new RunFacts.Finished(2)),
                        RunDriver.Collect.class,
                        Phase.Provisioning),
                Arguments.of(
                        "a runner failed",
                        facts(FREE, true, ready(), new RunFacts.GeneratorFailed("RunnerFailed", "runner 1 exited 1")),
                        RunDriver.Fail.class,
                        Phase.Failed));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("actions")
    void theDriverPicksTheNextActionFromWhatWasObserved(
            String situation, RunFacts facts, Class<?> expectedAction, Phase expectedPhase) {
        BenchmarkRun object = example("webflux-r2dbc.yaml");
        RunProgress progress = new RunProgress(object, T0);

        RunDriver.Action action = RunDriver.next(progress, ResolvedRun.of(object), facts);

        assertThat(action).isInstanceOf(expectedAction);
        assertThat(progress.phase()).isEqualTo(expectedPhase);
    }

    @Test
    void anInvalidSpecFailsBeforeTheRunTakesItsPools() {
        BenchmarkRun object = example("webflux-r2dbc.yaml");
        RunProgress progress = new RunProgress(object, T0);
        RunFacts invalid = new RunFacts(
                List.of("spec.target.variant: unknown variant x"),
                FREE,
                false,
                ready(),
                Duration.ofMinutes(5),
                true,
                notCreated(),
                true);

        assertThat(RunDriver.next(progress, ResolvedRun.of(object), invalid)).isInstanceOf(RunDriver.Fail.class);
        assertThat(progress.status().getMessage()).isEqualTo("spec.target.variant: unknown variant x");
        assertThat(progress.condition(RunProgress.POOLS_AVAILABLE)).isEmpty();
    }

    @Test
    void aTargetNotReadyWithinItsLimitFailsTheRunAndAnEndedRunIsCleanedUp() {
        BenchmarkRun object = example("webflux-r2dbc.yaml");
        RunProgress started = new RunProgress(object, T0);
        RunDriver.next(
                started, ResolvedRun.of(object), facts(FREE, false, new RunFacts.NotReady("slow"), notCreated()));
        object.setStatus(started.status());

        RunProgress later = new RunProgress(object, T0.plus(Duration.ofMinutes(6)));
        RunDriver.Action action = RunDriver.next(
                later, ResolvedRun.of(object), facts(FREE, false, new RunFacts.NotReady("slow"), notCreated()));

        assertThat(action).isInstanceOf(RunDriver.Fail.class);
        assertThat(later.status().getMessage()).isEqualTo("not Ready within 5m: slow");
        object.setStatus(later.status());
        assertThat(RunDriver.next(
                        new RunProgress(object, T0), ResolvedRun.of(object), facts(FREE, true, ready(), notCreated())))
                .isInstanceOf(RunDriver.CleanUp.class);
    }

    @Test
    void aRunPastItsTimeoutFailsWhateverItWasDoing() {
        BenchmarkRun object = example("webflux-r2dbc.yaml");
        object.getSpec().setTimeout("2m");
        RunProgress started = new RunProgress(object, T0);
        RunDriver.next(
                started, ResolvedRun.of(object), facts(FREE, true, ready(), new RunFacts.Running(1, Duration.ZERO)));
        object.setStatus(started.status());

        RunProgress later = new RunProgress(object, T0.plus(Duration.ofMinutes(3)));
        RunDriver.Action action = RunDriver.next(
                later,
                ResolvedRun.of(object),
                facts(FREE, true, ready(), new RunFacts.Running(1, Duration.ofMinutes(3))));

        assertThat(action).isInstanceOf(RunDriver.Fail.class);
        assertThat(((RunDriver.Fail) action).reason()).isEqualTo(RunProgress.TIMED_OUT);
        assertThat(later.status().getMessage()).startsWith("the run did not finish within spec.timeout (2m)");
    }

    @Test
    void aSweepRestartsItsTargetBeforeALaterStepWhenAskedAndFinishesAfterItsLastStep() {
        BenchmarkRun object = example("webflux-r2dbc.yaml");
        object.getSpec().getWorkload().getLoad().setRate(null);
        object.getSpec().getWorkload().setSweep(List.of(50, 100));
        object.getSpec().getWorkload().setRestartBetweenSteps(true);
        ResolvedRun run = ResolvedRun.of(object);
        RunProgress progress = new RunProgress(object, T0);
        RunDriver.stepMeasured(progress, run, run.step(1, 50), measured(summary(50, 100, 0)));
        RunFacts restarting =
                new RunFacts(List.of(), FREE, true, ready(), Duration.ofMinutes(5), false, notCreated(), true);

        RunDriver.Action action = RunDriver.next(progress, run, restarting);

        assertThat(action).isInstanceOf(RunDriver.RestartTarget.class);
        assertThat(((RunDriver.RestartTarget) action).load().number()).isEqualTo(2);
        RunDriver.stepMeasured(progress, run, run.step(2, 100), measured(summary(100, 100, 0)));
        assertThat(RunDriver.next(progress, run, facts(FREE, true, ready(), notCreated())))
                .isInstanceOf(RunDriver.FinishSteps.class);
    }

    @Test
    void aCapacityProbeWhoseRunnerFailsEndsTheSearchGeneratorLimitedKeepingTheProbesBeforeIt() {
        BenchmarkRun object = capacitySearch();
        ResolvedRun run = ResolvedRun.of(object);
        RunProgress progress = new RunProgress(object, T0);
        RunDriver.stepMeasured(progress, run, run.step(1, 100), measured(summary(100, 310, 0)));
        RunFacts oomKilled = facts(
                FREE,
                true,
                ready(),
                new RunFacts.GeneratorFailed("RunnerFailed", "runner 1 of TestRun r-s2 was OOMKilled (memory 512Mi)"));

        RunDriver.Action action = RunDriver.next(progress, run, oomKilled);

        assertThat(action).isInstanceOf(RunDriver.FinishSteps.class);
        RunDriver.FinishSteps finish = (RunDriver.FinishSteps) action;
        assertThat(finish.done().reason()).isEqualTo(SteppedLoad.GENERATOR_LIMITED);
        assertThat(finish.done().message())
                .contains("at least 100 iterations/s")
                .contains("OOMKilled");
        assertThat(progress.status().getSteps()).hasSize(2);
        assertThat(progress.status().getSteps().get(1)).satisfies(step -> {
            assertThat(step.getOutcome()).isEqualTo(dev.stackbench.api.status.StepOutcome.GeneratorLimited);
            assertThat(step.getLevel()).isEqualTo(200);
            assertThat(step.getRps()).isNull();
        });
        assertThat(progress.isTerminal()).isFalse();
    }

    @Test
    void aFirstProbeWhoseRunnerFailsFailsTheRunForNothingWasMeasured() {
        BenchmarkRun object = capacitySearch();
        ResolvedRun run = ResolvedRun.of(object);
        RunProgress progress = new RunProgress(object, T0);

        RunDriver.Action action = RunDriver.next(
                progress,
                run,
                facts(FREE, true, ready(), new RunFacts.GeneratorFailed("RunnerFailed", "runner 1 OOMKilled")));

        assertThat(action).isInstanceOf(RunDriver.Fail.class);
        assertThat(progress.phase()).isEqualTo(Phase.Failed);
    }

    /** The example run as a capacity search from 100/s to 6400/s for a p95 of 450 ms. */
    private static BenchmarkRun capacitySearch() {
        BenchmarkRun object = example("webflux-r2dbc.yaml");
        object.getSpec().getWorkload().getLoad().setRate(null);
        object.getSpec()
                .getWorkload()
                .setCapacity(new dev.stackbench.api.run.CapacitySpec()
                        .withObjective(new dev.stackbench.api.run.CapacityObjective().withP95("450ms"))
                        .withFrom(100)
                        .withTo(6400)
                        .withResolution("10%"));
        return object;
    }
}
