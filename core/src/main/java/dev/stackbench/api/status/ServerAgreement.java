package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonProperty;

/** How a client-side figure (k6) compares with what the target itself measured. */
public enum ServerAgreement {
    /** Within the tolerance: throughput within 5 % (or 1 request/s), a percentile inside the server's bucket. */
    @JsonProperty("Agrees")
    AGREES("Agrees"),

    /**
     * The client saw more: for latency, time spent before the server's timer started (queued in front of the
     * server, or on the network).
     */
    @JsonProperty("ClientHigher")
    CLIENT_HIGHER("ClientHigher"),

    /** The client saw less than the server did: the two measured different requests. */
    @JsonProperty("ClientLower")
    CLIENT_LOWER("ClientLower");

    private final String value;

    ServerAgreement(String value) {
        this.value = value;
    }

    /** The name used in the status. */
    public String value() {
        return value;
    }

    @Override
    public String toString() {
        return value;
    }
}
