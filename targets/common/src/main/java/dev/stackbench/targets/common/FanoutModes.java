package dev.stackbench.targets.common;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The fan-out modes one variant runs, its default first, and why it cannot run the others. Each app declares them
 * per variant; targets/variants.yaml lists the same ({@code fanoutModes}) for the scenarios, and the contract tests
 * check that the two agree.
 *
 * @param limitation what stops the variant from running the other modes, completing "variant X ... and cannot run
 *     them in parallel"; null when it runs every mode
 */
public record FanoutModes(String variant, List<FanoutMode> modes, String limitation) {

    public FanoutModes {
        modes = List.copyOf(modes);
        if (modes.isEmpty()) {
            throw new IllegalArgumentException("variant " + variant + " needs at least one fan-out mode");
        }
    }

    /** A variant that runs every mode, {@code defaultMode} when the request names none. */
    public static FanoutModes all(String variant, FanoutMode defaultMode) {
        List<FanoutMode> modes = new ArrayList<>(List.of(defaultMode));
        for (FanoutMode mode : FanoutMode.values()) {
            if (mode != defaultMode) {
                modes.add(mode);
            }
        }
        return new FanoutModes(variant, modes, null);
    }

    /** A variant that runs only {@code mode}; {@code limitation} says why, for the 400 of the other modes. */
    public static FanoutModes only(String variant, FanoutMode mode, String limitation) {
        return new FanoutModes(variant, List.of(mode), limitation);
    }

    public FanoutMode defaultMode() {
        return modes.getFirst();
    }

    /**
     * The mode to run for the request's {@code mode} parameter: the default when it is left out, else the named mode
     * if this variant runs it; a 400 that says what to send otherwise.
     */
    public FanoutMode choose(String requested) {
        if (requested == null) {
            return defaultMode();
        }
        FanoutMode mode = FanoutMode.find(requested);
        if (mode == null) {
            throw ApiException.badRequest(
                    "mode must be " + FanoutMode.names() + ", got '" + requested + "': " + whatItRuns());
        }
        if (!modes.contains(mode)) {
            throw ApiException.badRequest("variant " + variant + " " + limitation + " and cannot run them "
                    + mode.description() + ": use "
                    + modes.stream().map(m -> "mode=" + m.value()).collect(Collectors.joining(" or "))
                    + " or leave mode out");
        }
        return mode;
    }

    private String whatItRuns() {
        String others = modes.stream().skip(1).map(m -> " or " + m.value()).collect(Collectors.joining());
        return "variant " + variant + " runs " + defaultMode().value() + " (its default, used when mode is left out)"
                + others;
    }
}
