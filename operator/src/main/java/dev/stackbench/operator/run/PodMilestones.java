package dev.stackbench.operator.run;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The moments of a pod's life the API server records: created, scheduled, its first container started, Ready, and
 * (for a pod that ran to its end, a k6 runner) finished. Where a run's time goes before and after its load is in
 * these: how long the database took to answer, the target to start on its CPU, k6-operator to start its runners.
 */
final class PodMilestones {

    /** A moment of a pod, named for the run's timeline. */
    record Milestone(Instant at, String what) {}

    private PodMilestones() {}

    /** The pod's moments in time order, each named "{@code label} created" and so on. */
    static List<Milestone> of(String label, Pod pod) {
        List<Milestone> milestones = new ArrayList<>();
        parse(pod.getMetadata().getCreationTimestamp())
                .ifPresent(at -> milestones.add(new Milestone(at, label + " created")));
        if (pod.getStatus() != null) {
            condition(pod, "PodScheduled").ifPresent(at -> milestones.add(new Milestone(at, label + " scheduled")));
            List<ContainerStatus> containers = pod.getStatus().getContainerStatuses() == null
                    ? List.of()
                    : pod.getStatus().getContainerStatuses();
            containers.stream()
                    .map(PodMilestones::started)
                    .flatMap(Optional::stream)
                    .min(Comparator.naturalOrder())
                    .ifPresent(at -> milestones.add(new Milestone(at, label + " started")));
            condition(pod, "Ready").ifPresent(at -> milestones.add(new Milestone(at, label + " Ready")));
            containers.stream()
                    .map(PodMilestones::finished)
                    .flatMap(Optional::stream)
                    .max(Comparator.naturalOrder())
                    .ifPresent(at -> milestones.add(new Milestone(at, label + " finished")));
        }
        milestones.sort(Comparator.comparing(Milestone::at));
        return milestones;
    }

    private static Optional<Instant> condition(Pod pod, String type) {
        List<PodCondition> conditions = pod.getStatus().getConditions() == null
                ? List.of()
                : pod.getStatus().getConditions();
        return conditions.stream()
                .filter(c -> type.equals(c.getType()) && "True".equals(c.getStatus()))
                .findFirst()
                .flatMap(c -> parse(c.getLastTransitionTime()));
    }

    private static Optional<Instant> started(ContainerStatus container) {
        if (container.getState() == null) {
            return Optional.empty();
        }
        if (container.getState().getRunning() != null) {
            return parse(container.getState().getRunning().getStartedAt());
        }
        if (container.getState().getTerminated() != null) {
            return parse(container.getState().getTerminated().getStartedAt());
        }
        return Optional.empty();
    }

    private static Optional<Instant> finished(ContainerStatus container) {
        if (container.getState() == null || container.getState().getTerminated() == null) {
            return Optional.empty();
        }
        return parse(container.getState().getTerminated().getFinishedAt());
    }

    private static Optional<Instant> parse(String timestamp) {
        if (timestamp == null || timestamp.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(timestamp));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
