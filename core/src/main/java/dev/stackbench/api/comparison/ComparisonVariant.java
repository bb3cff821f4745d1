package dev.stackbench.api.comparison;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.stackbench.api.SpecRules;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.Map;
import lombok.Getter;
import lombok.Setter;

/**
 * One side of a comparison: a catalogue variant and what it changes in the template's target. Two entries may name
 * the same variant with different settings (e.g. mvc-jdbc with 50 and with 200 Tomcat threads); their names tell
 * them apart.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class ComparisonVariant {

    @Required
    @Size(min = 1, max = 63)
    @Pattern(SpecRules.NAME_PATTERN)
    @JsonPropertyDescription("A variant name from the catalogue, e.g. webflux-r2dbc.")
    private String variant;

    @Size(min = 1, max = SpecRules.MAX_COMPARISON_LABEL)
    @Pattern(SpecRules.NAME_PATTERN)
    @JsonPropertyDescription("How tables, verdicts and run names call this side (default: the variant); must be"
            + " unique in the comparison, e.g. mvc-200-threads.")
    private String name;

    @Size(max = 512)
    @JsonPropertyDescription("Overrides the catalogue image of the variant's app.")
    private String image;

    @Size(max = 4096)
    @JsonPropertyDescription("JVM options added after the template's target.jvmOptions.")
    private String jvmOptions;

    @JsonPropertyDescription("Environment variables for the target; they win over the template's target.env.")
    private Map<String, String> env;

    public ComparisonVariant withVariant(String variant) {
        this.variant = variant;
        return this;
    }

    public ComparisonVariant withName(String name) {
        this.name = name;
        return this;
    }

    /** The name, or the variant when no name is given. */
    public String label() {
        return name != null ? name : variant;
    }

    public ComparisonVariant withJvmOptions(String jvmOptions) {
        this.jvmOptions = jvmOptions;
        return this;
    }

    public ComparisonVariant withEnv(Map<String, String> env) {
        this.env = env;
        return this;
    }
}
