package dev.stackbench.api.comparison;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** One metric over one variant's valid runs. */
@JsonInclude(JsonInclude.Include.NON_NULL)
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

    public String getMetric() {
        return metric;
    }

    public void setMetric(String metric) {
        this.metric = metric;
    }

    public Integer getN() {
        return n;
    }

    public void setN(Integer n) {
        this.n = n;
    }

    public Double getMedian() {
        return median;
    }

    public void setMedian(Double median) {
        this.median = median;
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

    public Double getAchievedConfidence() {
        return achievedConfidence;
    }

    public void setAchievedConfidence(Double achievedConfidence) {
        this.achievedConfidence = achievedConfidence;
    }

    public Double getCv() {
        return cv;
    }

    public void setCv(Double cv) {
        this.cv = cv;
    }
}
