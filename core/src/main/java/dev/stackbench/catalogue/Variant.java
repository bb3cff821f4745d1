package dev.stackbench.catalogue;

import dev.stackbench.api.run.FanoutMode;
import dev.stackbench.api.run.Scenario;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * One stack under test.
 *
 * @param name the name used in {@code spec.target.variant}
 * @param app the catalogue app implementing it
 * @param profile the Spring profile selecting it
 * @param blocksPoolOn scenarios (contract operations) that hold a pool thread for their whole duration
 * @param fanoutModes how the variant can make the upstream calls of a fan-out ({@code parallel}, {@code sequential}),
 *     its default first
 */
public record Variant(
        String name,
        String app,
        String profile,
        String description,
        ThreadPool threadPool,
        List<String> blocksPoolOn,
        List<String> fanoutModes) {

    public Variant {
        blocksPoolOn = blocksPoolOn == null ? List.of() : List.copyOf(blocksPoolOn);
        fanoutModes = fanoutModes == null ? List.of() : List.copyOf(fanoutModes);
    }

    /** Whether the variant can make a fan-out's calls this way. */
    public boolean supports(FanoutMode mode) {
        return fanoutModes.contains(mode.value());
    }

    /** The fan-out mode a request without {@code mode} gets; empty when the catalogue does not say. */
    public Optional<FanoutMode> defaultFanoutMode() {
        return fanoutModes.stream()
                .flatMap(name -> Arrays.stream(FanoutMode.values())
                        .filter(mode -> mode.value().equals(name)))
                .findFirst();
    }

    /** Whether a request of this scenario holds one of the pool's threads while it waits (Little's law applies). */
    public boolean isThreadBound(Scenario scenario) {
        return scenario != null && blocksPoolOn.contains(scenario.value());
    }
}
