package dev.stackbench.api.comparison;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.Getter;
import lombok.Setter;

/** One metric of a contender against the baseline. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class MetricShift {

    private String metric;

    @JsonPropertyDescription("(median of the contender - median of the baseline) / median of the baseline.")
    private Double relativeDifference;

    @JsonPropertyDescription("Hodges-Lehmann estimate of contender minus baseline, in the metric's unit.")
    private Double shift;

    @JsonPropertyDescription(
            "Lower end of the shift's confidence interval; absent when the runs are too few to give" + " one.")
    private Double lower;

    @JsonPropertyDescription("Upper end of the shift's confidence interval.")
    private Double upper;

    @JsonPropertyDescription("Two-sided Mann-Whitney U test.")
    @com.fasterxml.jackson.annotation.JsonProperty("pValue")
    private Double pValue;

    @JsonPropertyDescription("True when tied values made the p-value the normal approximation's.")
    private Boolean ties;

    @JsonPropertyDescription(
            "better, worse or no significant difference (lower latency and errors, higher rps are" + " better).")
    private String verdict;
}
