package dev.stackbench.api.comparison;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.Getter;
import lombok.Setter;

/** One variant's repetitions: how many ran, how many count, and each metric's spread. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class VariantStatistics {

    @JsonPropertyDescription("The comparison's name of the variant.")
    private String name;

    @JsonPropertyDescription("The catalogue variant.")
    private String variant;

    @JsonPropertyDescription("Repetitions that ended.")
    private Integer runs;

    @JsonPropertyDescription("Repetitions counted: succeeded and, unless includeFlaggedRuns, not flagged.")
    private Integer validRuns;

    private java.util.List<MetricSpread> metrics;
}
