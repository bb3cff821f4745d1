package dev.stackbench.lifecycle;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stackbench.api.Durations;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.BenchmarkRunStatus;
import dev.stackbench.api.status.Conditions;
import dev.stackbench.api.status.Phase;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.api.status.StepOutcome;
import dev.stackbench.api.status.StepResult;
import dev.stackbench.api.status.TimelineEntry;
import dev.stackbench.results.GeneratorCheck;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The life cycle of one run, shared by the operator and local mode: the stages a run goes through, each with the
 * phase, condition, reason and message it sets. Phases only move forward, conditions keep their lastTransitionTime
 * unless they flip, and each step is remembered as an event to publish (Kubernetes Events on a cluster, progress
 * lines locally). Knows whether anything changed, so the status is patched only then.
 *
 * <p>Both runners go through the same stages with the same reasons, so the status of a run differs between the modes
 * only where the environment differs (node names, addresses, process ids), never in its conditions.
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

    // Reasons of the failures both runners can meet.
    public static final String INVALID_SPEC = "InvalidSpec";
    public static final String TIMED_OUT = "TimedOut";
    public static final String TARGET_NOT_READY = "TargetNotReady";
    /** The target (or the delay service) ran out of its memory limit; a cluster-only reason: local processes have none. */
    public static final String TARGET_OOM_KILLED = "TargetOOMKilled";
    /** The target restarted while load ran, so its figures would mix two processes. */
    public static final String TARGET_RESTARTED = "TargetRestarted";

    public static final String LOAD_GENERATOR_FAILED = "LoadGeneratorFailed";
    public static final String RESULTS_UNREADABLE = "ResultsUnreadable";
    public static final String INTERRUPTED = "Interrupted";
    /** The target did not do the work its scenario asks for per request (status.verification), found before load. */
    public static final String VERIFICATION_FAILED = "VerificationFailed";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** An event to publish (a Kubernetes Event on a cluster, a progress line locally): a CamelCase reason and a sentence. */
    public record Event(boolean warning, String reason, String message) {}

    private final BenchmarkRun run;
    private final BenchmarkRunStatus status;
    private final String originalJson;
    private final Clock clock;
    private final List<Event> events = new ArrayList<>();
    private Duration nextCheck;
    /** What a sweep or a capacity search came to, for the message of the run's success. */
    private String stepsMessage;

    /** The progress of one reconcile, which sees one instant. */
    public RunProgress(BenchmarkRun run, Instant now) {
        this(run, Clock.fixed(now, java.time.ZoneOffset.UTC));
    }

    /** The progress of a run followed as it happens (local mode), whose clock moves. */
    public RunProgress(BenchmarkRun run, Clock clock) {
        this.run = run;
        this.clock = clock;
        BenchmarkRunStatus current = run.getStatus() == null ? new BenchmarkRunStatus() : run.getStatus();
        this.originalJson = json(current);
        this.status = copy(current);
        if (status.getConditions() == null) {
            status.setConditions(new ArrayList<>());
        }
        status.setObservedGeneration(run.getMetadata().getGeneration());
    }

    /** The most entries a run's timeline keeps: a long sweep's later steps are left out, its end is not. */
    public static final int TIMELINE_LIMIT = 120;

    private static final java.util.Set<String> ESSENTIAL = java.util.Set.of("RunSucceeded", "Deleted", "KeptByPolicy");

    /** Records an event for the run's Events and its timeline. */
    private void emit(Event event) {
        events.add(event);
        addToTimeline(now(), event.reason(), event.warning() || ESSENTIAL.contains(event.reason()));
    }

    /**
     * Adds a moment to the run's timeline, with its seconds since the run was created; past {@link #TIMELINE_LIMIT}
     * entries only an essential one (the end, a failure) still replaces the last.
     */
    public void addToTimeline(Instant at, String what, boolean essential) {
        if (status.getTimeline() == null) {
            status.setTimeline(new ArrayList<>());
        }
        List<TimelineEntry> timeline = status.getTimeline();
        if (timeline.size() >= TIMELINE_LIMIT) {
            if (!essential) {
                return;
            }
            timeline.removeLast();
        }
        Instant created = createdAt().orElse(at);
        timeline.add(new TimelineEntry()
                .withAt(at.truncatedTo(java.time.temporal.ChronoUnit.MILLIS).toString())
                .withSeconds(Math.round((at.toEpochMilli() - created.toEpochMilli()) / 100.0) / 10.0)
                .withWhat(what));
        // Pod milestones arrive after the fact: the timeline stays in time order.
        timeline.sort(java.util.Comparator.comparing(entry -> Instant.parse(entry.getAt())));
    }

    /** When the run was created: its creation time stamp, or else its first timeline entry. */
    private Optional<Instant> createdAt() {
        String created = run.getMetadata().getCreationTimestamp();
        if (created != null) {
            try {
                return Optional.of(Instant.parse(created));
            } catch (java.time.format.DateTimeParseException e) {
                // Not RFC 3339: the first entry stands in.
            }
        }
        return status.getTimeline() == null || status.getTimeline().isEmpty()
                ? Optional.empty()
                : Optional.of(Instant.parse(status.getTimeline().getFirst().getAt()));
    }

    public BenchmarkRun run() {
        return run;
    }

    public BenchmarkRunStatus status() {
        return status;
    }

    public Instant now() {
        return clock.instant();
    }

    // ---------------------------------------------------------------------------------------------------------
    // The stages of a run, in the order they happen

    /** The spec is valid and the variant known. */
    public void accepted() {
        moveTo(Phase.Pending, "Accepted", "the spec is valid; the run waits for the pools it runs on");
    }

    /** Another run holds one of the pools this run needs: it is Queued, saying which. */
    public void waitingForPools(String message) {
        moveTo(Phase.Queued, "WaitingForPool", message);
        condition(POOLS_AVAILABLE, false, "WaitingForPool", message);
        status.setMessage(message);
    }

    /** The run holds what it runs on: node pools on a cluster, this machine's CPUs locally. */
    public void poolsAcquired(String message) {
        condition(POOLS_AVAILABLE, true, "PoolsAcquired", message);
        moveTo(Phase.Provisioning, "Provisioning", "starting the delay service and the target, writing the k6 script");
    }

    /** The target or the delay service is not Ready yet; {@code problem} says which and why. */
    public void waitingForTarget(String problem) {
        condition(Conditions.TARGET_READY, false, "WaitingForTarget", problem);
        status.setMessage("waiting for Ready: " + problem);
    }

    public void targetReady() {
        condition(Conditions.TARGET_READY, true, "TargetReady", "the target and the delay service are Ready");
    }

    /** The target did not become Ready within {@code limit}: the run fails. */
    public void targetNotReady(Duration limit, String problem) {
        condition(Conditions.TARGET_READY, false, TARGET_NOT_READY, problem);
        fail(TARGET_NOT_READY, "not Ready within " + dev.stackbench.api.Durations.format(limit) + ": " + problem);
    }

    /** The target, the delay service or what they need could not be started: the run fails with that message. */
    public void targetNotReady(String message) {
        condition(Conditions.TARGET_READY, false, TARGET_NOT_READY, message);
        fail(TARGET_NOT_READY, message);
    }

    /**
     * k6 sends load; the run's clock (startedAt) starts here.
     *
     * @param runners how many k6 processes send it
     * @param targetUrl where they send it
     */
    public void loadRunning(int runners, String targetUrl) {
        if (status.getStartedAt() == null) {
            status.setStartedAt(Conditions.format(now()));
        }
        condition(
                Conditions.LOAD_RUNNING,
                true,
                "LoadRunning",
                (runners == 1 ? "1 k6 runner sends" : runners + " k6 runners send") + " load to " + targetUrl);
    }

    /** Load runs inside the warmup, whose requests no figure counts. */
    public void warmingUp(String warmup) {
        moveTo(Phase.WarmingUp, "WarmingUp", "load runs; the first " + warmup + " are excluded from the results");
    }

    /** The measured window has begun. */
    public void measuring(String duration) {
        moveTo(Phase.Running, "Running", "measuring for " + duration);
    }

    /** Every k6 runner has ended; its results are read next. */
    public void loadFinished(int runners) {
        condition(
                Conditions.LOAD_RUNNING,
                false,
                "LoadFinished",
                runners == 1 ? "the k6 runner has finished" : "every k6 runner has finished");
        moveTo(Phase.Collecting, "Collecting", "reading the k6 summaries of the runners");
    }

    /** The load generator failed: the run fails, saying how. */
    public void loadGeneratorFailed(String reason, String message) {
        condition(Conditions.LOAD_RUNNING, false, reason, message);
        fail(reason, message);
    }

    /**
     * Whether the load generator kept up (condition GeneratorSaturated). A finding also joins the summary's warnings,
     * once, unless it is only about dropped iterations, which the summary's own warning on them already gives.
     */
    public void generatorChecked(RunSummary summary, GeneratorCheck.Judgement judgement) {
        if (judgement.finding().isEmpty()) {
            condition(Conditions.GENERATOR_SATURATED, false, "GeneratorKeptUp", judgement.keptUpDescription());
            return;
        }
        GeneratorCheck.Finding finding = judgement.finding().get();
        condition(Conditions.GENERATOR_SATURATED, true, finding.reason(), finding.message());
        if (!GeneratorCheck.ITERATIONS_DROPPED.equals(finding.reason())
                && (summary.getWarnings() == null || !summary.getWarnings().contains(finding.message()))) {
            summary.addWarning(finding.message());
        }
    }

    /**
     * The summary is stored and the run succeeded. Thresholds get a condition only when the run had some.
     *
     * @param runners how many k6 summaries were combined
     */
    public void succeeded(RunSummary summary, int runners) {
        status.setSummary(summary);
        condition(
                Conditions.RESULTS_COLLECTED,
                true,
                "ResultsCollected",
                "combined the k6 summaries of " + runners + " runner" + (runners == 1 ? "" : "s"));
        if (summary.getThresholdsPassed() != null) {
            boolean passed = summary.getThresholdsPassed();
            condition(
                    Conditions.THRESHOLDS_PASSED,
                    passed,
                    passed ? "ThresholdsPassed" : "ThresholdsFailed",
                    passed
                            ? "every threshold held on the combined result"
                            : "at least one threshold failed on the combined result: see status.summary");
        }
        Double p95 =
                summary.getLatencyMs() == null ? null : summary.getLatencyMs().getP95();
        if (stepsMessage != null) {
            moveTo(Phase.Succeeded, "RunSucceeded", stepsMessage);
            return;
        }
        moveTo(
                Phase.Succeeded,
                "RunSucceeded",
                String.format(
                        Locale.ROOT,
                        "%d requests, %.1f requests/s, p95 %.1f ms, error rate %.4f",
                        summary.getRequests(),
                        summary.getRps(),
                        p95 == null ? Double.NaN : p95,
                        summary.getErrorRate()));
    }

    // ---------------------------------------------------------------------------------------------------------
    // The steps of a sweep or a capacity search (SteppedLoad), between loadRunning and loadFinished

    /**
     * A step's load begins. The first step moves the run through WarmingUp and Running as an ordinary run does; the
     * phase then stays Running, and the message says which step is under way.
     *
     * @param step 1 for the first step
     * @param maxSteps the most steps the run can take
     */
    public void stepStarted(int step, int level, String unit, int maxSteps, String warmup, String duration) {
        String text = "step " + step + " (at most " + maxSteps + "): " + level + " " + unit + ", "
                + (Durations.parse(warmup).isZero() ? "" : warmup + " warmup then ") + duration + " measured";
        emit(new Event(false, "StepStarted", text));
        if (step == 1) {
            if (Durations.parse(warmup).isZero()) {
                measuring(duration);
            } else {
                warmingUp(warmup);
            }
        }
        status.setMessage(text);
    }

    /** A step's figures are read and judged: they join status.steps. */
    public void stepFinished(StepResult result) {
        if (status.getSteps() == null) {
            status.setSteps(new ArrayList<>());
        }
        status.getSteps().add(result);
        boolean bad = result.getOutcome() == StepOutcome.Broken || result.getOutcome() == StepOutcome.GeneratorLimited;
        String text = String.format(
                Locale.ROOT,
                "step %d (%d %s): %.1f requests/s, p95 %.1f ms, error rate %.4f: %s (%s)",
                result.getStep(),
                result.getLevel(),
                result.getUnit(),
                result.getRps() == null ? Double.NaN : result.getRps(),
                result.getP95Ms() == null ? Double.NaN : result.getP95Ms(),
                result.getErrorRate() == null ? Double.NaN : result.getErrorRate(),
                result.getOutcome(),
                result.getReason());
        emit(new Event(bad, "Step" + result.getOutcome(), text));
        status.setMessage(text);
    }

    /**
     * No step follows: records what a capacity search found, and the summary of the step the run keeps (marked with
     * its step number). The run then goes on to {@link #loadFinished} and {@link #succeeded} as an ordinary run.
     */
    public void stepsDone(SteppedLoad.Done done, RunSummary kept, int keptStep) {
        status.setCapacity(done.capacity());
        kept.setStep(keptStep);
        if (done.capacity() != null) {
            kept.setCapacity(done.capacity().getRate());
        }
        StepResult keptResult = status.getSteps() == null
                ? null
                : status.getSteps().stream()
                        .filter(step -> step.getStep() == keptStep)
                        .findFirst()
                        .orElse(null);
        if (keptResult != null && keptResult.getOutcome() != StepOutcome.Passed) {
            kept.addWarning("no step met " + (done.capacity() == null ? "its thresholds" : "the objective")
                    + ": this summary is step " + keptStep + ", the one with the highest rps");
        }
        if (SteppedLoad.GENERATOR_LIMITED.equals(done.reason())) {
            kept.addWarning(done.message());
        }
        emit(new Event(SteppedLoad.GENERATOR_LIMITED.equals(done.reason()), done.reason(), done.message()));
        stepsMessage = done.message() + "; the summary is step " + keptStep;
    }

    /** The runners' output holds no readable results: the run fails, naming what to look at. */
    public void resultsUnreadable(String message) {
        condition(Conditions.RESULTS_COLLECTED, false, RESULTS_UNREADABLE, message);
        fail(RESULTS_UNREADABLE, message);
    }

    /** What was done with the run's objects or processes after it ended. */
    public void cleanedUp(boolean deleted, String message) {
        condition(CLEANED_UP, deleted, deleted ? "Deleted" : "KeptByPolicy", message);
    }

    // ---------------------------------------------------------------------------------------------------------
    // The primitives the steps are made of

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
        emit(new Event(next == Phase.Failed, reason, message));
        if (next.isTerminal()) {
            status.setFinishedAt(Conditions.format(now()));
            status.setLive(null); // a view of the load while it ran: the summary has the results now
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
                now());
        if (flips && !Conditions.COMPLETE.equals(type)) {
            emit(new Event(false, reason, message));
        }
    }

    /** Records a normal event that changes no condition (something done once, e.g. pools released). */
    public void note(String reason, String message) {
        emit(new Event(false, reason, message));
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
                now());
        if (flips) {
            emit(new Event(true, reason, message));
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

    public List<Event> events() {
        return List.copyOf(events);
    }

    /** The events recorded since the last call, for a runner that publishes them as they happen. */
    public List<Event> takeEvents() {
        List<Event> taken = List.copyOf(events);
        events.clear();
        return taken;
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
