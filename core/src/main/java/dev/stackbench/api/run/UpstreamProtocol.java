package dev.stackbench.api.run;

import com.fasterxml.jackson.annotation.JsonProperty;

/** How the target calls the delay service: HTTP, or RSocket (request-stream over a multiplexed connection). */
public enum UpstreamProtocol {
    @JsonProperty("http")
    HTTP("http"),

    @JsonProperty("rsocket")
    RSOCKET("rsocket");

    private final String value;

    UpstreamProtocol(String value) {
        this.value = value;
    }

    /** The name used in YAML, in the CRD and in the target's {@code protocol} parameter. */
    public String value() {
        return value;
    }

    @Override
    public String toString() {
        return value;
    }
}
