package dev.stackbench.api.run;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Arrays;
import java.util.List;

/** What to delete when a run ends: everything, everything unless it failed, or nothing. */
public enum CleanupPolicy {
    @JsonProperty("Always")
    ALWAYS("Always"),

    @JsonProperty("OnSuccess")
    ON_SUCCESS("OnSuccess"),

    @JsonProperty("Never")
    NEVER("Never");

    private final String value;

    CleanupPolicy(String value) {
        this.value = value;
    }

    /** The name used in YAML and in the CRD. */
    public String value() {
        return value;
    }

    /** All names accepted in YAML, for error messages. */
    public static List<String> names() {
        return Arrays.stream(values()).map(CleanupPolicy::value).toList();
    }

    /** Looks a value up by its YAML name; throws with the accepted names when it is unknown. */
    public static CleanupPolicy fromValue(String value) {
        return Arrays.stream(values())
                .filter(candidate -> candidate.value.equals(value))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        "unknown CleanupPolicy '" + value + "': use one of " + String.join(", ", names())));
    }

    @Override
    public String toString() {
        return value;
    }
}
