package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** One probe of a capacity search, in the order it was made. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CapacityProbe {

    @JsonPropertyDescription("The arrival rate probed, in iterations per second.")
    private Integer rate;

    @JsonPropertyDescription("Passed, Failed or GeneratorLimited.")
    private StepOutcome outcome;

    @JsonPropertyDescription("Requests per second the target answered.")
    private Double rps;

    @JsonPropertyDescription("95th percentile latency in ms.")
    private Double p95Ms;

    @JsonPropertyDescription("Share of failed requests (0..1).")
    private Double errorRate;

    public Integer getRate() {
        return rate;
    }

    public void setRate(Integer rate) {
        this.rate = rate;
    }

    public CapacityProbe withRate(Integer rate) {
        this.rate = rate;
        return this;
    }

    public StepOutcome getOutcome() {
        return outcome;
    }

    public void setOutcome(StepOutcome outcome) {
        this.outcome = outcome;
    }

    public CapacityProbe withOutcome(StepOutcome outcome) {
        this.outcome = outcome;
        return this;
    }

    public Double getRps() {
        return rps;
    }

    public void setRps(Double rps) {
        this.rps = rps;
    }

    public CapacityProbe withRps(Double rps) {
        this.rps = rps;
        return this;
    }

    public Double getP95Ms() {
        return p95Ms;
    }

    public void setP95Ms(Double p95Ms) {
        this.p95Ms = p95Ms;
    }

    public CapacityProbe withP95Ms(Double p95Ms) {
        this.p95Ms = p95Ms;
        return this;
    }

    public Double getErrorRate() {
        return errorRate;
    }

    public void setErrorRate(Double errorRate) {
        this.errorRate = errorRate;
    }

    public CapacityProbe withErrorRate(Double errorRate) {
        this.errorRate = errorRate;
        return this;
    }
}
