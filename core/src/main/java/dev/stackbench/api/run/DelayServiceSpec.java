package dev.stackbench.api.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.stackbench.api.SpecRules;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import lombok.Getter;
import lombok.Setter;

/**
 * The non-blocking delay service; sized so it is never the bottleneck.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class DelayServiceSpec {

    @Default(BenchmarkRunDefaults.REPLICAS_TEXT)
    @Min(1)
    @Max(SpecRules.MAX_REPLICAS)
    @JsonPropertyDescription("Number of delay service pods.")
    private Integer replicas;

    @JsonPropertyDescription("CPU and memory of each delay service pod.")
    private ResourcesSpec resources;

    public DelayServiceSpec withReplicas(Integer replicas) {
        this.replicas = replicas;
        return this;
    }

    public DelayServiceSpec withResources(ResourcesSpec resources) {
        this.resources = resources;
        return this;
    }
}
