package dev.stackbench.api.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import lombok.Getter;
import lombok.Setter;

/**
 * An existing PostgreSQL shared between runs: its host, port, database and the Secret with the credentials.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class ExternalDatabaseSpec {

    @Required
    @Size(min = 1, max = 253)
    @JsonPropertyDescription("Host name of the PostgreSQL server.")
    private String host;

    @Default(BenchmarkRunDefaults.DATABASE_PORT_TEXT)
    @Min(1)
    @Max(65535)
    @JsonPropertyDescription("Port of the PostgreSQL server.")
    private Integer port;

    @Default(BenchmarkRunDefaults.DATABASE_NAME)
    @Size(min = 1, max = 63)
    @JsonPropertyDescription("Database name.")
    private String database;

    @JsonPropertyDescription("Secret holding the user name and password.")
    private SecretKeysRef secretRef;

    public ExternalDatabaseSpec withHost(String host) {
        this.host = host;
        return this;
    }

    public ExternalDatabaseSpec withPort(Integer port) {
        this.port = port;
        return this;
    }

    public ExternalDatabaseSpec withDatabase(String database) {
        this.database = database;
        return this;
    }

    public ExternalDatabaseSpec withSecretRef(SecretKeysRef secretRef) {
        this.secretRef = secretRef;
        return this;
    }
}
