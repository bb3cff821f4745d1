package dev.stackbench.targets.common;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How the fan-out endpoint makes its upstream calls: all at once, or each after the previous one has answered. */
public enum FanoutMode {
    PARALLEL("in parallel"),
    SEQUENTIAL("one after another");

    private final String description;

    FanoutMode(String description) {
        this.description = description;
    }

    /** The spelling of the {@code mode} parameter, the answer's {@code mode} field and the catalogue's fanoutModes. */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** How the calls run in this mode, for messages: "in parallel", "one after another". */
    public String description() {
        return description;
    }

    /** Parses a requested mode, or returns null for a word that is not a mode, so the caller can say what it runs. */
    static FanoutMode find(String requested) {
        String normalized = requested.trim().toUpperCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(mode -> mode.name().equals(normalized))
                .findFirst()
                .orElse(null);
    }

    static String names() {
        return Arrays.stream(values()).map(FanoutMode::value).collect(Collectors.joining(" or "));
    }
}
