package dev.stackbench.api.status;

import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Kubernetes-style conditions: lastTransitionTime changes only when a condition's status flips. */
public final class Conditions {

    public static final String TRUE = "True";
    public static final String FALSE = "False";
    public static final String UNKNOWN = "Unknown";

    /** The target Deployment (or local process) is ready to take load. */
    public static final String TARGET_READY = "TargetReady";
    /** The load generator runs. */
    public static final String LOAD_RUNNING = "LoadRunning";
    /** Results were collected and aggregated. */
    public static final String RESULTS_COLLECTED = "ResultsCollected";
    /** Every threshold passed on the combined result. */
    public static final String THRESHOLDS_PASSED = "ThresholdsPassed";
    /**
     * Whether the load generator failed to deliver the requested load (a runner near its CPU limit or throttled,
     * dropped iterations): True means the figures describe the generator rather than the target.
     */
    public static final String GENERATOR_SATURATED = "GeneratorSaturated";
    /** The run reached a terminal phase. */
    public static final String COMPLETE = "Complete";

    private Conditions() {}

    /**
     * Sets a condition, keeping its lastTransitionTime unless the status flips.
     *
     * @return whether anything about the condition changed, so callers patch status only when needed
     */
    public static boolean set(
            List<Condition> conditions,
            String type,
            String status,
            String reason,
            String message,
            Long observedGeneration,
            Instant now) {
        Optional<Condition> existing = find(conditions, type);
        if (existing.isEmpty()) {
            conditions.add(new Condition(format(now), message, observedGeneration, reason, status, type));
            return true;
        }
        Condition condition = existing.get();
        boolean changed = false;
        if (!Objects.equals(condition.getStatus(), status)) {
            condition.setStatus(status);
            condition.setLastTransitionTime(format(now));
            changed = true;
        }
        if (!Objects.equals(condition.getReason(), reason)) {
            condition.setReason(reason);
            changed = true;
        }
        if (!Objects.equals(condition.getMessage(), message)) {
            condition.setMessage(message);
            changed = true;
        }
        if (!Objects.equals(condition.getObservedGeneration(), observedGeneration)) {
            condition.setObservedGeneration(observedGeneration);
            changed = true;
        }
        return changed;
    }

    /** Same as {@link #set} with a boolean status. */
    public static boolean set(
            List<Condition> conditions,
            String type,
            boolean status,
            String reason,
            String message,
            Long observedGeneration,
            Instant now) {
        return set(conditions, type, status ? TRUE : FALSE, reason, message, observedGeneration, now);
    }

    public static Optional<Condition> find(List<Condition> conditions, String type) {
        return conditions == null
                ? Optional.empty()
                : conditions.stream()
                        .filter(condition -> type.equals(condition.getType()))
                        .findFirst();
    }

    public static boolean isTrue(List<Condition> conditions, String type) {
        return find(conditions, type)
                .map(condition -> TRUE.equals(condition.getStatus()))
                .orElse(false);
    }

    /** RFC 3339 in whole seconds, as Kubernetes writes metav1.Time. */
    public static String format(Instant instant) {
        return instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
