package dev.stackbench.lifecycle;

import dev.stackbench.api.Durations;
import dev.stackbench.api.run.WorkloadSpec;
import dev.stackbench.api.status.Conditions;
import dev.stackbench.api.status.Phase;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.api.status.StepResult;
import dev.stackbench.results.GeneratorCheck;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The decisions of a run's load, made once for both modes: which load comes next (the run's only one, or the next step
 * of a sweep or a capacity search), which phase a running load is in, what a measured load makes of the run (a step
 * judged into status.steps, the best step kept as the summary, the run succeeded), and the words of each. The operator
 * and local mode observe and act; every judgement they record goes through here and {@link RunProgress}, so the same
 * figures give the same status in both.
 *
 * <p>Everything here is a function of the resolved run, the status so far and what the platform measured: the operator
 * can decide again from the stored status after a restart.
 */
public final class RunDriver {

    /** What comes after the loads measured so far. */
    public sealed interface NextLoad permits Send, Finished {}

    /** Send this load next. */
    public record Send(LoadStep load) implements NextLoad {}

    /** A sweep or a capacity search has no more steps: why, and what a capacity search found. */
    public record Finished(SteppedLoad.Done done) implements NextLoad {}

    /**
     * What a platform measured of one load.
     *
     * @param summary the combined k6 summary with the target's figures
     * @param generator what the generator check made of the load generator
     * @param generatorCores the generator's average CPU use in cores, all runners together; null when not measured
     * @param runners how many k6 summaries were combined
     * @param startedAt when the load started, by the runners' own clocks where they said (RFC 3339)
     * @param finishedAt when the load's figures were read (RFC 3339)
     */
    public record MeasuredLoad(
            RunSummary summary,
            GeneratorCheck.Judgement generator,
            Double generatorCores,
            int runners,
            String startedAt,
            String finishedAt) {}

    /**
     * A step's result in status.steps, whether it is the best so far (its summary is then the run's, so a later step
     * that fails loses nothing), and what follows it.
     */
    public record StepRecorded(StepResult result, boolean best, NextLoad next) {}

    /** What a platform does next for a run, decided by {@link #next}. */
    public sealed interface Action
            permits Queue,
                    Provision,
                    Verify,
                    RestartTarget,
                    StartLoad,
                    FollowLoad,
                    Collect,
                    FinishSteps,
                    Fail,
                    CleanUp {}

    /** Wait for the pools (recorded as Queued, saying why). */
    public record Queue(String message) implements Action {}

    /** Create what the run needs (script, database, delay service, target) and wait until it is Ready. */
    public record Provision(Optional<String> waitingFor) implements Action {}

    /**
     * The target is Ready: verify its work per request at low concurrency before any load is measured, and record the
     * verdict in status.verification (the run fails when the work differs from the scenario's).
     */
    public record Verify() implements Action {}

    /** Restart the target for this step (spec.workload.restartBetweenSteps) and wait until it is Ready again. */
    public record RestartTarget(LoadStep load) implements Action {}

    /** Hand this load to the load generator, once. */
    public record StartLoad(LoadStep load) implements Action {}

    /** Follow this load while its runners start and send it. */
    public record FollowLoad(LoadStep load, RunFacts.LoadState state) implements Action {}

    /** Read this load's results. */
    public record Collect(LoadStep load, int runners) implements Action {}

    /** A sweep or a capacity search has no more steps: keep the best step and succeed. */
    public record FinishSteps(SteppedLoad.Done done) implements Action {}

    /** The run failed with this reason and message (recorded already): stop what runs. */
    public record Fail(String reason, String message) implements Action {}

    /** The run has ended: clean up what it created, per spec.cleanup. */
    public record CleanUp() implements Action {}

    /**
     * The next action for a run, from its status so far ({@code progress}) and what the platform observed; records
     * the decisions that need no acting (accepted, pools acquired, target Ready) in {@code progress}. The order is the
     * run's life cycle: admission, the pools, the timeout, provisioning, the verification of the work per request,
     * then each load in turn (started, followed, collected) and, for a sweep or a capacity search, the end of its steps; once ended, cleanup.
     */
    public static Action next(RunProgress progress, ResolvedRun run, RunFacts facts) {
        if (progress.isTerminal()) {
            return new CleanUp();
        }
        progress.accepted();
        if (!facts.violations().isEmpty()) {
            return fail(progress, RunProgress.INVALID_SPEC, String.join("; ", facts.violations()));
        }
        if (!progress.reached(Phase.Provisioning)) {
            if (!facts.pools().free()) {
                progress.waitingForPools(facts.pools().message());
                return new Queue(facts.pools().message());
            }
            progress.poolsAcquired(facts.pools().message());
        }
        Duration timeout = Durations.parse(run.spec().getTimeout());
        Instant start = startOf(progress);
        if (progress.now().isAfter(start.plus(timeout))) {
            return fail(
                    progress,
                    RunProgress.TIMED_OUT,
                    "the run did not finish within spec.timeout (" + run.spec().getTimeout() + "); it was in phase "
                            + progress.phase() + ": " + progress.status().getMessage()
                            + ". Raise spec.timeout or look at the events of the run");
        }
        progress.checkAgainIn(
                Duration.between(progress.now(), start.plus(timeout)).plusMillis(100));
        if (!facts.loadHandedOver()) {
            switch (facts.readiness()) {
                case RunFacts.Broken broken -> {
                    progress.condition(Conditions.TARGET_READY, false, broken.reason(), broken.message());
                    return fail(progress, broken.reason(), broken.message());
                }
                case RunFacts.NotReady notReady -> {
                    if (progress.now().isAfter(start.plus(facts.readyLimit()))) {
                        progress.condition(
                                Conditions.TARGET_READY, false, RunProgress.TARGET_NOT_READY, notReady.problem());
                        return fail(
                                progress,
                                RunProgress.TARGET_NOT_READY,
                                "not Ready within " + Durations.format(facts.readyLimit()) + ": " + notReady.problem());
                    }
                    return new Provision(Optional.of(notReady.problem()));
                }
                case RunFacts.Ready ready -> progress.targetReady();
            }
        } else if (!Conditions.isTrue(progress.status().getConditions(), Conditions.TARGET_READY)
                && !Boolean.TRUE.equals(run.spec().getWorkload().getRestartBetweenSteps())) {
            // The status write that recorded TargetReady can be lost while the load it went with stays: the load
            // exists only because the target was Ready, so the condition is put back.
            progress.targetReady();
        }
        if (!facts.workVerified()) {
            return new Verify();
        }
        List<StepResult> measured = progress.status().getSteps() == null
                ? List.of()
                : progress.status().getSteps();
        NextLoad nextLoad = nextLoad(run, measured);
        if (nextLoad instanceof Finished finished) {
            return new FinishSteps(finished.done());
        }
        LoadStep load = ((Send) nextLoad).load();
        return switch (facts.load()) {
            case RunFacts.NotCreated notCreated ->
                load.number() > 1 && !facts.targetFresh() ? new RestartTarget(load) : new StartLoad(load);
            case RunFacts.Starting starting -> new FollowLoad(load, starting);
            case RunFacts.Running running -> new FollowLoad(load, running);
            case RunFacts.Finished done -> new Collect(load, done.runners());
            case RunFacts.GeneratorFailed failed -> {
                if (load.isStep() && !measured.isEmpty()) {
                    yield generatorFailedAtStep(progress, run, load, failed);
                }
                progress.loadGeneratorFailed(failed.reason(), failed.message());
                yield new Fail(failed.reason(), failed.message());
            }
            case RunFacts.TargetFailed failed -> fail(progress, failed.reason(), failed.message());
        };
    }

    /**
     * A step's load generator failed (a runner OOMKilled at a rate it could not hold, k6 exiting) after earlier steps
     * were measured: the step is recorded as the generator's limit, without figures, and the sweep or capacity search
     * goes on as after any generator-limited step (it ends there, keeping the best step measured), rather than losing
     * the steps measured so far with the run.
     */
    private static Action generatorFailedAtStep(
            RunProgress progress, ResolvedRun run, LoadStep load, RunFacts.GeneratorFailed failed) {
        StepResult result = new StepResult()
                .withStep(load.number())
                .withLevel(load.level())
                .withUnit(load.unit())
                .withOutcome(dev.stackbench.api.status.StepOutcome.GeneratorLimited)
                .withReason("the load generator failed at this level, so the step has no figures (" + failed.reason()
                        + ": " + failed.message() + ")")
                .withFinishedAt(progress.now().toString());
        progress.stepFinished(result);
        NextLoad after = nextLoad(run, progress.status().getSteps());
        return after instanceof Finished finished
                ? new FinishSteps(finished.done())
                : new StartLoad(((Send) after).load());
    }

    private static Fail fail(RunProgress progress, String reason, String message) {
        progress.fail(reason, message);
        return new Fail(reason, message);
    }

    /** When the run got its pools: the timeout and the target's readiness limit count from there. */
    public static Instant startOf(RunProgress progress) {
        return progress.trueSince(RunProgress.POOLS_AVAILABLE).orElse(progress.now());
    }

    private RunDriver() {}

    /** The load under way or next to send, from the steps in the status; empty once a stepped run has none left. */
    public static Optional<LoadStep> currentLoad(RunProgress progress, ResolvedRun run) {
        List<StepResult> measured = progress.status().getSteps() == null
                ? List.of()
                : progress.status().getSteps();
        return nextLoad(run, measured) instanceof Send send ? Optional.of(send.load()) : Optional.empty();
    }

    /** The load to send after the steps measured so far; an ordinary run always has its one load. */
    public static NextLoad nextLoad(ResolvedRun run, List<StepResult> measured) {
        if (!run.stepped()) {
            return new Send(run.plainLoad());
        }
        SteppedLoad.Next next = SteppedLoad.next(run.spec().getWorkload(), measured);
        if (next instanceof SteppedLoad.Done done) {
            return new Finished(done);
        }
        return new Send(run.step(measured.size() + 1, ((SteppedLoad.Step) next).level()));
    }

    /**
     * The load's runners have started: a step announces itself when LoadRunning is not True yet (each step's load is
     * prepared with LoadRunning False; the phase moves through WarmingUp and Running with the first step), then
     * LoadRunning turns True.
     */
    public static void loadStarted(RunProgress progress, LoadStep load, int runners, String targetUrl) {
        WorkloadSpec workload = load.spec().getWorkload();
        if (load.isStep() && !Conditions.isTrue(progress.status().getConditions(), Conditions.LOAD_RUNNING)) {
            progress.stepStarted(
                    load.number(),
                    load.level(),
                    load.unit(),
                    load.maxSteps(),
                    workload.getWarmup(),
                    workload.getDuration());
        }
        progress.loadRunning(runners, targetUrl);
    }

    /**
     * The phase of a running load {@code elapsed} after its runners started: WarmingUp inside the warmup, then Running.
     * Steps after the first leave the phase alone: the run is Running since the first, and its message names the step.
     */
    public static void loadElapsed(RunProgress progress, LoadStep load, Duration elapsed) {
        if (load.number() > 1) {
            return;
        }
        WorkloadSpec workload = load.spec().getWorkload();
        Duration warmup = Durations.parse(workload.getWarmup());
        if (elapsed.compareTo(warmup) < 0) {
            progress.warmingUp(workload.getWarmup());
        } else {
            progress.measuring(workload.getDuration());
        }
    }

    /** An ordinary run's load was read: the generator is judged and the run succeeds with the summary. */
    public static void loadMeasured(RunProgress progress, MeasuredLoad measured) {
        progress.generatorChecked(measured.summary(), measured.generator());
        progress.succeeded(measured.summary(), measured.runners());
    }

    /** A step's load was read: it is judged into status.steps, kept as the summary when best so far. */
    public static StepRecorded stepMeasured(
            RunProgress progress, ResolvedRun run, LoadStep load, MeasuredLoad measured) {
        StepResult result = SteppedLoad.judge(
                run.spec().getWorkload(),
                load.number(),
                load.level(),
                measured.summary(),
                measured.generator().finding(),
                measured.generatorCores());
        result.setStartedAt(measured.startedAt());
        result.setLimitedBy(measured.summary().getLimitedBy());
        result.setFinishedAt(measured.finishedAt());
        if (load.number() == 1 && measured.startedAt() != null) {
            progress.status().setStartedAt(measured.startedAt());
        }
        progress.stepFinished(result);
        boolean best = SteppedLoad.best(progress.status().getSteps())
                .map(step -> step.getStep() == load.number())
                .orElse(false);
        if (best) {
            measured.summary().setStep(load.number());
            progress.status().setSummary(measured.summary());
        }
        return new StepRecorded(result, best, nextLoad(run, progress.status().getSteps()));
    }

    /**
     * No step follows: the run keeps the best step's summary (status.summary since that step) and succeeds; it fails
     * when that summary is missing, which only a lost status write can cause.
     *
     * @param judgeKept the generator check of the kept step, from its summary
     * @param runners how many k6 runners each step had
     */
    public static void stepsFinished(
            RunProgress progress,
            SteppedLoad.Done done,
            Function<RunSummary, GeneratorCheck.Judgement> judgeKept,
            int runners) {
        List<StepResult> steps = progress.status().getSteps() == null
                ? List.of()
                : progress.status().getSteps();
        Optional<StepResult> best = SteppedLoad.best(steps);
        RunSummary kept = progress.status().getSummary();
        if (best.isEmpty()
                || kept == null
                || !Objects.equals(kept.getStep(), best.get().getStep())) {
            progress.resultsUnreadable("the summary of the step the run keeps is missing from status.summary"
                    + " (status.steps has " + steps.size() + " steps): create the run again");
            return;
        }
        progress.stepsDone(done, kept, best.get().getStep());
        progress.loadFinished(runners);
        progress.generatorChecked(kept, judgeKept.apply(kept));
        progress.succeeded(kept, kept.getRunners() == null ? runners : kept.getRunners());
    }
}
