package dev.stackbench.api.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.stackbench.api.SpecRules;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.Getter;
import lombok.Setter;

/**
 * A capacity search: the highest arrival rate that meets an objective, found by doubling the rate from {@code from}
 * until the objective breaks (or {@code to} is reached), then bisecting between the last passing and the first
 * failing rate until they are within {@code resolution} of each other. Each probe is one measured step.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = SpecRules.CAPACITY_FROM_BELOW_TO, message = SpecRules.CAPACITY_FROM_BELOW_TO_MESSAGE)
@Getter
@Setter
public class CapacitySpec {

    @Required
    @JsonPropertyDescription("What a probe must meet: p95 (a duration) and/or errorRate (0..1).")
    private CapacityObjective objective;

    @Required
    @Min(1)
    @Max(SpecRules.MAX_RATE)
    @JsonPropertyDescription("The first rate probed, in iterations per second.")
    private Integer from;

    @Required
    @Min(1)
    @Max(SpecRules.MAX_RATE)
    @JsonPropertyDescription("The highest rate the search may probe, in iterations per second.")
    private Integer to;

    @Default(BenchmarkRunDefaults.CAPACITY_RESOLUTION)
    @Size(max = 8)
    @ValidationRule(value = SpecRules.RESOLUTION_FORMAT, message = SpecRules.RESOLUTION_FORMAT_MESSAGE)
    @JsonPropertyDescription("How close the last passing and the first failing rate must be, relative to the passing"
            + " one, before the search stops, e.g. 5% (0.1% to 100%).")
    private String resolution;

    public CapacitySpec withObjective(CapacityObjective objective) {
        this.objective = objective;
        return this;
    }

    public CapacitySpec withFrom(Integer from) {
        this.from = from;
        return this;
    }

    public CapacitySpec withTo(Integer to) {
        this.to = to;
        return this;
    }

    public CapacitySpec withResolution(String resolution) {
        this.resolution = resolution;
        return this;
    }

    /** The resolution as a fraction: 5% is 0.05. */
    public static double resolutionFraction(String resolution) {
        String text = resolution == null ? BenchmarkRunDefaults.CAPACITY_RESOLUTION : resolution.strip();
        return Double.parseDouble(text.substring(0, text.length() - 1)) / 100.0;
    }
}
