package dev.stackbench.operator;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.Phase;
import dev.stackbench.lifecycle.RunProgress;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The runs whose ended status this operator stored, until a pass sees it. The pass that collects the results stores
 * the final status; the informer's copy of the run catches up a moment later (milliseconds, more under load). A pass
 * on the older copy takes the run for one that is still collecting: it reads the runners' summaries and the target
 * again, only for its status write to meet a conflict, and the cleanup waits behind it. Such a pass waits for the
 * informer instead, so the cleanup can follow the stored status at once rather than after a guessed delay.
 *
 * <p>Kept in memory only: an operator that restarts reads fresh copies anyway. Nothing but this operator's passes
 * writes the status, so a copy without an ended phase, of a run whose end was stored, can only be older.
 */
final class StoredEnds {

    /** How soon a pass on an older copy looks again, in the first second after the store. */
    static final Duration SOON = Duration.ofMillis(50);

    /** How soon it looks again later on (an informer that lags this long is slow, not a moment behind). */
    static final Duration LATER = Duration.ofSeconds(1);

    /** A stored end that no pass saw for this long is forgotten (the run was deleted meanwhile). */
    private static final Duration KEPT_FOR = Duration.ofMinutes(10);

    private final Map<String, Instant> storedAt = new ConcurrentHashMap<>();

    /** After a status write: remembers it when it ended the run. */
    void stored(RunProgress progress) {
        String uid = progress.run().getMetadata().getUid();
        if (uid == null || !progress.isTerminal()) {
            return;
        }
        Instant now = progress.now();
        storedAt.values().removeIf(at -> at.plus(KEPT_FOR).isBefore(now));
        storedAt.putIfAbsent(uid, now);
    }

    /**
     * When to look again at this copy of the run, if it predates an ended status this operator stored; empty when the
     * copy is current (it has the end, or no end of it was stored).
     */
    Optional<Duration> olderThanStored(BenchmarkRun copy, Instant now) {
        String uid = copy.getMetadata().getUid();
        Instant at = uid == null ? null : storedAt.get(uid);
        if (at == null) {
            return Optional.empty();
        }
        Phase phase = copy.getStatus() == null ? null : copy.getStatus().getPhase();
        if ((phase != null && phase.isTerminal()) || at.plus(KEPT_FOR).isBefore(now)) {
            storedAt.remove(uid);
            return Optional.empty();
        }
        return Optional.of(at.plus(Duration.ofSeconds(1)).isAfter(now) ? SOON : LATER);
    }
}
