package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Request duration statistics in milliseconds.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class LatencySummary {

    private Double min;

    private Double mean;

    private Double p50;

    private Double p90;

    private Double p95;

    private Double p99;

    private Double max;

    public Double getMin() {
        return min;
    }

    public void setMin(Double min) {
        this.min = min;
    }

    public LatencySummary withMin(Double min) {
        this.min = min;
        return this;
    }

    public Double getMean() {
        return mean;
    }

    public void setMean(Double mean) {
        this.mean = mean;
    }

    public LatencySummary withMean(Double mean) {
        this.mean = mean;
        return this;
    }

    public Double getP50() {
        return p50;
    }

    public void setP50(Double p50) {
        this.p50 = p50;
    }

    public LatencySummary withP50(Double p50) {
        this.p50 = p50;
        return this;
    }

    public Double getP90() {
        return p90;
    }

    public void setP90(Double p90) {
        this.p90 = p90;
    }

    public LatencySummary withP90(Double p90) {
        this.p90 = p90;
        return this;
    }

    public Double getP95() {
        return p95;
    }

    public void setP95(Double p95) {
        this.p95 = p95;
    }

    public LatencySummary withP95(Double p95) {
        this.p95 = p95;
        return this;
    }

    public Double getP99() {
        return p99;
    }

    public void setP99(Double p99) {
        this.p99 = p99;
    }

    public LatencySummary withP99(Double p99) {
        this.p99 = p99;
        return this;
    }

    public Double getMax() {
        return max;
    }

    public void setMax(Double max) {
        this.max = max;
    }

    public LatencySummary withMax(Double max) {
        this.max = max;
        return this;
    }
}
