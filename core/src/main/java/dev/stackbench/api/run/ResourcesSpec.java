package dev.stackbench.api.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.stackbench.api.SpecRules;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.Getter;
import lombok.Setter;

/**
 * CPU and memory given to one process; requests equal limits so the pod gets the Guaranteed QoS class.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = SpecRules.CPU_POSITIVE, message = SpecRules.CPU_POSITIVE_MESSAGE, fieldPath = ".cpu")
@Getter
@Setter
public class ResourcesSpec {

    @Default(BenchmarkRunDefaults.CPU)
    @Pattern(SpecRules.CPU_PATTERN)
    @Size(max = SpecRules.QUANTITY_MAX_LENGTH)
    @JsonPropertyDescription("CPU quantity, e.g. 2, 1.5 or 500m.")
    private String cpu;

    @Default(BenchmarkRunDefaults.MEMORY)
    @Pattern(SpecRules.MEMORY_PATTERN)
    @Size(max = SpecRules.QUANTITY_MAX_LENGTH)
    @JsonPropertyDescription("Memory quantity, e.g. 1Gi or 512Mi.")
    private String memory;

    public ResourcesSpec withCpu(String cpu) {
        this.cpu = cpu;
        return this;
    }

    public ResourcesSpec withMemory(String memory) {
        this.memory = memory;
        return this;
    }
}
