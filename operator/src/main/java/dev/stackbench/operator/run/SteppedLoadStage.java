package dev.stackbench.operator.run;

import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.Conditions;
import dev.stackbench.api.PodResources;
import dev.stackbench.api.RunSummary;
import dev.stackbench.api.StepResult;
import dev.stackbench.api.WorkloadSpec;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.lifecycle.SteppedLoad;
import dev.stackbench.operator.ApiErrors;
import dev.stackbench.operator.OperatorSettings;
import dev.stackbench.operator.PodCpuScraper;
import dev.stackbench.operator.RunLabels;
import dev.stackbench.operator.TargetReadiness;
import dev.stackbench.operator.objects.K6ScriptConfigMap;
import dev.stackbench.operator.objects.K6TestRun;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A sweep or a capacity search, instead of a single load: one TestRun per step against the same target, each followed
 * and read as a run at the step's level, judged into status.steps. The status is the state: status.steps holds the
 * steps judged so far, so the step under way is the next one {@link SteppedLoad#next} gives, whatever happened to the
 * operator in between; its TestRun is looked up before it is created, so no step's TestRun is created twice.
 */
public final class SteppedLoadStage {

    /** On the target's pod template: the step it was restarted for (spec.workload.restartBetweenSteps). */
    public static final String RESTARTED_FOR_STEP_ANNOTATION = "stackbench.dev/restarted-for-step";

    private final K6ScriptConfigMap script = new K6ScriptConfigMap();
    private final K6TestRun testRun;
    private final RunMeasurement measurement;
    private final LoadFollowing following;
    private final ResultCollection collection;
    private final EnvironmentRecord environment;

    public SteppedLoadStage(
            OperatorSettings settings,
            RunMeasurement measurement,
            LoadFollowing following,
            ResultCollection collection,
            EnvironmentRecord environment) {
        this.testRun = new K6TestRun(settings);
        this.measurement = measurement;
        this.following = following;
        this.collection = collection;
        this.environment = environment;
    }

    /**
     * Runs the steps one after another, each with a TestRun and a script of its own ({@code <run>-s<step>},
     * {@code <run>-s<step>-script}); returns false once the run has ended.
     */
    public boolean runSteps(RunContext pass) {
        RunProgress progress = pass.progress();
        BenchmarkRun run = pass.run();
        WorkloadSpec workload = run.getSpec().getWorkload();
        List<StepResult> done = progress.status().getSteps() == null
                ? List.of()
                : List.copyOf(progress.status().getSteps());
        SteppedLoad.Next next = SteppedLoad.next(workload, done);
        if (next instanceof SteppedLoad.Done finished) {
            finishSteps(pass, finished);
            return false;
        }
        int level = ((SteppedLoad.Step) next).level();
        StepUnderWay step =
                new StepUnderWay(done.size() + 1, level, SteppedLoad.unit(workload), SteppedLoad.maxSteps(workload));
        BenchmarkRun stepRun = RunLabels.forStep(run, step.number(), SteppedLoad.specFor(run.getSpec(), level));
        if (startStep(pass, stepRun, step)
                || following.followStep(pass, stepRun, step)
                || collectStep(pass, stepRun, step)) {
            return true;
        }
        // The step is judged: the run ends in this pass when it was the last, else the next step starts next pass,
        // once this one's result is stored.
        SteppedLoad.Next after = SteppedLoad.next(workload, progress.status().getSteps());
        if (after instanceof SteppedLoad.Done finished) {
            finishSteps(pass, finished);
            return false;
        }
        progress.checkAgainIn(pass.settings().pollInterval());
        return true;
    }

    /**
     * Creates the step's script and TestRun, once: first the TestRuns of the steps before are deleted and their pods
     * gone, and with spec.workload.restartBetweenSteps the target restarted and Ready again. Returns false once the
     * step's TestRun exists.
     */
    private boolean startStep(RunContext pass, BenchmarkRun stepRun, StepUnderWay step) {
        RunProgress progress = pass.progress();
        BenchmarkRun run = pass.run();
        String name = RunLabels.testRunName(stepRun);
        if (pass.secondary(GenericKubernetesResource.class, name).isPresent()) {
            return false;
        }
        KubernetesClient client = pass.client();
        String namespace = run.getMetadata().getNamespace();
        // The cache may lag behind a TestRun created just before a restart: ask the API server before creating.
        if (client.genericKubernetesResources(K6TestRun.CONTEXT)
                        .inNamespace(namespace)
                        .withName(name)
                        .get()
                != null) {
            progress.checkAgainIn(pass.settings().pollInterval());
            return true;
        }
        List<String> earlier = pass.secondaries(GenericKubernetesResource.class).stream()
                .map(other -> other.getMetadata().getName())
                .filter(other -> !other.equals(name))
                .sorted()
                .toList();
        if (!earlier.isEmpty()) {
            for (String other : earlier) {
                client.genericKubernetesResources(K6TestRun.CONTEXT)
                        .inNamespace(namespace)
                        .withName(other)
                        .delete();
            }
            progress.status()
                    .setMessage("deleting TestRun " + String.join(", ", earlier) + " before step " + step.number());
            progress.checkAgainIn(pass.settings().pollInterval());
            return true;
        }
        List<String> leftover = pass.secondaries(Pod.class).stream()
                .filter(pod -> pod.getMetadata().getLabels().containsKey(RunLabels.K6_TEST_RUN))
                .map(pod -> pod.getMetadata().getName())
                .sorted()
                .toList();
        if (!leftover.isEmpty()) {
            progress.status()
                    .setMessage("waiting for the k6 pods of the step before (" + String.join(", ", leftover)
                            + ") to be deleted before step " + step.number());
            progress.checkAgainIn(pass.settings().pollInterval());
            return true;
        }
        if (step.number() > 1
                && Boolean.TRUE.equals(run.getSpec().getWorkload().getRestartBetweenSteps())
                && restartTarget(pass, step)) {
            return true;
        }
        Optional<String> customModule = pass.secondary(ConfigMap.class, RunLabels.scriptConfigMapName(run))
                .map(ConfigMap::getData)
                .map(data -> data.get(K6ScriptConfigMap.CUSTOM_MODULE_KEY));
        measurement.beginStep(run, stepRun, progress.now());
        pass.apply(script.desired(stepRun, customModule.orElse(null)));
        pass.apply(testRun.desired(stepRun));
        LoadStart.announce(progress, run, step, name);
        progress.checkAgainIn(pass.settings().pollInterval());
        return true;
    }

    /**
     * Restarts the target's pods for the step (spec.workload.restartBetweenSteps) by marking its pod template with the
     * step, once, and waits until every target pod is of that template and Ready. Returns true while it waits.
     */
    private boolean restartTarget(RunContext pass, StepUnderWay step) {
        RunProgress progress = pass.progress();
        BenchmarkRun run = pass.run();
        KubernetesClient client = pass.client();
        String name = RunLabels.targetName(run);
        String marker = Integer.toString(step.number());
        Deployment deployment = client.apps()
                .deployments()
                .inNamespace(run.getMetadata().getNamespace())
                .withName(name)
                .get();
        if (deployment == null) {
            progress.targetNotReady("the target Deployment " + name + " was deleted while the run went on: create"
                    + " the run again and leave its objects alone until it has ended");
            return true;
        }
        Map<String, String> annotations = deployment.getSpec().getTemplate().getMetadata() == null
                ? null
                : deployment.getSpec().getTemplate().getMetadata().getAnnotations();
        if (annotations == null || !marker.equals(annotations.get(RESTARTED_FOR_STEP_ANNOTATION))) {
            String patch = "{\"spec\":{\"template\":{\"metadata\":{\"annotations\":{\"" + RESTARTED_FOR_STEP_ANNOTATION
                    + "\":\"" + marker + "\"}}}}}";
            try {
                client.apps()
                        .deployments()
                        .inNamespace(run.getMetadata().getNamespace())
                        .withName(name)
                        .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
            } catch (KubernetesClientException e) {
                throw new ApiErrors.RequestFailed(ApiErrors.describe("patch", deployment), deployment, e);
            }
            progress.waitingForTarget("restarting target " + name + " before step " + step.number()
                    + " (spec.workload.restartBetweenSteps)");
            progress.checkAgainIn(pass.settings().pollInterval());
            return true;
        }
        List<Pod> targetPods = pass.pods(RunLabels.ROLE_TARGET);
        Integer wanted = deployment.getSpec().getReplicas();
        boolean restarted = TargetReadiness.isReady(deployment)
                && wanted != null
                && targetPods.size() == wanted
                && targetPods.stream()
                        .allMatch(pod -> pod.getMetadata().getDeletionTimestamp() == null
                                && pod.getMetadata().getAnnotations() != null
                                && marker.equals(
                                        pod.getMetadata().getAnnotations().get(RESTARTED_FOR_STEP_ANNOTATION)));
        if (restarted) {
            if (!Conditions.isTrue(progress.status().getConditions(), Conditions.TARGET_READY)) {
                progress.targetReady();
            }
            return false;
        }
        Optional<String> oomKilled = TargetReadiness.oomKilled(targetPods);
        if (oomKilled.isPresent()) {
            progress.condition(Conditions.TARGET_READY, false, RunProgress.TARGET_OOM_KILLED, oomKilled.get());
            progress.fail(RunProgress.TARGET_OOM_KILLED, oomKilled.get());
            return true;
        }
        progress.waitingForTarget("target " + name + " restarting before step " + step.number() + ": "
                + TargetReadiness.problem("target " + name, targetPods));
        progress.checkAgainIn(pass.settings().pollInterval());
        return true;
    }

    /**
     * Reads the step's results as those of a run at its level, judges them, and adds them to status.steps; the best
     * step so far keeps its whole summary in status.summary, so a later step that fails loses nothing.
     */
    private boolean collectStep(RunContext pass, BenchmarkRun stepRun, StepUnderWay step) {
        RunProgress progress = pass.progress();
        // Without a start time in the runners' summaries: when the operator saw the step's runners start.
        String startedOtherwise = progress.trueSince(Conditions.LOAD_RUNNING)
                .map(Conditions::format)
                .orElseGet(() -> Conditions.format(progress.now()));
        Optional<RunMeasurement.Measured> measured = collection.measure(pass, stepRun, startedOtherwise);
        if (measured.isEmpty()) {
            return true;
        }
        RunSummary summary = measured.get().summary();
        StepResult result = SteppedLoad.judge(
                pass.run().getSpec().getWorkload(),
                step.number(),
                step.level(),
                summary,
                measured.get().finding(),
                generatorCores(summary));
        result.setStartedAt(measured.get().startedAt());
        result.setFinishedAt(Conditions.format(progress.now()));
        if (step.number() == 1) {
            progress.status().setStartedAt(measured.get().startedAt());
        }
        progress.stepFinished(result);
        Optional<StepResult> best = SteppedLoad.best(progress.status().getSteps());
        if (best.isPresent() && best.get().getStep() == step.number()) {
            summary.setStep(step.number());
            progress.status().setSummary(summary);
            progress.status()
                    .setEnvironment(
                            environment.describe(pass, stepRun, measured.get().metrics()));
        }
        return false;
    }

    /** The runners' CPU in cores during the step, all runners together; null when the kubelets gave none. */
    private static Double generatorCores(RunSummary summary) {
        if (summary.getPods() == null) {
            return null;
        }
        List<PodResources> runners = summary.getPods().stream()
                .filter(pod -> PodCpuScraper.ROLE_RUNNER.equals(pod.getRole()) && pod.getAvgCpuCores() != null)
                .toList();
        return runners.isEmpty()
                ? null
                : runners.stream().mapToDouble(PodResources::getAvgCpuCores).sum();
    }

    /** No step follows: the run keeps the best step's summary (in status.summary since that step) and succeeds. */
    private void finishSteps(RunContext pass, SteppedLoad.Done done) {
        RunProgress progress = pass.progress();
        BenchmarkRun run = pass.run();
        measurement.stop(run);
        List<StepResult> steps = progress.status().getSteps();
        Optional<StepResult> best = SteppedLoad.best(steps == null ? List.of() : steps);
        RunSummary kept = progress.status().getSummary();
        if (best.isEmpty()
                || kept == null
                || !Objects.equals(kept.getStep(), best.get().getStep())) {
            progress.resultsUnreadable("the summary of the step the run keeps is missing from status.summary"
                    + " (status.steps has " + (steps == null ? 0 : steps.size()) + " steps): create the run again");
            return;
        }
        progress.stepsDone(done, kept, best.get().getStep());
        progress.loadFinished(run.getSpec().getWorkload().getParallelism());
        progress.generatorChecked(kept, RunMeasurement.generatorFinding(kept), RunMeasurement.keptUp(kept));
        progress.succeeded(
                kept, kept.getRunners() == null ? run.getSpec().getWorkload().getParallelism() : kept.getRunners());
    }
}
