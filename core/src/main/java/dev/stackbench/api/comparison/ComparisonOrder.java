package dev.stackbench.api.comparison;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The order of a comparison's repetitions: interleaved rounds (one run of every variant per round, shuffled with the
 * seed) or every repetition of one variant after the other.
 */
public enum ComparisonOrder {
    @JsonProperty("interleaved")
    INTERLEAVED,

    @JsonProperty("sequential")
    SEQUENTIAL;

    @Override
    public String toString() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
