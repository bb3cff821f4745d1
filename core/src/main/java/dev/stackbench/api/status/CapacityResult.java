package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;
import lombok.Getter;
import lombok.Setter;

/**
 * What a capacity search found: the highest arrival rate that met the objective, how precisely, and what stopped
 * the search.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class CapacityResult {

    @JsonPropertyDescription(
            "The highest probed arrival rate that met the objective (iterations per second); absent when no probe met it.")
    private Integer rate;

    @JsonPropertyDescription("The last passing probe's rate: the capacity is at least this.")
    private Integer lowerBound;

    @JsonPropertyDescription(
            "The first failing probe's rate above lowerBound: the capacity is below this; absent when no probe failed.")
    private Integer upperBound;

    @JsonPropertyDescription(
            "Target (the objective broke between lowerBound and upperBound), Generator (k6 could not deliver a probe's rate: the capacity is at least lowerBound), Range (the objective held at spec capacity.to) or Floor (it broke already at capacity.from).")
    private CapacityLimit limitedBy;

    @JsonPropertyDescription("The finding in one sentence, with the figures.")
    private String message;

    @JsonPropertyDescription("Every probe made, in order.")
    private List<CapacityProbe> probes;

    public CapacityResult withRate(Integer rate) {
        this.rate = rate;
        return this;
    }

    public CapacityResult withLowerBound(Integer lowerBound) {
        this.lowerBound = lowerBound;
        return this;
    }

    public CapacityResult withUpperBound(Integer upperBound) {
        this.upperBound = upperBound;
        return this;
    }

    public CapacityResult withLimitedBy(CapacityLimit limitedBy) {
        this.limitedBy = limitedBy;
        return this;
    }

    public CapacityResult withMessage(String message) {
        this.message = message;
        return this;
    }

    public CapacityResult withProbes(List<CapacityProbe> probes) {
        this.probes = probes;
        return this;
    }
}
