package dev.stackbench.api.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/**
 * An existing PostgreSQL shared between runs: its host, port, database and the Secret with the credentials.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
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

    public String getHost() {
        return host;
    }

    public void setHost(String host) {
        this.host = host;
    }

    public ExternalDatabaseSpec withHost(String host) {
        this.host = host;
        return this;
    }

    public Integer getPort() {
        return port;
    }

    public void setPort(Integer port) {
        this.port = port;
    }

    public ExternalDatabaseSpec withPort(Integer port) {
        this.port = port;
        return this;
    }

    public String getDatabase() {
        return database;
    }

    public void setDatabase(String database) {
        this.database = database;
    }

    public ExternalDatabaseSpec withDatabase(String database) {
        this.database = database;
        return this;
    }

    public SecretKeysRef getSecretRef() {
        return secretRef;
    }

    public void setSecretRef(SecretKeysRef secretRef) {
        this.secretRef = secretRef;
    }

    public ExternalDatabaseSpec withSecretRef(SecretKeysRef secretRef) {
        this.secretRef = secretRef;
        return this;
    }
}
