package dev.stackbench.api.comparison;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** One variant's repetitions: how many ran, how many count, and each metric's spread. */
@JsonInclude(JsonInclude.Include.NON_NULL)
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

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getVariant() {
        return variant;
    }

    public void setVariant(String variant) {
        this.variant = variant;
    }

    public Integer getRuns() {
        return runs;
    }

    public void setRuns(Integer runs) {
        this.runs = runs;
    }

    public Integer getValidRuns() {
        return validRuns;
    }

    public void setValidRuns(Integer validRuns) {
        this.validRuns = validRuns;
    }

    public java.util.List<MetricSpread> getMetrics() {
        return metrics;
    }

    public void setMetrics(java.util.List<MetricSpread> metrics) {
        this.metrics = metrics;
    }
}
