package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.Getter;
import lombok.Setter;

/** One probe of a capacity search, in the order it was made. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
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

    public CapacityProbe withRate(Integer rate) {
        this.rate = rate;
        return this;
    }

    public CapacityProbe withOutcome(StepOutcome outcome) {
        this.outcome = outcome;
        return this;
    }

    public CapacityProbe withRps(Double rps) {
        this.rps = rps;
        return this;
    }

    public CapacityProbe withP95Ms(Double p95Ms) {
        this.p95Ms = p95Ms;
        return this;
    }

    public CapacityProbe withErrorRate(Double errorRate) {
        this.errorRate = errorRate;
        return this;
    }
}
