package dev.stackbench.operator.run;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.Conditions;
import dev.stackbench.lifecycle.LoadStep;
import dev.stackbench.lifecycle.RunDriver;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.lifecycle.SteppedLoad;
import dev.stackbench.operator.ApiErrors;
import dev.stackbench.operator.RunLabels;
import dev.stackbench.operator.TargetReadiness;
import dev.stackbench.operator.objects.K6TestRun;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a sweep or a capacity search adds to a run: one TestRun per step against the same target, each started
 * ({@link LoadStart}), followed ({@link LoadFollowing}) and read ({@link ResultCollection}) as a run at the step's
 * level, judged into status.steps. The status is the state: status.steps holds the steps judged so far, so the step
 * under way is the next one the run driver gives, whatever happened to the operator in between. Before a step starts,
 * the steps before it are cleared and, with spec.workload.restartBetweenSteps, the target restarted.
 */
public final class SteppedLoadStage {

    /** On the target's pod template: the step it was restarted for (spec.workload.restartBetweenSteps). */
    public static final String RESTARTED_FOR_STEP_ANNOTATION = "stackbench.dev/restarted-for-step";

    private final RunMeasurement measurement;

    public SteppedLoadStage(RunMeasurement measurement) {
        this.measurement = measurement;
    }

    /**
     * Deletes the TestRuns of the steps before this one and waits until their pods are gone; returns true while it
     * waits.
     */
    boolean clearEarlierSteps(RunContext pass, LoadStep load) {
        RunProgress progress = pass.progress();
        KubernetesClient client = pass.client();
        String namespace = pass.run().getMetadata().getNamespace();
        String name = RunLabels.testRunName(pass.view(load));
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
                    .setMessage("deleting TestRun " + String.join(", ", earlier) + " before step " + load.number());
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
                            + ") to be deleted before step " + load.number());
            progress.checkAgainIn(pass.settings().pollInterval());
            return true;
        }
        return false;
    }

    /**
     * Whether the target is as the step needs it: always, unless spec.workload.restartBetweenSteps asks for a restart
     * before every step after the first; then only once every target pod is of the template marked with the step and
     * Ready. Read from the API server: the cache may lag behind the restart just asked for.
     */
    boolean targetFresh(RunContext pass, LoadStep load) {
        if (load.number() <= 1
                || !Boolean.TRUE.equals(pass.run().getSpec().getWorkload().getRestartBetweenSteps())
                || pass.secondary(GenericKubernetesResource.class, RunLabels.testRunName(pass.view(load)))
                        .isPresent()) {
            return true;
        }
        Deployment deployment = targetDeployment(pass);
        if (deployment == null || !markedFor(deployment, load)) {
            return false;
        }
        List<Pod> targetPods = pass.pods(RunLabels.ROLE_TARGET);
        Integer wanted = deployment.getSpec().getReplicas();
        String marker = Integer.toString(load.number());
        return TargetReadiness.isReady(deployment)
                && wanted != null
                && targetPods.size() == wanted
                && targetPods.stream()
                        .allMatch(pod -> pod.getMetadata().getDeletionTimestamp() == null
                                && pod.getMetadata().getAnnotations() != null
                                && marker.equals(
                                        pod.getMetadata().getAnnotations().get(RESTARTED_FOR_STEP_ANNOTATION)));
    }

    /**
     * Restarts the target's pods for the step (spec.workload.restartBetweenSteps), once the steps before are cleared, by
     * marking its pod template with the step, once, and waits until they are Ready again ({@link #targetFresh}).
     */
    public void restartTarget(RunContext pass, LoadStep load) {
        if (clearEarlierSteps(pass, load)) {
            return;
        }
        RunProgress progress = pass.progress();
        BenchmarkRun run = pass.run();
        String name = RunLabels.targetName(run);
        progress.checkAgainIn(pass.settings().pollInterval());
        Deployment deployment = targetDeployment(pass);
        if (deployment == null) {
            progress.targetNotReady("the target Deployment " + name + " was deleted while the run went on: create"
                    + " the run again and leave its objects alone until it has ended");
            return;
        }
        if (!markedFor(deployment, load)) {
            String patch = "{\"spec\":{\"template\":{\"metadata\":{\"annotations\":{\"" + RESTARTED_FOR_STEP_ANNOTATION
                    + "\":\"" + load.number() + "\"}}}}}";
            try {
                pass.client()
                        .apps()
                        .deployments()
                        .inNamespace(run.getMetadata().getNamespace())
                        .withName(name)
                        .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
            } catch (KubernetesClientException e) {
                throw new ApiErrors.RequestFailed(ApiErrors.describe("patch", deployment), deployment, e);
            }
            progress.waitingForTarget("restarting target " + name + " before step " + load.number()
                    + " (spec.workload.restartBetweenSteps)");
            return;
        }
        List<Pod> targetPods = pass.pods(RunLabels.ROLE_TARGET);
        Optional<String> oomKilled = TargetReadiness.oomKilled(targetPods);
        if (oomKilled.isPresent()) {
            progress.condition(Conditions.TARGET_READY, false, RunProgress.TARGET_OOM_KILLED, oomKilled.get());
            progress.fail(RunProgress.TARGET_OOM_KILLED, oomKilled.get());
            return;
        }
        progress.waitingForTarget("target " + name + " restarting before step " + load.number() + ": "
                + TargetReadiness.problem("target " + name, targetPods));
    }

    /** No step follows: the run keeps the best step's summary (in status.summary since that step) and succeeds. */
    public void finish(RunContext pass, SteppedLoad.Done done) {
        measurement.stop(pass.run());
        RunDriver.stepsFinished(
                pass.progress(),
                done,
                RunMeasurement::generatorJudgement,
                pass.run().getSpec().getWorkload().getParallelism());
    }

    private static Deployment targetDeployment(RunContext pass) {
        return pass.client()
                .apps()
                .deployments()
                .inNamespace(pass.run().getMetadata().getNamespace())
                .withName(RunLabels.targetName(pass.run()))
                .get();
    }

    private static boolean markedFor(Deployment deployment, LoadStep load) {
        Map<String, String> annotations = deployment.getSpec().getTemplate().getMetadata() == null
                ? null
                : deployment.getSpec().getTemplate().getMetadata().getAnnotations();
        return annotations != null
                && Integer.toString(load.number()).equals(annotations.get(RESTARTED_FOR_STEP_ANNOTATION));
    }
}
