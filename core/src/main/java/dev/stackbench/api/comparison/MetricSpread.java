package dev.stackbench.api.comparison;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.Getter;
import lombok.Setter;

/** One metric over one variant's valid runs. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class MetricSpread {

    private String metric;

    @JsonPropertyDescription("Values the figures rest on.")
    private Integer n;

    private Double median;

    @JsonPropertyDescription("Lower end of the median's confidence interval (order statistics); absent when there are"
            + " too few runs for one.")
    private Double lower;

    @JsonPropertyDescription("Upper end of the median's confidence interval.")
    private Double upper;

    @JsonPropertyDescription("The interval's actual coverage, at least the confidence asked (order statistics give"
            + " discrete levels).")
    private Double achievedConfidence;

    @JsonPropertyDescription("Coefficient of variation: sample standard deviation / mean.")
    private Double cv;
}
