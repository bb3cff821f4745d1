package dev.stackbench.api.run;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Arrays;
import java.util.List;

/** The request mix of a run (see the target HTTP contract); custom runs your own k6 iteration. */
public enum Scenario {
    @JsonProperty("upstream")
    UPSTREAM("upstream"),

    @JsonProperty("db")
    DB("db"),

    @JsonProperty("mixed")
    MIXED("mixed"),

    @JsonProperty("rows")
    ROWS("rows"),

    @JsonProperty("orders")
    ORDERS("orders"),

    @JsonProperty("sleep")
    SLEEP("sleep"),

    @JsonProperty("fanout")
    FANOUT("fanout"),

    @JsonProperty("lock")
    LOCK("lock"),

    @JsonProperty("custom")
    CUSTOM("custom");

    private final String value;

    Scenario(String value) {
        this.value = value;
    }

    /** The name used in YAML and in the CRD. */
    public String value() {
        return value;
    }

    /** All names accepted in YAML, for error messages. */
    public static List<String> names() {
        return Arrays.stream(values()).map(Scenario::value).toList();
    }

    /** Looks a value up by its YAML name; throws with the accepted names when it is unknown. */
    public static Scenario fromValue(String value) {
        return Arrays.stream(values())
                .filter(candidate -> candidate.value.equals(value))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        "unknown Scenario '" + value + "': use one of " + String.join(", ", names())));
    }

    @Override
    public String toString() {
        return value;
    }

    /** Whether the scenario calls the delay service, so it needs an upstream delay. */
    public boolean callsUpstream() {
        return this == UPSTREAM || this == MIXED || this == FANOUT;
    }

    /** Whether each request makes several upstream calls (spec.workload.calls), in parallel or one after another. */
    public boolean fansOut() {
        return this == FANOUT;
    }

    /** Whether an iteration sends a group of concurrent changes of one order row (spec.workload.lockGroup). */
    public boolean contendsForLock() {
        return this == LOCK;
    }

    /** Whether the request waits inside the target's process (no database, no upstream), so it needs a sleep. */
    public boolean sleepsInProcess() {
        return this == SLEEP;
    }

    /** Whether the scenario runs pg_sleep, so it needs a database sleep. */
    public boolean sleepsInDatabase() {
        return this == DB || this == MIXED;
    }
}
