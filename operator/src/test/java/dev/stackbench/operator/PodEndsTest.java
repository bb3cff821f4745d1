package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class PodEndsTest {

    @Test
    void aRunnerWhoseK6ExitedHasEndedBeforeItsPhaseSaysSo() {
        Pod pod = pod("Never", "Running", null, List.of(terminated("k6")), List.of(terminated("wait-for-target")));

        assertThat(PodEnds.phaseEnded(pod)).isFalse();
        assertThat(PodEnds.processesExited(pod)).isTrue();
        assertThat(PodEnds.ended(pod)).isTrue();
    }

    @Test
    void aPodInPhaseSucceededOrFailedHasEndedWhateverItsContainersSay() {
        assertThat(PodEnds.ended(pod("Never", "Succeeded", null, List.of(), List.of())))
                .isTrue();
        assertThat(PodEnds.ended(pod("Always", "Failed", null, List.of(running("app")), List.of())))
                .isTrue();
    }

    @Test
    void aContainerThatMayStartAgainHasNotEnded() {
        // restartPolicy Always, not being deleted: the kubelet restarts the container.
        assertThat(PodEnds.ended(pod("Always", "Running", null, List.of(terminated("app")), List.of())))
                .isFalse();
        // Being deleted: it is not started again.
        assertThat(PodEnds.ended(
                        pod("Always", "Running", "2026-12-06T23:00:00Z", List.of(terminated("app")), List.of())))
                .isTrue();
    }

    @Test
    void oneContainerStillRunningOrNotReportedKeepsThePodOnItsNode() {
        assertThat(PodEnds.ended(
                        pod("Never", "Running", null, List.of(terminated("app"), running("sidecar")), List.of())))
                .isFalse();
        assertThat(PodEnds.ended(pod("Never", "Running", null, List.of(terminated("app")), List.of())
                        .edit()
                        .editSpec()
                        .addNewContainer()
                        .withName("sidecar")
                        .endContainer()
                        .endSpec()
                        .build()))
                .isFalse();
        assertThat(PodEnds.ended(pod("Never", "Running", null, List.of(terminated("app")), List.of(running("init")))))
                .isFalse();
        assertThat(PodEnds.ended(new PodBuilder().build())).isFalse();
    }

    /** A pod whose spec has one container per status given (init containers aside). */
    private static Pod pod(
            String restartPolicy,
            String phase,
            String deletionTimestamp,
            List<ContainerStatus> containers,
            List<ContainerStatus> inits) {
        PodBuilder pod = new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .withDeletionTimestamp(deletionTimestamp)
                .endMetadata()
                .withNewSpec()
                .withRestartPolicy(restartPolicy)
                .endSpec()
                .withNewStatus()
                .withPhase(phase)
                .withContainerStatuses(containers)
                .withInitContainerStatuses(inits)
                .endStatus();
        for (ContainerStatus status : containers) {
            pod.editSpec()
                    .addNewContainer()
                    .withName(status.getName())
                    .endContainer()
                    .endSpec();
        }
        return pod.build();
    }

    private static ContainerStatus terminated(String name) {
        return new ContainerStatusBuilder()
                .withName(name)
                .withNewState()
                .withNewTerminated()
                .withExitCode(0)
                .endTerminated()
                .endState()
                .build();
    }

    private static ContainerStatus running(String name) {
        return new ContainerStatusBuilder()
                .withName(name)
                .withNewState()
                .withNewRunning()
                .endRunning()
                .endState()
                .build();
    }
}
