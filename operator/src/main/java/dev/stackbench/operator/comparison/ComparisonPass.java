package dev.stackbench.operator.comparison;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.comparison.BenchmarkComparison;
import dev.stackbench.api.comparison.BenchmarkComparisonStatus;
import dev.stackbench.api.comparison.ComparisonPhase;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pass over a comparison: the comparison, the status being written (a copy: the informer's object stays as it
 * was), whether it changed, the events to record once it is stored and when to look again.
 */
public final class ComparisonPass {

    /** An event of the pass, recorded on the comparison after its status is written. */
    public record Event(boolean warning, String reason, String message) {}

    private static final Logger LOG = LoggerFactory.getLogger(ComparisonPass.class);

    private final BenchmarkComparison resource;
    private final BenchmarkComparisonStatus status;
    private final Clock clock;
    private final List<Event> events = new ArrayList<>();
    private boolean changed;
    private Duration nextCheck;

    public ComparisonPass(BenchmarkComparison resource, Clock clock) {
        this.resource = resource;
        this.clock = clock;
        this.status = resource.getStatus() == null
                ? new BenchmarkComparisonStatus()
                : BenchmarkRuns.yamlMapper().convertValue(resource.getStatus(), BenchmarkComparisonStatus.class);
    }

    public BenchmarkComparison resource() {
        return resource;
    }

    public BenchmarkComparisonStatus status() {
        return status;
    }

    Clock clock() {
        return clock;
    }

    /** Whether the comparison has Succeeded or Failed: nothing is left to do. */
    public boolean ended() {
        return status.getPhase() == ComparisonPhase.Succeeded || status.getPhase() == ComparisonPhase.Failed;
    }

    /** The status differs from the stored one and has to be written. */
    void markChanged() {
        changed = true;
    }

    public boolean hasChanged() {
        return changed;
    }

    void event(boolean warning, String reason, String message) {
        events.add(new Event(warning, reason, message));
    }

    public List<Event> events() {
        return events;
    }

    public void message(String message) {
        if (!message.equals(status.getMessage())) {
            status.setMessage(message);
            changed = true;
        }
    }

    /** The current repetition's live load (null: none); changes the status only when the reading is new. */
    public void live(dev.stackbench.api.status.LiveLoad live) {
        String before = status.getLive() == null
                ? null
                : status.getLive().getUpdatedAt() + status.getLive().getText();
        String after = live == null ? null : live.getUpdatedAt() + live.getText();
        if (!java.util.Objects.equals(before, after)) {
            status.setLive(live);
            changed = true;
        }
    }

    /** Asks for the next pass within {@code delay}; the shortest of the delays asked for wins. */
    public void checkAgainIn(Duration delay) {
        if (nextCheck == null || delay.compareTo(nextCheck) < 0) {
            nextCheck = delay;
        }
    }

    /** When to look again, or null when nothing asked for it. */
    public Duration nextCheck() {
        return nextCheck;
    }

    /** The comparison fails for good: the reason and message go into its status and a warning event. */
    public void fail(String reason, String message) {
        LOG.warn("comparison {}: {}", resource.getMetadata().getName(), message);
        status.setPhase(ComparisonPhase.Failed);
        status.setMessage(message);
        status.setLive(null);
        status.setFinishedAt(clock.instant().toString());
        status.setObservedGeneration(resource.getMetadata().getGeneration());
        changed = true;
        event(true, reason, message);
    }
}
