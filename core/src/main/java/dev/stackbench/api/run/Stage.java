package dev.stackbench.api.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.stackbench.api.SpecRules;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.Getter;
import lombok.Setter;

/**
 * One ramp step: reach target (iterations per second or VUs) linearly over duration.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class Stage {

    @Required
    @ValidationRule(value = SpecRules.DURATION_FORMAT, message = SpecRules.STAGE_DURATION_FORMAT_MESSAGE)
    @Size(max = SpecRules.DURATION_MAX_LENGTH)
    @JsonPropertyDescription("How long the ramp takes, e.g. 30s.")
    private String duration;

    @Required
    @Min(0)
    @Max(SpecRules.MAX_RATE)
    @JsonPropertyDescription(
            "Iterations per second (ramping-arrival-rate) or VUs (ramping-vus) at the end of the" + " stage.")
    private Integer target;

    public Stage withDuration(String duration) {
        this.duration = duration;
        return this;
    }

    public Stage withTarget(Integer target) {
        this.target = target;
        return this;
    }
}
