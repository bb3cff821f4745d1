package dev.stackbench.operator;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.run.PoolPlacement;
import dev.stackbench.api.status.Phase;
import java.util.Collection;
import java.util.Comparator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Keeps dedicated node pools dedicated: two runs that place any role on the same pool (equal, non-empty node
 * selector) never overlap. A run may start when no run sharing a pool has started and none sharing a pool was
 * created before it (creation time, then namespace/name). The decision needs only the runs' specs, phases and
 * creation times, so two runs deciding at the same moment agree on which goes first.
 */
public final class PoolQueue {

    /** The run to wait for and the pool they share. */
    public record Wait(BenchmarkRun blocker, String pool) {
        public String message() {
            return "waits for BenchmarkRun " + blocker.getMetadata().getNamespace() + "/"
                    + blocker.getMetadata().getName() + ", which uses the same nodes (" + pool
                    + "); it starts when that run has finished";
        }
    }

    /** Orders runs by creation time, then namespace and name. */
    public static final Comparator<BenchmarkRun> ARRIVAL = Comparator.comparing((BenchmarkRun run) ->
                    Objects.requireNonNullElse(run.getMetadata().getCreationTimestamp(), ""))
            .thenComparing(run -> Objects.requireNonNullElse(run.getMetadata().getNamespace(), ""))
            .thenComparing(run -> run.getMetadata().getName());

    private PoolQueue() {}

    /** The run this one has to wait for, if any; a run that already started holds its pools and never waits. */
    public static Optional<Wait> waitFor(BenchmarkRun run, Collection<BenchmarkRun> allRuns) {
        Set<String> pools = pools(run.getSpec());
        if (pools.isEmpty() || hasStarted(run)) {
            return Optional.empty();
        }
        Optional<Wait> started = allRuns.stream()
                .filter(other -> isOther(run, other) && hasStarted(other))
                .sorted(ARRIVAL)
                .flatMap(other -> shared(pools, other).map(pool -> new Wait(other, pool)).stream())
                .findFirst();
        if (started.isPresent()) {
            return started;
        }
        return allRuns.stream()
                .filter(other -> isOther(run, other) && !isFinished(other) && ARRIVAL.compare(other, run) < 0)
                .sorted(ARRIVAL)
                .flatMap(other -> shared(pools, other).map(pool -> new Wait(other, pool)).stream())
                .findFirst();
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

    private static Optional<String> shared(Set<String> pools, BenchmarkRun other) {
        return pools(other.getSpec()).stream().filter(pools::contains).findFirst();
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

    private static boolean isFinished(BenchmarkRun run) {
        return phase(run) != null && phase(run).isTerminal();
    }

    /** Holds its pools: provisioning or later, and not finished. */
    static boolean hasStarted(BenchmarkRun run) {
        Phase phase = phase(run);
        return phase != null && !phase.isTerminal() && phase.ordinal() >= Phase.Provisioning.ordinal();
    }
}
