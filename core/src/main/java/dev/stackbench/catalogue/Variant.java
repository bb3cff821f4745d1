package dev.stackbench.catalogue;

import dev.stackbench.api.Scenario;
import java.util.List;

/**
 * One stack under test.
 *
 * @param name the name used in {@code spec.target.variant}
 * @param app the catalogue app implementing it
 * @param profile the Spring profile selecting it
 * @param blocksPoolOn scenarios (contract operations) that hold a pool thread for their whole duration
 */
public record Variant(
        String name, String app, String profile, String description, ThreadPool threadPool, List<String> blocksPoolOn) {

    public Variant {
        blocksPoolOn = blocksPoolOn == null ? List.of() : List.copyOf(blocksPoolOn);
    }

    /** Whether a request of this scenario holds one of the pool's threads while it waits (Little's law applies). */
    public boolean isThreadBound(Scenario scenario) {
        return scenario != null && blocksPoolOn.contains(scenario.value());
    }
}
