package dev.stackbench.operator.run;

import dev.stackbench.api.Durations;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.Conditions;
import dev.stackbench.lifecycle.LoadStep;
import dev.stackbench.lifecycle.RunDriver;
import dev.stackbench.lifecycle.RunFacts;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.operator.RunLabels;
import dev.stackbench.operator.RunnerHealth;
import dev.stackbench.operator.RunnerProgress;
import dev.stackbench.operator.TargetReadiness;
import dev.stackbench.operator.objects.K6TestRun;
import dev.stackbench.operator.objects.ReadinessGate;
import dev.stackbench.operator.objects.TargetService;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A load under way: where its TestRun and runners are ({@link #state}), and while they start and send it, the run's
 * messages, its phase (WarmingUp, then Running, by the time since load started) and the target's scrapes
 * ({@link #follow}).
 */
public final class LoadFollowing {

    private final RunMeasurement measurement;
    private final RunnerProgress runnerProgress = new RunnerProgress();

    public LoadFollowing(RunMeasurement measurement) {
        this.measurement = measurement;
    }

    /**
     * Where the load's TestRun is: not created, starting, running, finished; or failed, by a runner, by k6-operator, or
     * by a target that restarted under it once it was Ready (its figures would mix two processes).
     */
    RunFacts.LoadState state(RunContext pass, LoadStep load) {
        RunProgress progress = pass.progress();
        BenchmarkRun view = pass.view(load);
        String name = RunLabels.testRunName(view);
        Optional<GenericKubernetesResource> testRun = pass.secondary(GenericKubernetesResource.class, name);
        if (testRun.isEmpty()) {
            return new RunFacts.NotCreated();
        }
        String stage = K6TestRun.stage(testRun.get());
        List<Pod> runnerPods = pass.runnerPods(view);
        List<Job> runnerJobs = pass.client()
                .batch()
                .v1()
                .jobs()
                .inNamespace(view.getMetadata().getNamespace())
                .withLabel(RunLabels.K6_TEST_RUN, name)
                .list()
                .getItems();
        // A start that failed before the target was Ready (e.g. while the database came up) does not matter.
        // An early TestRun's creation says nothing about the target's readiness: until the target is seen Ready,
        // no restart counts (one while it started is the readiness check's to judge).
        boolean early = ReadinessGate.createdEarly(testRun.get());
        Instant ready = TargetReadiness.readySince(
                progress.trueSince(Conditions.TARGET_READY),
                early ? Optional.empty() : testRun,
                early ? progress.now() : pass.start());
        Optional<String> targetRestart = TargetReadiness.restarted(pass.pods(RunLabels.ROLE_TARGET), ready)
                .map(why -> "target " + why + " after it was Ready; its figures would mix two processes");
        if (targetRestart.isPresent()) {
            return new RunFacts.TargetFailed(
                    targetRestart.get().contains(TargetReadiness.OOM_KILLED)
                            ? RunProgress.TARGET_OOM_KILLED
                            : RunProgress.TARGET_RESTARTED,
                    targetRestart.get());
        }
        Optional<String> runnerFailure = RunnerHealth.failure(runnerJobs, runnerPods);
        if (runnerFailure.isPresent()) {
            return new RunFacts.GeneratorFailed("RunnerFailed", runnerFailure.get());
        }
        if ("error".equals(stage)) {
            return new RunFacts.GeneratorFailed(
                    RunProgress.LOAD_GENERATOR_FAILED,
                    "k6-operator reports TestRun " + name + " in stage error: see its status and the k6-operator"
                            + " logs");
        }
        int parallelism = view.getSpec().getWorkload().getParallelism();
        // A runner started unpaused sends load once its k6 runs, before k6-operator's starter marks the TestRun.
        boolean started = "started".equals(stage)
                || "stopped".equals(stage)
                || "finished".equals(stage)
                || (ReadinessGate.unpaused(testRun.get()) && RunnerHealth.allStarted(runnerPods, parallelism));
        if (!started) {
            // k6-operator waits for every runner; one that cannot be placed or pulled would hold the run silently.
            return new RunFacts.Starting(TargetReadiness.startProblem(runnerPods));
        }
        // Every runner has ended, its log complete: the results are read without waiting for k6-operator to mark the
        // TestRun finished (its Jobs' status and two stage changes take a few seconds more).
        if (RunnerHealth.allFinished(runnerPods, parallelism)) {
            return new RunFacts.Finished(runnerPods.size());
        }
        // Every k6 has exited, but the kubelet marks a runner's pod finished only once it has torn the pod down, a
        // second or two later on a busy node: the results are read now when every runner's log holds its summary
        // (k6 prints it last), else when the pods are marked finished.
        if (RunnerHealth.allExited(runnerPods, parallelism) && RunnerLogs.summariesWritten(pass, runnerPods)) {
            return new RunFacts.Finished(runnerPods.size());
        }
        String startedAt = progress.status().getStartedAt();
        return new RunFacts.Running(
                runnerPods.size(),
                startedAt == null ? Duration.ZERO : Duration.between(Instant.parse(startedAt), progress.now()));
    }

    /** Follows the load while its runners start ({@link RunFacts.Starting}) or send it ({@link RunFacts.Running}). */
    public void follow(RunContext pass, LoadStep load, RunFacts.LoadState state) {
        RunProgress progress = pass.progress();
        BenchmarkRun view = pass.view(load);
        String name = RunLabels.testRunName(view);
        Duration poll = pass.settings().pollInterval();
        progress.checkAgainIn(poll);
        if (ReadinessGate.applies(pass.run())
                && !Conditions.isTrue(progress.status().getConditions(), Conditions.LOAD_RUNNING)) {
            // An early TestRun (created with the target): the pods' CPU is first read now the target is Ready,
            // before its runners start, as LoadStart does for a TestRun created after it.
            measurement.begin(view, progress.now());
        }
        if (state instanceof RunFacts.Starting starting) {
            if (!LoadStart.announced(progress, name)) {
                LoadStart.announce(progress, pass.run(), load, name);
                return;
            }
            // The message follows the runners, so a problem that went away does not outlive its cause.
            String message = starting.problem()
                    .map(why -> "k6 runners of TestRun " + name + " cannot start: " + why)
                    .orElse("waiting for the k6 runners of TestRun " + name + " to start");
            progress.condition(
                    Conditions.LOAD_RUNNING,
                    false,
                    starting.problem().isPresent() ? "RunnersNotStarted" : "WaitingForRunners",
                    message);
            progress.status().setMessage(message);
            return;
        }
        if (!(state instanceof RunFacts.Running running)) {
            return;
        }
        RunDriver.loadStarted(progress, load, running.runners(), TargetService.url(view));
        // From the start of load: the server-side check needs a scrape before the measured window too.
        measurement.tick(view);
        // The load so far, from the runners' REST API: the reading made since the last pass, then the next one.
        runnerProgress.live(view).ifPresent(progress.status()::setLive);
        runnerProgress.poll(pass.client(), view, pass.runnerPods(view));
        Duration elapsed = Duration.between(Instant.parse(progress.status().getStartedAt()), progress.now());
        RunDriver.loadElapsed(progress, load, elapsed);
        Duration warmup = Durations.parse(load.spec().getWorkload().getWarmup());
        if (load.number() <= 1 && elapsed.compareTo(warmup) < 0) {
            // Scrapes come with reconciles: several during the warmup, so one lies close before the window.
            Duration left = warmup.minus(elapsed);
            progress.checkAgainIn(left.compareTo(poll) < 0 ? left : poll);
        }
    }
}
