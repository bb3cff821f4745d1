package dev.stackbench.operator;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.run.ExternalDatabaseSpec;
import dev.stackbench.api.run.PoolPlacement;
import dev.stackbench.api.status.Phase;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Keeps dedicated node pools dedicated, and an external database to one run at a time: two runs that place any role on
 * the same pool (equal, non-empty node selector) or name the same external database never overlap (a run empties the
 * database's tables when its target starts). A run may start when no run sharing a pool holds it and none sharing a
 * pool arrived before it (creation time, then when the operator first saw it, then namespace/name).
 *
 * <p>A run's claim is fixed when it starts ({@code status.pools}): editing the placement of a running run frees
 * nothing. It holds the claim until it has ended and its pods are gone, so a run whose pods are kept
 * ({@code spec.cleanup}) or still terminating keeps later runs off those nodes. The decision needs only the runs'
 * specs and statuses, so two runs deciding at the same moment agree on which goes first.
 */
public final class PoolQueue {

    private static final String DATABASE_PREFIX = "external database ";

    /** The run to wait for and the pool they share. */
    public record Wait(BenchmarkRun blocker, String pool) {
        public String message() {
            String who = "BenchmarkRun " + blocker.getMetadata().getNamespace() + "/"
                    + blocker.getMetadata().getName();
            String what = pool.startsWith(DATABASE_PREFIX) ? "the same " + pool : "the same nodes (" + pool + ")";
            if (phase(blocker) != null && phase(blocker).isTerminal()) {
                return "waits for " + who + ", which has ended but whose pods are still on " + what + " (kept by its"
                        + " spec.cleanup, or terminating); it starts when they are gone: delete " + who + " to remove"
                        + " them";
            }
            return "waits for " + who + ", which uses " + what + "; it starts when that run has finished";
        }
    }

    /** Orders runs by creation time, then by when the operator first saw them, then namespace and name. */
    public static final Comparator<BenchmarkRun> ARRIVAL = Comparator.comparing((BenchmarkRun run) ->
                    Objects.requireNonNullElse(run.getMetadata().getCreationTimestamp(), ""))
            .thenComparing(PoolQueue::queuedAt, Comparator.nullsLast(Comparator.naturalOrder()))
            .thenComparing(run -> Objects.requireNonNullElse(run.getMetadata().getNamespace(), ""))
            .thenComparing(run -> run.getMetadata().getName());

    private PoolQueue() {}

    /** The run this one has to wait for, if any; a run that already started holds its pools and never waits. */
    public static Optional<Wait> waitFor(BenchmarkRun run, Collection<BenchmarkRun> allRuns) {
        List<String> pools = claims(run);
        if (pools.isEmpty() || holds(run)) {
            return Optional.empty();
        }
        Optional<Wait> holding = allRuns.stream()
                .filter(other -> isOther(run, other) && holds(other))
                .sorted(ARRIVAL)
                .flatMap(other -> shared(pools, held(other)).map(pool -> new Wait(other, pool)).stream())
                .findFirst();
        if (holding.isPresent()) {
            return holding;
        }
        return allRuns.stream()
                .filter(other -> isOther(run, other) && !hasEnded(other) && ARRIVAL.compare(other, run) < 0)
                .sorted(ARRIVAL)
                .flatMap(other -> shared(pools, claims(other)).map(pool -> new Wait(other, pool)).stream())
                .findFirst();
    }

    /** What the run asks for now: each role's node pool and its external database, from its current spec. */
    public static List<String> claims(BenchmarkRun run) {
        Set<String> claims = pools(run.getSpec());
        database(run).ifPresent(claims::add);
        return List.copyOf(claims);
    }

    /** What a run that started holds: its claim as recorded then, whatever its spec says now. */
    static List<String> held(BenchmarkRun run) {
        List<String> recorded = run.getStatus() == null ? null : run.getStatus().getPools();
        return recorded != null ? recorded : claims(run);
    }

    /** Each role's node selector, written as "k=v,k2=v2"; roles without one claim no pool. */
    static Set<String> pools(BenchmarkRunSpec spec) {
        Set<String> pools = new TreeSet<>();
        if (spec == null || spec.getPlacement() == null) {
            return pools;
        }
        for (PoolPlacement placement : new PoolPlacement[] {
            spec.getPlacement().getTarget(),
            spec.getPlacement().getBackend(),
            spec.getPlacement().getLoadgen()
        }) {
            if (placement != null
                    && placement.getNodeSelector() != null
                    && !placement.getNodeSelector().isEmpty()) {
                pools.add(new TreeMap<>(placement.getNodeSelector())
                        .entrySet().stream().map(Map.Entry::toString).collect(Collectors.joining(",")));
            }
        }
        return pools;
    }

    /**
     * The external database a run names, as one name whatever way the host is written: a name without a dot is a
     * Service in the run's namespace, and the cluster domain is left off.
     */
    static Optional<String> database(BenchmarkRun run) {
        BenchmarkRunSpec spec = run.getSpec();
        ExternalDatabaseSpec external =
                spec == null || spec.getBackend() == null || spec.getBackend().getDatabase() == null
                        ? null
                        : spec.getBackend().getDatabase().getExternal();
        if (external == null || external.getHost() == null) {
            return Optional.empty();
        }
        String host = external.getHost().toLowerCase(Locale.ROOT).replaceFirst("[.]$", "");
        if (!host.contains(".")) {
            host = host + "." + run.getMetadata().getNamespace() + ".svc";
        }
        host = host.replaceFirst("[.]svc[.]cluster[.]local$", ".svc");
        int port = Objects.requireNonNullElse(external.getPort(), 5432);
        String database = Objects.requireNonNullElse(external.getDatabase(), "stackbench");
        return Optional.of(DATABASE_PREFIX + host + ":" + port + "/" + database);
    }

    private static Optional<String> shared(Collection<String> pools, Collection<String> others) {
        return others.stream().filter(pools::contains).findFirst();
    }

    private static boolean isOther(BenchmarkRun run, BenchmarkRun other) {
        return !(Objects.equals(
                        run.getMetadata().getNamespace(), other.getMetadata().getNamespace())
                && Objects.equals(
                        run.getMetadata().getName(), other.getMetadata().getName()));
    }

    private static Phase phase(BenchmarkRun run) {
        return run.getStatus() == null ? null : run.getStatus().getPhase();
    }

    private static String queuedAt(BenchmarkRun run) {
        return run.getStatus() == null ? null : run.getStatus().getQueuedAt();
    }

    private static boolean hasEnded(BenchmarkRun run) {
        return phase(run) != null && phase(run).isTerminal();
    }

    /**
     * Holds its pools: provisioning or later and not ended, or ended with pools still recorded (its pods not yet
     * gone). An ended run that never recorded any (it failed before it started) holds nothing.
     */
    static boolean holds(BenchmarkRun run) {
        Phase phase = phase(run);
        if (phase == null || phase.ordinal() < Phase.Provisioning.ordinal()) {
            return false;
        }
        if (!phase.isTerminal()) {
            return true;
        }
        List<String> recorded = run.getStatus().getPools();
        return recorded != null && !recorded.isEmpty();
    }
}
