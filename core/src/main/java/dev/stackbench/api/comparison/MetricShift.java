package dev.stackbench.api.comparison;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** One metric of a contender against the baseline. */
@JsonInclude(JsonInclude.Include.NON_NULL)
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

    public String getMetric() {
        return metric;
    }

    public void setMetric(String metric) {
        this.metric = metric;
    }

    public Double getRelativeDifference() {
        return relativeDifference;
    }

    public void setRelativeDifference(Double relativeDifference) {
        this.relativeDifference = relativeDifference;
    }

    public Double getShift() {
        return shift;
    }

    public void setShift(Double shift) {
        this.shift = shift;
    }

    public Double getLower() {
        return lower;
    }

    public void setLower(Double lower) {
        this.lower = lower;
    }

    public Double getUpper() {
        return upper;
    }

    public void setUpper(Double upper) {
        this.upper = upper;
    }

    public Double getPValue() {
        return pValue;
    }

    public void setPValue(Double pValue) {
        this.pValue = pValue;
    }

    public Boolean getTies() {
        return ties;
    }

    public void setTies(Boolean ties) {
        this.ties = ties;
    }

    public String getVerdict() {
        return verdict;
    }

    public void setVerdict(String verdict) {
        this.verdict = verdict;
    }
}
