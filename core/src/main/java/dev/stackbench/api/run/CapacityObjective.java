package dev.stackbench.api.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.stackbench.api.SpecRules;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.Getter;
import lombok.Setter;

/** What a rate must meet to count as within capacity: a latency percentile, an error rate, or both. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = SpecRules.OBJECTIVE_NOT_EMPTY, message = SpecRules.OBJECTIVE_NOT_EMPTY_MESSAGE)
@Getter
@Setter
public class CapacityObjective {

    @Size(max = SpecRules.DURATION_MAX_LENGTH)
    @ValidationRule(value = SpecRules.DURATION_FORMAT, message = SpecRules.OBJECTIVE_P95_FORMAT_MESSAGE)
    @JsonPropertyDescription("The highest 95th percentile latency a passing probe may have, e.g. 450ms.")
    private String p95;

    @Min(0)
    @Max(1)
    @JsonPropertyDescription("The highest share of failed requests a passing probe may have, e.g. 0.01.")
    private Double errorRate;

    public CapacityObjective withP95(String p95) {
        this.p95 = p95;
        return this;
    }

    public CapacityObjective withErrorRate(Double errorRate) {
        this.errorRate = errorRate;
        return this;
    }
}
