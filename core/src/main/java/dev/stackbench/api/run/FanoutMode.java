package dev.stackbench.api.run;

import com.fasterxml.jackson.annotation.JsonProperty;

/** How a fan-out request makes its upstream calls: all at once, or each after the previous one answered. */
public enum FanoutMode {
    @JsonProperty("parallel")
    PARALLEL("parallel"),

    @JsonProperty("sequential")
    SEQUENTIAL("sequential");

    private final String value;

    FanoutMode(String value) {
        this.value = value;
    }

    /** The name used in YAML, in the CRD and in the target's {@code mode} parameter. */
    public String value() {
        return value;
    }

    @Override
    public String toString() {
        return value;
    }
}
