package dev.stackbench.api.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/**
 * A key of a ConfigMap in the run's namespace.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ConfigMapKeyRef {

    @Required
    @Size(min = 1, max = 253)
    @JsonPropertyDescription("ConfigMap name.")
    private String name;

    @Required
    @Size(min = 1, max = 253)
    @JsonPropertyDescription("Key holding the script.")
    private String key;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public ConfigMapKeyRef withName(String name) {
        this.name = name;
        return this;
    }

    public String getKey() {
        return key;
    }

    public void setKey(String key) {
        this.key = key;
    }

    public ConfigMapKeyRef withKey(String key) {
        this.key = key;
        return this;
    }
}
