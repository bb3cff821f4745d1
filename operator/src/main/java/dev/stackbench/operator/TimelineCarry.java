package dev.stackbench.operator;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.TimelineEntry;
import dev.stackbench.lifecycle.RunProgress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The timeline entries of passes whose status write met a conflict. Such a pass is repeated on fresh data, but the
 * repeat does not record again what the lost pass did once (it created the verification pod or the TestRun, and the
 * repeat finds them made): its Events exist, and without this its moments would be missing from status.timeline. The
 * entries wait here, by the run's uid, and go into the next pass's status that is stored, at the time they happened.
 *
 * <p>A kept entry is left out when the stored timeline has the same name from {@link #SAME_MOMENT} before it onwards: a
 * pass on a stale copy of the run records again what the stored status has already. When the repeat records the
 * moment again itself (it derives the same step from the stored status), the kept entry replaces its own, later one.
 * Kept in memory only: an operator that restarts between the conflict and the next write
 * loses them, as every timeline entry was lost before.
 */
final class TimelineCarry {

    /** How close an entry of the same name counts as the same moment recorded twice. */
    static final Duration SAME_MOMENT = Duration.ofSeconds(10);

    /** Entries of a run that stores nothing more for this long are dropped (it was deleted meanwhile). */
    private static final Duration KEPT_FOR = Duration.ofMinutes(10);

    private record Kept(Instant since, List<TimelineEntry> entries) {}

    private final Map<String, Kept> kept = new ConcurrentHashMap<>();

    /** After a conflict: keeps the entries this pass added to the timeline it read. */
    void keep(RunProgress progress) {
        String uid = progress.run().getMetadata().getUid();
        if (uid == null) {
            return;
        }
        List<TimelineEntry> read = timeline(progress.run());
        List<TimelineEntry> added = new ArrayList<>();
        for (TimelineEntry entry : nonNull(progress.status().getTimeline())) {
            if (read.stream().noneMatch(earlier -> same(earlier, entry))) {
                added.add(entry);
            }
        }
        Instant now = progress.now();
        kept.values().removeIf(old -> old.since().plus(KEPT_FOR).isBefore(now));
        if (added.isEmpty()) {
            return;
        }
        kept.merge(uid, new Kept(now, added), (before, more) -> {
            List<TimelineEntry> all = new ArrayList<>(before.entries());
            more.entries().stream()
                    .filter(entry -> all.stream().noneMatch(other -> same(other, entry)))
                    .forEach(all::add);
            all.sort(Comparator.comparing(entry -> Instant.parse(entry.getAt())));
            return new Kept(
                    before.since(), List.copyOf(all.subList(0, Math.min(all.size(), RunProgress.TIMELINE_LIMIT))));
        });
    }

    /**
     * Before a pass's write: adds the entries of its lost passes that the stored timeline does not have. One this pass
     * recorded again gives way to the lost pass's, the time it happened.
     */
    void restore(RunProgress progress) {
        String uid = progress.run().getMetadata().getUid();
        Kept lost = uid == null ? null : kept.get(uid);
        if (lost == null) {
            return;
        }
        List<TimelineEntry> stored = timeline(progress.run());
        for (TimelineEntry entry : lost.entries()) {
            Instant from = Instant.parse(entry.getAt()).minus(SAME_MOMENT);
            if (stored.stream().anyMatch(other -> sameMoment(other, entry, from))) {
                continue;
            }
            List<TimelineEntry> timeline = progress.status().getTimeline();
            if (timeline != null) {
                timeline.removeIf(other -> sameMoment(other, entry, from));
            }
            progress.addToTimeline(Instant.parse(entry.getAt()), entry.getWhat(), false);
        }
    }

    /** After a pass stored its status (or had nothing to store): its lost passes' entries are in it. */
    void stored(RunProgress progress) {
        String uid = progress.run().getMetadata().getUid();
        if (uid != null) {
            kept.remove(uid);
        }
    }

    /** How many runs have entries waiting. */
    int waiting() {
        return kept.size();
    }

    /** Whether {@code other} records the moment of {@code entry}: the same name, at {@code from} or later. */
    private static boolean sameMoment(TimelineEntry other, TimelineEntry entry, Instant from) {
        return Objects.equals(other.getWhat(), entry.getWhat())
                && !Instant.parse(other.getAt()).isBefore(from);
    }

    private static boolean same(TimelineEntry a, TimelineEntry b) {
        return Objects.equals(a.getAt(), b.getAt()) && Objects.equals(a.getWhat(), b.getWhat());
    }

    private static List<TimelineEntry> timeline(BenchmarkRun run) {
        return run.getStatus() == null ? List.of() : nonNull(run.getStatus().getTimeline());
    }

    private static List<TimelineEntry> nonNull(List<TimelineEntry> timeline) {
        return timeline == null ? List.of() : timeline;
    }
}
