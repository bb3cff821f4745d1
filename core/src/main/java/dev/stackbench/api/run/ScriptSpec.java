package dev.stackbench.api.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.stackbench.api.SpecRules;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.Getter;
import lombok.Setter;

/**
 * A k6 module of your own whose default export is one iteration; stackbench still adds warmup, measurement and the
 * summary around it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = SpecRules.SCRIPT_SOURCE_REQUIRED, message = SpecRules.SCRIPT_SOURCE_REQUIRED_MESSAGE)
@Getter
@Setter
public class ScriptSpec {

    @JsonPropertyDescription("ConfigMap key holding the module (cluster mode).")
    private ConfigMapKeyRef configMapRef;

    @Size(max = 4096)
    @JsonPropertyDescription("Path of the module, relative to the spec file (local mode).")
    private String file;

    public ScriptSpec withConfigMapRef(ConfigMapKeyRef configMapRef) {
        this.configMapRef = configMapRef;
        return this;
    }

    public ScriptSpec withFile(String file) {
        this.file = file;
        return this;
    }
}
