package dev.stackbench.api.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.stackbench.api.SpecRules;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.Map;
import lombok.Getter;
import lombok.Setter;

/**
 * The variant under test, how many replicas and the fixed resources each one gets.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class TargetSpec {

    @Required
    @Size(min = 1, max = 63)
    @Pattern(SpecRules.NAME_PATTERN)
    @JsonPropertyDescription("A variant name from the catalogue, e.g. webflux-r2dbc.")
    private String variant;

    @Size(max = 512)
    @JsonPropertyDescription("Overrides the catalogue image of the variant's app.")
    private String image;

    @Default(BenchmarkRunDefaults.REPLICAS_TEXT)
    @Min(1)
    @Max(SpecRules.MAX_REPLICAS)
    @JsonPropertyDescription("Number of target pods (local mode runs one process per replica).")
    private Integer replicas;

    @JsonPropertyDescription("CPU and memory of each target; requests equal limits.")
    private ResourcesSpec resources;

    @Size(max = 4096)
    @JsonPropertyDescription("Extra JVM options for the target, e.g. -XX:MaxRAMPercentage=75.")
    private String jvmOptions;

    @JsonPropertyDescription("Extra environment variables for the target, e.g. SERVER_TOMCAT_THREADS_MAX.")
    private Map<String, String> env;

    public TargetSpec withVariant(String variant) {
        this.variant = variant;
        return this;
    }

    public TargetSpec withImage(String image) {
        this.image = image;
        return this;
    }

    public TargetSpec withReplicas(Integer replicas) {
        this.replicas = replicas;
        return this;
    }

    public TargetSpec withResources(ResourcesSpec resources) {
        this.resources = resources;
        return this;
    }

    public TargetSpec withJvmOptions(String jvmOptions) {
        this.jvmOptions = jvmOptions;
        return this;
    }

    public TargetSpec withEnv(Map<String, String> env) {
        this.env = env;
        return this;
    }
}
