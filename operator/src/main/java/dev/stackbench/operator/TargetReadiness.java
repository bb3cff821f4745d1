package dev.stackbench.operator;

import dev.stackbench.model.SpringApp;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Whether a Deployment is ready for load, and if not, the problem of its pods in words a user can act on. */
public final class TargetReadiness {

    /** The reason a container ended with when the kernel killed it for memory. */
    public static final String OOM_KILLED = "OOMKilled";

    private TargetReadiness() {}

    public static boolean isReady(Deployment deployment) {
        if (deployment == null || deployment.getStatus() == null || deployment.getSpec() == null) {
            return false;
        }
        Integer ready = deployment.getStatus().getReadyReplicas();
        Integer wanted = deployment.getSpec().getReplicas();
        return ready != null
                && wanted != null
                && ready >= wanted
                && deployment.getStatus().getObservedGeneration() != null
                && deployment.getStatus().getObservedGeneration()
                        >= deployment.getMetadata().getGeneration();
    }

    /** The first problem found among the pods, e.g. "pod x is not scheduled: 0/5 nodes are available: ...". */
    public static String problem(String what, List<Pod> pods) {
        if (pods.isEmpty()) {
            return what + " has no pods yet: check the Deployment's events (kubectl describe deployment)";
        }
        for (Pod pod : RunnerHealth.sorted(pods)) {
            Optional<String> problem = podProblem(pod);
            if (problem.isPresent()) {
                return what + ": " + problem.get();
            }
        }
        return what + ": pods are running but not Ready: check the readiness probe on " + SpringApp.READINESS_PATH;
    }

    /**
     * The first pod that cannot start: not schedulable, or a container stuck waiting (image pull, bad config) or
     * exited. Pods still on their way (being scheduled, containers creating) are no problem yet.
     */
    public static Optional<String> startProblem(List<Pod> pods) {
        return RunnerHealth.sorted(pods).stream()
                .map(TargetReadiness::startProblem)
                .flatMap(Optional::stream)
                .findFirst();
    }

    /**
     * A container of these pods that the kernel killed for exceeding its memory limit (now or before a restart). Such
     * a target never becomes fit for load with the same settings, so a run fails at once instead of waiting.
     */
    public static Optional<String> oomKilled(List<Pod> pods) {
        for (Pod pod : RunnerHealth.sorted(pods)) {
            if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
                continue;
            }
            for (ContainerStatus container : pod.getStatus().getContainerStatuses()) {
                if (OOM_KILLED.equals(terminationReason(container).orElse(null))) {
                    return Optional.of("pod " + pod.getMetadata().getName() + " container " + container.getName()
                            + " was OOMKilled: it used more memory than its limit"
                            + memoryLimit(pod, container.getName())
                                    .map(l -> " (" + l + ")")
                                    .orElse("")
                            + "; raise spec.target.resources.memory or lower the heap in spec.target.jvmOptions");
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Since when the target has been Ready for load: the earlier of the run's TargetReady condition and the creation
     * of the TestRun, which the operator creates only once the target is Ready. A status write that lost a conflict
     * is retried on fresh data while the TestRun it created stays: the condition is then missing, or put back later
     * than the TestRun. Without either, {@code otherwise}.
     */
    public static Instant readySince(
            Optional<Instant> condition, Optional<? extends HasMetadata> testRun, Instant otherwise) {
        Optional<Instant> created = testRun.map(HasMetadata::getMetadata)
                .map(m -> m.getCreationTimestamp())
                .map(Instant::parse);
        if (condition.isPresent() && created.isPresent()) {
            return condition.get().isBefore(created.get()) ? condition.get() : created.get();
        }
        return condition.or(() -> created).orElse(otherwise);
    }

    /**
     * A container of these pods that ended after {@code since} (and was restarted), with why it ended: a target
     * restarted while load ran has lost its warm state and its counters, so the run's figures would mix two
     * processes. Restarts before {@code since} (a start that failed once, e.g. while the database came up) count
     * for nothing.
     */
    public static Optional<String> restarted(List<Pod> pods, Instant since) {
        for (Pod pod : RunnerHealth.sorted(pods)) {
            if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
                continue;
            }
            for (ContainerStatus container : pod.getStatus().getContainerStatuses()) {
                if (endedAfter(container, since)) {
                    return Optional.of("pod " + pod.getMetadata().getName() + " container " + container.getName()
                            + " restarted " + container.getRestartCount() + " time(s)"
                            + terminationReason(container)
                                    .map(r -> " (last ended: " + r + ")")
                                    .orElse(""));
                }
            }
        }
        return Optional.empty();
    }

    private static boolean endedAfter(ContainerStatus container, Instant since) {
        String finishedAt =
                container.getLastState() == null || container.getLastState().getTerminated() == null
                        ? null
                        : container.getLastState().getTerminated().getFinishedAt();
        if (container.getRestartCount() == null || container.getRestartCount() == 0) {
            return false;
        }
        // Without a time the kubelet gave, a restart is taken as recent: better a failed run than mixed figures.
        return finishedAt == null || !Instant.parse(finishedAt).isBefore(since);
    }

    private static Optional<String> terminationReason(ContainerStatus container) {
        if (container.getState() != null && container.getState().getTerminated() != null) {
            return Optional.ofNullable(container.getState().getTerminated().getReason());
        }
        if (container.getLastState() != null && container.getLastState().getTerminated() != null) {
            return Optional.ofNullable(container.getLastState().getTerminated().getReason());
        }
        return Optional.empty();
    }

    private static Optional<String> memoryLimit(Pod pod, String containerName) {
        return pod.getSpec() == null
                ? Optional.empty()
                : pod.getSpec().getContainers().stream()
                        .filter(c -> containerName.equals(c.getName()))
                        .map(c -> c.getResources() == null || c.getResources().getLimits() == null
                                ? null
                                : c.getResources().getLimits().get("memory"))
                        .filter(java.util.Objects::nonNull)
                        .map(Object::toString)
                        .findFirst();
    }

    private static Optional<String> podProblem(Pod pod) {
        Optional<String> start = startProblem(pod);
        if (start.isPresent()) {
            return start;
        }
        String name = "pod " + pod.getMetadata().getName();
        Optional<PodCondition> ready = condition(pod, "Ready");
        if (ready.isPresent() && "False".equals(ready.get().getStatus())) {
            // The kubelet names the unready containers; the node lifecycle controller, which marks every pod of a
            // node that stopped reporting, leaves reason and message empty.
            String why = Optional.ofNullable(ready.get().getMessage())
                    .or(() -> Optional.ofNullable(ready.get().getReason()))
                    .orElseGet(() -> unexplainedNotReady(pod));
            return Optional.of(name + " is not Ready: " + why);
        }
        return Optional.empty();
    }

    private static Optional<String> startProblem(Pod pod) {
        String name = "pod " + pod.getMetadata().getName();
        Optional<PodCondition> scheduled = condition(pod, "PodScheduled");
        if (scheduled.isPresent() && "False".equals(scheduled.get().getStatus())) {
            return Optional.of(name + " cannot be scheduled (" + scheduled.get().getReason() + "): "
                    + scheduled.get().getMessage() + "; check spec.placement and the nodes' labels and taints");
        }
        if (pod.getStatus() != null && pod.getStatus().getContainerStatuses() != null) {
            for (ContainerStatus container : pod.getStatus().getContainerStatuses()) {
                if (container.getState() != null
                        && container.getState().getWaiting() != null
                        && container.getState().getWaiting().getReason() != null
                        && !"ContainerCreating"
                                .equals(container.getState().getWaiting().getReason())) {
                    return Optional.of(name + " container " + container.getName() + " is waiting: "
                            + container.getState().getWaiting().getReason() + " "
                            + Optional.ofNullable(
                                            container.getState().getWaiting().getMessage())
                                    .orElse("")
                            + terminationReason(container)
                                    .map(r -> " (last ended: " + r + ")")
                                    .orElse(""));
                }
                if (container.getState() != null && container.getState().getTerminated() != null) {
                    return Optional.of(name + " container " + container.getName() + " exited with code "
                            + container.getState().getTerminated().getExitCode()
                            + terminationReason(container)
                                    .map(r -> " (" + r + ")")
                                    .orElse(""));
                }
            }
        }
        return Optional.empty();
    }

    private static String unexplainedNotReady(Pod pod) {
        String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        if (node == null) {
            return "its readiness probe on " + SpringApp.READINESS_PATH + " fails";
        }
        return "its readiness probe on " + SpringApp.READINESS_PATH + " fails, or its node " + node
                + " stopped reporting" + " (kubectl describe pod "
                + pod.getMetadata().getName() + "; kubectl get node " + node + ")";
    }

    private static Optional<PodCondition> condition(Pod pod, String type) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        return pod.getStatus().getConditions().stream()
                .filter(c -> type.equals(c.getType()))
                .findFirst();
    }
}
