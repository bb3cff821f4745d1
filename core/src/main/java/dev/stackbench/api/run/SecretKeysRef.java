package dev.stackbench.api.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import lombok.Getter;
import lombok.Setter;

/**
 * A Secret in the run's namespace and the keys holding the database credentials.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class SecretKeysRef {

    @Required
    @Size(min = 1, max = 253)
    @JsonPropertyDescription("Secret name.")
    private String name;

    @Default(BenchmarkRunDefaults.SECRET_USER_KEY)
    @JsonPropertyDescription("Key of the user name.")
    private String userKey;

    @Default(BenchmarkRunDefaults.SECRET_PASSWORD_KEY)
    @JsonPropertyDescription("Key of the password.")
    private String passwordKey;

    public SecretKeysRef withName(String name) {
        this.name = name;
        return this;
    }

    public SecretKeysRef withUserKey(String userKey) {
        this.userKey = userKey;
        return this;
    }

    public SecretKeysRef withPasswordKey(String passwordKey) {
        this.passwordKey = passwordKey;
        return this;
    }
}
