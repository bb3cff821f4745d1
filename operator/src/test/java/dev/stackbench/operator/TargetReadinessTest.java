package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TargetReadinessTest {

    @Test
    void aDeploymentIsReadyOnlyWhenEveryReplicaIsReadyForTheCurrentGeneration() {
        assertThat(TargetReadiness.isReady(deployment(1, 1, 2L, 2L))).isTrue();
        assertThat(TargetReadiness.isReady(deployment(2, 1, 2L, 2L)))
                .as("one of two ready")
                .isFalse();
        assertThat(TargetReadiness.isReady(deployment(1, 1, 3L, 2L)))
                .as("new generation not observed")
                .isFalse();
        assertThat(TargetReadiness.isReady(deployment(1, null, 1L, 1L)))
                .as("no ready count yet")
                .isFalse();
    }

    @Test
    void namesTheDeploymentWhenThereAreNoPods() {
        assertThat(TargetReadiness.problem("target t", List.of()))
                .isEqualTo("target t has no pods yet: check the Deployment's events (kubectl describe deployment)");
    }

    @Test
    void explainsAnUnschedulablePodWithTheSchedulersMessage() {
        Pod pod = pod("t-1", "")
                .editStatus()
                .addNewCondition()
                .withType("PodScheduled")
                .withStatus("False")
                .withReason("Unschedulable")
                .withMessage("0/5 nodes are available")
                .endCondition()
                .endStatus()
                .build();
        pod.getSpec().setNodeName(null);

        assertThat(TargetReadiness.problem("target t", List.of(pod)))
                .isEqualTo("target t: pod t-1 cannot be"
                        + " scheduled (Unschedulable): 0/5 nodes are available; check spec.placement and the nodes' labels"
                        + " and taints");
    }

    @Test
    void reportsAContainerThatCannotStartOrHasExited() {
        Pod waiting = pod("t-1", "node-a")
                .editStatus()
                .addNewContainerStatus()
                .withName("app")
                .withNewState()
                .withNewWaiting()
                .withReason("ImagePullBackOff")
                .withMessage("not found")
                .endWaiting()
                .endState()
                .endContainerStatus()
                .endStatus()
                .build();
        Pod exited = pod("t-2", "node-a")
                .editStatus()
                .addNewContainerStatus()
                .withName("app")
                .withNewState()
                .withNewTerminated()
                .withExitCode(137)
                .endTerminated()
                .endState()
                .endContainerStatus()
                .endStatus()
                .build();

        assertThat(TargetReadiness.problem("target t", List.of(waiting)))
                .isEqualTo("target t: pod t-1 container app is waiting: ImagePullBackOff not found");
        assertThat(TargetReadiness.problem("target t", List.of(exited)))
                .isEqualTo("target t: pod t-2 container app exited with code 137");
    }

    @Test
    void passesOnTheKubeletsReasonForAnUnreadyPod() {
        Pod pod = pod("t-1", "node-a")
                .editStatus()
                .addNewCondition()
                .withType("Ready")
                .withStatus("False")
                .withReason("ContainersNotReady")
                .withMessage("containers with unready status: [app]")
                .endCondition()
                .endStatus()
                .build();

        assertThat(TargetReadiness.problem("target t", List.of(pod)))
                .isEqualTo("target t: pod t-1 is not Ready: containers with unready status: [app]");
    }

    @Test
    void pointsAtTheNodeWhenNothingExplainsTheUnreadyPod() {
        // What the node lifecycle controller leaves when the pod's node stops reporting: Ready=False, no reason.
        Pod pod = pod("t-1", "node-a")
                .editStatus()
                .addNewCondition()
                .withType("Ready")
                .withStatus("False")
                .endCondition()
                .endStatus()
                .build();

        assertThat(TargetReadiness.problem("target t", List.of(pod)))
                .isEqualTo("target t: pod t-1 is not Ready:"
                        + " its readiness probe on /actuator/health/readiness fails, or its node node-a stopped reporting"
                        + " (kubectl describe pod t-1; kubectl get node node-a)");
    }

    @Test
    void aContainerKilledForItsMemoryLimitIsNamedWithTheLimitAndWhatToChange() {
        // What a kubelet reports while the OOMKilled container waits to be restarted.
        Pod pod = pod("t-1", "node-a")
                .editSpec()
                .addNewContainer()
                .withName("app")
                .withNewResources()
                .addToLimits("memory", new Quantity("160Mi"))
                .endResources()
                .endContainer()
                .endSpec()
                .editStatus()
                .addNewContainerStatus()
                .withName("app")
                .withRestartCount(1)
                .withNewState()
                .withNewWaiting()
                .withReason("CrashLoopBackOff")
                .withMessage("back-off 10s restarting failed container")
                .endWaiting()
                .endState()
                .withNewLastState()
                .withNewTerminated()
                .withExitCode(137)
                .withReason("OOMKilled")
                .withFinishedAt("2026-01-01T10:00:05Z")
                .endTerminated()
                .endLastState()
                .endContainerStatus()
                .endStatus()
                .build();

        assertThat(TargetReadiness.oomKilled(List.of(pod)))
                .contains("pod t-1 container app was OOMKilled: it used more memory than its limit (160Mi);"
                        + " raise spec.target.resources.memory or lower the heap in spec.target.jvmOptions");
        assertThat(TargetReadiness.problem("target t", List.of(pod)))
                .isEqualTo("target t: pod t-1 container app is waiting: CrashLoopBackOff back-off 10s restarting"
                        + " failed container (last ended: OOMKilled)");
        assertThat(TargetReadiness.restarted(List.of(pod), Instant.parse("2026-01-01T10:00:00Z")))
                .as("ended after the instant")
                .contains("pod t-1 container app restarted 1 time(s) (last ended: OOMKilled)");
        assertThat(TargetReadiness.restarted(List.of(pod), Instant.parse("2026-01-01T10:00:06Z")))
                .as("ended before the instant")
                .isEmpty();
    }

    @Test
    void aTargetIsReadySinceItsConditionOrElseSinceTheTestRunThatOnlyAReadyTargetGets() {
        Instant runStart = Instant.parse("2026-01-01T10:00:00Z");
        Instant conditionTime = Instant.parse("2026-01-01T10:00:20Z");
        GenericKubernetesResource testRun = new GenericKubernetesResource();
        testRun.setMetadata(new ObjectMetaBuilder()
                .withName("r-k6")
                .withCreationTimestamp("2026-01-01T10:00:30Z")
                .build());

        assertThat(TargetReadiness.readySince(Optional.of(conditionTime), Optional.of(testRun), runStart))
                .isEqualTo(conditionTime);
        // The condition put back after such a conflict is later than the TestRun: the TestRun's time holds.
        assertThat(TargetReadiness.readySince(
                        Optional.of(Instant.parse("2026-01-01T10:00:45Z")), Optional.of(testRun), runStart))
                .isEqualTo(Instant.parse("2026-01-01T10:00:30Z"));
        // The status write that recorded TargetReady lost a conflict, the TestRun it created stayed: a start that
        // failed before the TestRun (the database still coming up) is not a restart of a Ready target.
        Instant testRunCreated = TargetReadiness.readySince(Optional.empty(), Optional.of(testRun), runStart);
        assertThat(testRunCreated).isEqualTo(Instant.parse("2026-01-01T10:00:30Z"));
        Pod failedOnceWhileStarting = pod("t-1", "node-a")
                .editStatus()
                .addNewContainerStatus()
                .withName("app")
                .withRestartCount(1)
                .withNewLastState()
                .withNewTerminated()
                .withExitCode(1)
                .withReason("Error")
                .withFinishedAt("2026-01-01T10:00:18Z")
                .endTerminated()
                .endLastState()
                .endContainerStatus()
                .endStatus()
                .build();
        assertThat(TargetReadiness.restarted(List.of(failedOnceWhileStarting), testRunCreated))
                .isEmpty();
        assertThat(TargetReadiness.readySince(Optional.empty(), Optional.empty(), runStart))
                .isEqualTo(runStart);
    }

    @Test
    void aContainerThatNeverEndedIsNeitherOomKilledNorRestarted() {
        Pod pod = pod("t-1", "node-a")
                .editStatus()
                .addNewContainerStatus()
                .withName("app")
                .withRestartCount(0)
                .withNewState()
                .withNewRunning()
                .endRunning()
                .endState()
                .endContainerStatus()
                .endStatus()
                .build();

        assertThat(TargetReadiness.oomKilled(List.of(pod))).isEmpty();
        assertThat(TargetReadiness.restarted(List.of(pod), Instant.EPOCH)).isEmpty();
    }

    private static PodBuilder pod(String name, String node) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .endSpec()
                .withNewStatus()
                .endStatus();
    }

    private static Deployment deployment(int wanted, Integer ready, long generation, long observed) {
        return new DeploymentBuilder()
                .withNewMetadata()
                .withName("d")
                .withGeneration(generation)
                .endMetadata()
                .withNewSpec()
                .withReplicas(wanted)
                .endSpec()
                .withNewStatus()
                .withReadyReplicas(ready)
                .withObservedGeneration(observed)
                .endStatus()
                .build();
    }
}
