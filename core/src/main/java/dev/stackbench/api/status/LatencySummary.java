package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import lombok.Getter;
import lombok.Setter;

/**
 * Request duration statistics in milliseconds.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class LatencySummary {

    private Double min;

    private Double mean;

    private Double p50;

    private Double p90;

    private Double p95;

    private Double p99;

    private Double max;

    public LatencySummary withMin(Double min) {
        this.min = min;
        return this;
    }

    public LatencySummary withMean(Double mean) {
        this.mean = mean;
        return this;
    }

    public LatencySummary withP50(Double p50) {
        this.p50 = p50;
        return this;
    }

    public LatencySummary withP90(Double p90) {
        this.p90 = p90;
        return this;
    }

    public LatencySummary withP95(Double p95) {
        this.p95 = p95;
        return this;
    }

    public LatencySummary withP99(Double p99) {
        this.p99 = p99;
        return this;
    }

    public LatencySummary withMax(Double max) {
        this.max = max;
        return this;
    }
}
