package dev.stackbench.operator;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Objects;

/**
 * When a pod has ended. Its phase turns Succeeded or Failed (and a deleted pod's object goes) only after the kubelet
 * has also torn its sandbox down, network and all, which on a busy node takes one or two seconds more than the
 * processes' exit. The pod's container statuses say the exit as soon as the kubelet sees it: a pod whose containers
 * have all terminated and will never start again (restartPolicy Never, or the pod is being deleted) runs nothing, uses
 * no CPU on its node and writes no more to its logs.
 */
public final class PodEnds {

    private PodEnds() {}

    /** Whether the pod has ended: its phase says so, or {@link #processesExited} does. */
    public static boolean ended(Pod pod) {
        return phaseEnded(pod) || processesExited(pod);
    }

    /** Whether the kubelet has put the pod in phase Succeeded or Failed. */
    public static boolean phaseEnded(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    /**
     * Whether every container of the pod has terminated for good, before its phase says so: each has a terminated
     * state, none of its init containers runs, and none will be started again (restartPolicy Never, or the pod is
     * being deleted).
     */
    public static boolean processesExited(Pod pod) {
        if (pod.getSpec() == null || pod.getStatus() == null) {
            return false;
        }
        boolean neverAgain = "Never".equals(pod.getSpec().getRestartPolicy())
                || pod.getMetadata() != null && pod.getMetadata().getDeletionTimestamp() != null;
        List<Container> containers = Objects.requireNonNullElse(pod.getSpec().getContainers(), List.of());
        List<ContainerStatus> statuses =
                Objects.requireNonNullElse(pod.getStatus().getContainerStatuses(), List.of());
        List<ContainerStatus> inits = Objects.requireNonNullElse(pod.getStatus().getInitContainerStatuses(), List.of());
        return neverAgain
                && !containers.isEmpty()
                && containers.stream().allMatch(container -> statuses.stream()
                        .anyMatch(status -> container.getName().equals(status.getName()) && terminated(status)))
                && inits.stream().noneMatch(PodEnds::running);
    }

    private static boolean terminated(ContainerStatus status) {
        return status.getState() != null && status.getState().getTerminated() != null;
    }

    private static boolean running(ContainerStatus status) {
        return status.getState() != null && status.getState().getRunning() != null;
    }
}
