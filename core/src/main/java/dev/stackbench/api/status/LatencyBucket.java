package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.Getter;
import lombok.Setter;

/** One latency bucket of the target's own request timer, (lower, upper] in milliseconds. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class LatencyBucket {

    @JsonPropertyDescription("Exclusive lower bound in milliseconds (0 for the first bucket).")
    private Double lower;

    @JsonPropertyDescription("Inclusive upper bound in milliseconds; absent for the last bucket, which has none.")
    private Double upper;

    public LatencyBucket withLower(Double lower) {
        this.lower = lower;
        return this;
    }

    public LatencyBucket withUpper(Double upper) {
        this.upper = upper;
        return this;
    }

    /** "(300, 400]" or "(10000, inf)". */
    @Override
    public String toString() {
        return "(" + format(lower) + ", " + (upper == null ? "inf)" : format(upper) + "]");
    }

    private static String format(Double value) {
        if (value == null) {
            return "?";
        }
        return value == Math.rint(value) ? String.valueOf(value.longValue()) : String.valueOf(value);
    }
}
