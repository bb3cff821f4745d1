package dev.stackbench.operator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.BenchmarkRunStatus;
import dev.stackbench.api.Conditions;
import dev.stackbench.api.Phase;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The status of one run as one reconcile changes it: phases only move forward, conditions keep their
 * lastTransitionTime unless they flip, and each step is remembered as an event to publish. Knows whether anything
 * changed, so the status is patched only then.
 */
public final class RunProgress {

    /** The pools are held (True) or the run waits in the queue for them (False). */
    public static final String POOLS_AVAILABLE = "PoolsAvailable";
    /** The spec changed after the run started and the change is ignored. */
    public static final String SPEC_CHANGE_IGNORED = "SpecChangeIgnored";
    /**
     * The run cannot go on until something outside it changes (True), e.g. the API server refuses the operator a
     * right the run needs; False once it goes on again.
     */
    public static final String STALLED = "Stalled";
    /** What cleanup did after the run ended. */
    public static final String CLEANED_UP = "CleanedUp";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** An event to publish: what happened, in a CamelCase reason and a sentence. */
    public record Step(boolean warning, String reason, String message) {}

    private final BenchmarkRun run;
    private final BenchmarkRunStatus status;
    private final String originalJson;
    private final Instant now;
    private final List<Step> steps = new ArrayList<>();
    private Duration nextCheck;

    public RunProgress(BenchmarkRun run, Instant now) {
        this.run = run;
        this.now = now;
        BenchmarkRunStatus current = run.getStatus() == null ? new BenchmarkRunStatus() : run.getStatus();
        this.originalJson = json(current);
        this.status = copy(current);
        if (status.getConditions() == null) {
            status.setConditions(new ArrayList<>());
        }
        status.setObservedGeneration(run.getMetadata().getGeneration());
    }

    public BenchmarkRun run() {
        return run;
    }

    public BenchmarkRunStatus status() {
        return status;
    }

    public Instant now() {
        return now;
    }

    /** The phase now; null counts as not yet Pending. */
    public Phase phase() {
        return status.getPhase();
    }

    public boolean isTerminal() {
        return phase() != null && phase().isTerminal();
    }

    /** Whether the run reached at least this phase (a failed run counts as past every phase). */
    public boolean reached(Phase phase) {
        return phase() != null && phase().ordinal() >= phase.ordinal();
    }

    /** Moves forward to {@code next}; a move backward or out of a final phase is ignored. */
    public boolean moveTo(Phase next, String reason, String message) {
        if (phase() == next || !Phase.canMove(phase(), next)) {
            return false;
        }
        status.setPhase(next);
        status.setMessage(message);
        steps.add(new Step(next == Phase.Failed, reason, message));
        if (next.isTerminal()) {
            status.setFinishedAt(Conditions.format(now));
            condition(Conditions.COMPLETE, true, reason, message);
        }
        return true;
    }

    public void fail(String reason, String message) {
        moveTo(Phase.Failed, reason, message);
    }

    /** Sets a condition; records an event when it is new or flips. */
    public void condition(String type, boolean value, String reason, String message) {
        Optional<Condition> before = Conditions.find(status.getConditions(), type);
        boolean flips = before.isEmpty()
                || !Objects.equals(before.get().getStatus(), value ? Conditions.TRUE : Conditions.FALSE);
        Conditions.set(
                status.getConditions(),
                type,
                value,
                reason,
                message,
                run.getMetadata().getGeneration(),
                now);
        if (flips && !Conditions.COMPLETE.equals(type)) {
            steps.add(new Step(false, reason, message));
        }
    }

    /** Sets a condition True that marks a problem; records a warning event when it is new or flips. */
    public void problem(String type, String reason, String message) {
        boolean flips = condition(type)
                .filter(c -> Conditions.TRUE.equals(c.getStatus()))
                .isEmpty();
        Conditions.set(
                status.getConditions(),
                type,
                true,
                reason,
                message,
                run.getMetadata().getGeneration(),
                now);
        if (flips) {
            steps.add(new Step(true, reason, message));
        }
    }

    public Optional<Condition> condition(String type) {
        return Conditions.find(status.getConditions(), type);
    }

    /** When a condition last became True, if it is True. */
    public Optional<Instant> trueSince(String type) {
        return condition(type)
                .filter(c -> Conditions.TRUE.equals(c.getStatus()))
                .map(c -> Instant.parse(c.getLastTransitionTime()));
    }

    /** Asks to be reconciled again after this long even without an event (shortest request wins). */
    public void checkAgainIn(Duration delay) {
        if (nextCheck == null || delay.compareTo(nextCheck) < 0) {
            nextCheck = delay;
        }
    }

    public Optional<Duration> nextCheck() {
        return Optional.ofNullable(nextCheck);
    }

    public List<Step> steps() {
        return List.copyOf(steps);
    }

    public boolean changed() {
        return !originalJson.equals(json(status));
    }

    private static BenchmarkRunStatus copy(BenchmarkRunStatus status) {
        return JSON.convertValue(status, BenchmarkRunStatus.class);
    }

    private static String json(BenchmarkRunStatus status) {
        try {
            return JSON.writeValueAsString(status);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize a BenchmarkRun status", e);
        }
    }
}
