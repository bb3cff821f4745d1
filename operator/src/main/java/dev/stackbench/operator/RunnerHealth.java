package dev.stackbench.operator;

import dev.stackbench.k6.K6Env;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Whether k6 runners failed. k6-operator reports a TestRun {@code finished} even when its runners failed, so the
 * operator looks at the runner pods and Jobs itself. Exit code {@value K6Env#EXIT_THRESHOLDS_FAILED} is not a
 * failure: k6 completed and only thresholds did not hold, which the results show.
 */
public final class RunnerHealth {

    /** k6-operator names the Job that checks the script before any runner starts {@code <testrun>-initializer}. */
    static final String INITIALIZER_SUFFIX = "-initializer";

    private RunnerHealth() {}

    /** What went wrong with the runners, or empty when none failed (so far). */
    public static Optional<String> failure(List<Job> jobs, List<Pod> pods) {
        for (Pod pod : sorted(pods)) {
            Optional<String> problem = podFailure(pod);
            if (problem.isPresent()) {
                return problem;
            }
        }
        for (Job job : jobs) {
            Optional<JobCondition> failed =
                    job.getStatus() == null || job.getStatus().getConditions() == null
                            ? Optional.empty()
                            : job.getStatus().getConditions().stream()
                                    .filter(c -> "Failed".equals(c.getType()) && "True".equals(c.getStatus()))
                                    .findFirst();
            String jobName = job.getMetadata().getName();
            boolean onlyThresholds = pods.stream()
                    .filter(pod -> jobName.equals(labelOf(pod, "job-name")))
                    .anyMatch(pod -> exitCode(pod).orElse(-1) == K6Env.EXIT_THRESHOLDS_FAILED);
            if (failed.isPresent() && jobName.endsWith(INITIALIZER_SUFFIX)) {
                return Optional.of("k6-operator's initializer Job " + jobName + " failed: k6 could not archive or"
                        + " inspect the script (a custom script's syntax, or its options); see kubectl logs job/"
                        + jobName);
            }
            if (failed.isPresent() && !onlyThresholds) {
                return Optional.of("k6 runner Job " + jobName + " failed: "
                        + failed.get().getReason() + " (" + failed.get().getMessage() + ")");
            }
        }
        return Optional.empty();
    }

    private static Optional<String> podFailure(Pod pod) {
        String name = pod.getMetadata().getName();
        Optional<Integer> exit = exitCode(pod);
        if (exit.isPresent() && exit.get() != 0 && exit.get() != K6Env.EXIT_THRESHOLDS_FAILED) {
            return Optional.of("k6 runner pod " + name + " failed: k6 exited with code " + exit.get()
                    + terminationReason(pod) + "; see kubectl logs " + name);
        }
        if (pod.getStatus() != null && "Failed".equals(pod.getStatus().getPhase()) && exit.isEmpty()) {
            return Optional.of("k6 runner pod " + name + " failed: "
                    + pod.getStatus().getReason() + " " + pod.getStatus().getMessage());
        }
        return Optional.empty();
    }

    /** Whether every runner pod has finished (phase Succeeded or Failed). */
    public static boolean allFinished(List<Pod> pods, int expected) {
        return pods.size() >= expected && pods.stream().allMatch(PodEnds::phaseEnded);
    }

    /**
     * Whether every runner's k6 has exited, as its pod's container statuses say before the kubelet has torn the pod
     * down and marked it finished ({@link PodEnds#processesExited}).
     */
    public static boolean allExited(List<Pod> pods, int expected) {
        return pods.size() >= expected && pods.stream().allMatch(PodEnds::ended);
    }

    /**
     * Whether every runner's k6 container has started (it runs or has ended): the load of runners that start
     * unpaused ({@code spec.paused: "false"}) runs from then on, before k6-operator's starter.
     */
    public static boolean allStarted(List<Pod> pods, int expected) {
        return pods.size() >= expected
                && pods.stream().allMatch(pod -> k6Container(pod)
                        .map(status -> status.getState() != null
                                && (status.getState().getRunning() != null
                                        || status.getState().getTerminated() != null))
                        .orElse(false));
    }

    static Optional<Integer> exitCode(Pod pod) {
        return k6Container(pod)
                .map(status ->
                        status.getState() == null ? null : status.getState().getTerminated())
                .map(terminated -> terminated.getExitCode());
    }

    private static String terminationReason(Pod pod) {
        return k6Container(pod)
                .map(status -> status.getState().getTerminated().getReason())
                .map(reason -> " (" + reason + ")")
                .orElse("");
    }

    private static Optional<ContainerStatus> k6Container(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
            return Optional.empty();
        }
        return pod.getStatus().getContainerStatuses().stream().findFirst();
    }

    private static String labelOf(Pod pod, String key) {
        return pod.getMetadata().getLabels() == null
                ? null
                : pod.getMetadata().getLabels().get(key);
    }

    /** The pods by name, the order in which their logs and figures are read. */
    public static List<Pod> sorted(List<Pod> pods) {
        return pods.stream()
                .sorted(Comparator.comparing(pod -> pod.getMetadata().getName()))
                .toList();
    }
}
