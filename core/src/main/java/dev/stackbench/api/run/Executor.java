package dev.stackbench.api.run;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Arrays;
import java.util.List;

/** The k6 executor driving the load. */
public enum Executor {
    @JsonProperty("constant-arrival-rate")
    CONSTANT_ARRIVAL_RATE("constant-arrival-rate"),

    @JsonProperty("ramping-arrival-rate")
    RAMPING_ARRIVAL_RATE("ramping-arrival-rate"),

    @JsonProperty("constant-vus")
    CONSTANT_VUS("constant-vus"),

    @JsonProperty("ramping-vus")
    RAMPING_VUS("ramping-vus"),

    @JsonProperty("per-vu-iterations")
    PER_VU_ITERATIONS("per-vu-iterations"),

    @JsonProperty("shared-iterations")
    SHARED_ITERATIONS("shared-iterations");

    private final String value;

    Executor(String value) {
        this.value = value;
    }

    /** The name used in YAML and in the CRD. */
    public String value() {
        return value;
    }

    /** All names accepted in YAML, for error messages. */
    public static List<String> names() {
        return Arrays.stream(values()).map(Executor::value).toList();
    }

    /** Looks a value up by its YAML name; throws with the accepted names when it is unknown. */
    public static Executor fromValue(String value) {
        return Arrays.stream(values())
                .filter(candidate -> candidate.value.equals(value))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        "unknown Executor '" + value + "': use one of " + String.join(", ", names())));
    }

    @Override
    public String toString() {
        return value;
    }

    /** Arrival-rate executors start iterations at a rate (open model); the others loop with a fixed VU count. */
    public boolean isArrivalRate() {
        return this == CONSTANT_ARRIVAL_RATE || this == RAMPING_ARRIVAL_RATE;
    }

    /**
     * Iteration executors send a fixed number of iterations as fast as their VUs can (a burst: N users sending at the
     * same moment) instead of loading the target for a duration.
     */
    public boolean isBurst() {
        return this == PER_VU_ITERATIONS || this == SHARED_ITERATIONS;
    }

    public boolean isRamping() {
        return this == RAMPING_ARRIVAL_RATE || this == RAMPING_VUS;
    }
}
