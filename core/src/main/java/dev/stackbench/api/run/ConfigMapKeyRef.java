package dev.stackbench.api.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import lombok.Getter;
import lombok.Setter;

/**
 * A key of a ConfigMap in the run's namespace.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class ConfigMapKeyRef {

    @Required
    @Size(min = 1, max = 253)
    @JsonPropertyDescription("ConfigMap name.")
    private String name;

    @Required
    @Size(min = 1, max = 253)
    @JsonPropertyDescription("Key holding the script.")
    private String key;

    public ConfigMapKeyRef withName(String name) {
        this.name = name;
        return this;
    }

    public ConfigMapKeyRef withKey(String key) {
        this.key = key;
        return this;
    }
}
