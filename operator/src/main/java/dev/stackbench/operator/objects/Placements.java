package dev.stackbench.operator.objects;

import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.run.PlacementSpec;
import dev.stackbench.api.run.PoolPlacement;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The placement of each role, empty (schedule anywhere) where the spec sets none. */
final class Placements {

    private Placements() {}

    static PoolPlacement target(BenchmarkRunSpec spec) {
        return of(spec, PlacementSpec::getTarget);
    }

    static PoolPlacement backend(BenchmarkRunSpec spec) {
        return of(spec, PlacementSpec::getBackend);
    }

    static PoolPlacement loadgen(BenchmarkRunSpec spec) {
        return of(spec, PlacementSpec::getLoadgen);
    }

    private static PoolPlacement of(BenchmarkRunSpec spec, Function<PlacementSpec, PoolPlacement> role) {
        PoolPlacement given = spec.getPlacement() == null ? null : role.apply(spec.getPlacement());
        PoolPlacement placement = new PoolPlacement();
        placement.setNodeSelector(
                given == null || given.getNodeSelector() == null ? Map.of() : given.getNodeSelector());
        placement.setTolerations(given == null || given.getTolerations() == null ? List.of() : given.getTolerations());
        return placement;
    }
}
