package dev.stackbench.operator.run;

import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.Conditions;
import dev.stackbench.api.Durations;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.operator.RunLabels;
import dev.stackbench.operator.RunnerHealth;
import dev.stackbench.operator.TargetReadiness;
import dev.stackbench.operator.objects.K6TestRun;
import dev.stackbench.operator.objects.TargetService;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * WarmingUp, then Running, by the TestRun's stage and the time since load started, while the target is scraped. A
 * target restarted since it was Ready, a failed runner or a TestRun in stage error fail the run.
 */
public final class LoadFollowing {

    private final RunMeasurement measurement;

    public LoadFollowing(RunMeasurement measurement) {
        this.measurement = measurement;
    }

    /** Follows the TestRun of the run: returns false once its runners have finished. */
    public boolean followLoad(RunContext pass) {
        return follow(pass, pass.run(), null);
    }

    /** Follows the TestRun of one step, {@code stepRun} the step's view of the run, as {@link #followLoad}. */
    boolean followStep(RunContext pass, BenchmarkRun stepRun, StepUnderWay step) {
        return follow(pass, stepRun, step);
    }

    private boolean follow(RunContext pass, BenchmarkRun load, StepUnderWay step) {
        RunProgress progress = pass.progress();
        String name = RunLabels.testRunName(load);
        Optional<GenericKubernetesResource> testRun = pass.secondary(GenericKubernetesResource.class, name);
        String stage = testRun.map(K6TestRun::stage).orElse(null);
        List<Pod> runnerPods = pass.runnerPods(load);
        List<Job> runnerJobs = pass.client()
                .batch()
                .v1()
                .jobs()
                .inNamespace(load.getMetadata().getNamespace())
                .withLabel(RunLabels.K6_TEST_RUN, name)
                .list()
                .getItems();
        // A target that restarted once it was Ready (OOMKilled, crashed) measured two processes: nothing it reports
        // counts. A start that failed before it was Ready (e.g. while the database came up) does not matter.
        Instant ready = TargetReadiness.readySince(progress.trueSince(Conditions.TARGET_READY), testRun, pass.start());
        Optional<String> targetRestart = TargetReadiness.restarted(pass.pods(RunLabels.ROLE_TARGET), ready)
                .map(why -> "target " + why + " after it was Ready; its figures would mix two processes");
        if (targetRestart.isPresent()) {
            String reason = targetRestart.get().contains(TargetReadiness.OOM_KILLED)
                    ? RunProgress.TARGET_OOM_KILLED
                    : RunProgress.TARGET_RESTARTED;
            progress.fail(reason, targetRestart.get());
            return true;
        }
        Optional<String> runnerFailure = RunnerHealth.failure(runnerJobs, runnerPods);
        if (runnerFailure.isPresent()) {
            progress.loadGeneratorFailed("RunnerFailed", runnerFailure.get());
            return true;
        }
        if ("error".equals(stage)) {
            progress.loadGeneratorFailed(
                    RunProgress.LOAD_GENERATOR_FAILED,
                    "k6-operator reports TestRun " + name + " in stage error: see its"
                            + " status and the k6-operator logs");
            return true;
        }
        boolean started = "started".equals(stage) || "stopped".equals(stage) || "finished".equals(stage);
        if (!started && !LoadStart.announced(progress, name)) {
            LoadStart.announce(progress, load, step, name);
            progress.checkAgainIn(pass.settings().pollInterval());
            return true;
        }
        if (!started) {
            // k6-operator waits for every runner; one that cannot be placed or pulled would hold the run silently.
            // The message follows the runners, so a problem that went away does not outlive its cause.
            Optional<String> problem = TargetReadiness.startProblem(runnerPods);
            String message = problem.map(why -> "k6 runners of TestRun " + name + " cannot start: " + why)
                    .orElse("waiting for the k6 runners of TestRun " + name + " to start");
            progress.condition(
                    Conditions.LOAD_RUNNING,
                    false,
                    problem.isPresent() ? "RunnersNotStarted" : "WaitingForRunners",
                    message);
            progress.status().setMessage(message);
            progress.checkAgainIn(pass.settings().pollInterval());
            return true;
        }
        boolean finished = "finished".equals(stage)
                && RunnerHealth.allFinished(
                        runnerPods, load.getSpec().getWorkload().getParallelism());
        if (step != null && !Conditions.isTrue(progress.status().getConditions(), Conditions.LOAD_RUNNING)) {
            // Once per step: each step's TestRun is created with LoadRunning False.
            progress.stepStarted(
                    step.number(),
                    step.level(),
                    step.unit(),
                    step.maxSteps(),
                    load.getSpec().getWorkload().getWarmup(),
                    load.getSpec().getWorkload().getDuration());
        }
        if (finished) {
            progress.loadRunning(runnerPods.size(), TargetService.url(load));
            if (step == null) {
                progress.loadFinished(load.getSpec().getWorkload().getParallelism());
            }
            return false;
        }
        progress.loadRunning(runnerPods.size(), TargetService.url(load));
        Duration elapsed = Duration.between(Instant.parse(progress.status().getStartedAt()), progress.now());
        Duration warmup = Durations.parse(load.getSpec().getWorkload().getWarmup());
        // From the start of load: the server-side check needs a scrape before the measured window too.
        measurement.tick(load, pass.pods(RunLabels.ROLE_TARGET), progress.now());
        if (step != null && step.number() > 1) {
            // The phase is Running since the first step; the message says which step runs.
            progress.checkAgainIn(pass.settings().pollInterval());
            return true;
        }
        if (elapsed.compareTo(warmup) < 0) {
            progress.warmingUp(load.getSpec().getWorkload().getWarmup());
            // Scrapes come with reconciles: several during the warmup, so one lies close before the window.
            Duration left = warmup.minus(elapsed);
            Duration poll = pass.settings().pollInterval();
            progress.checkAgainIn(left.compareTo(poll) < 0 ? left : poll);
        } else {
            progress.measuring(load.getSpec().getWorkload().getDuration());
        }
        progress.checkAgainIn(pass.settings().pollInterval());
        return true;
    }
}
