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

/**
 * The variant under test, how many replicas and the fixed resources each one gets.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
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

    public String getVariant() {
        return variant;
    }

    public void setVariant(String variant) {
        this.variant = variant;
    }

    public TargetSpec withVariant(String variant) {
        this.variant = variant;
        return this;
    }

    public String getImage() {
        return image;
    }

    public void setImage(String image) {
        this.image = image;
    }

    public TargetSpec withImage(String image) {
        this.image = image;
        return this;
    }

    public Integer getReplicas() {
        return replicas;
    }

    public void setReplicas(Integer replicas) {
        this.replicas = replicas;
    }

    public TargetSpec withReplicas(Integer replicas) {
        this.replicas = replicas;
        return this;
    }

    public ResourcesSpec getResources() {
        return resources;
    }

    public void setResources(ResourcesSpec resources) {
        this.resources = resources;
    }

    public TargetSpec withResources(ResourcesSpec resources) {
        this.resources = resources;
        return this;
    }

    public String getJvmOptions() {
        return jvmOptions;
    }

    public void setJvmOptions(String jvmOptions) {
        this.jvmOptions = jvmOptions;
    }

    public TargetSpec withJvmOptions(String jvmOptions) {
        this.jvmOptions = jvmOptions;
        return this;
    }

    public Map<String, String> getEnv() {
        return env;
    }

    public void setEnv(Map<String, String> env) {
        this.env = env;
    }

    public TargetSpec withEnv(Map<String, String> env) {
        this.env = env;
        return this;
    }
}
