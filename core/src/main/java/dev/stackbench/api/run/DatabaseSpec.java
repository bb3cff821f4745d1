package dev.stackbench.api.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.stackbench.api.SpecRules;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.Getter;
import lombok.Setter;

/**
 * The PostgreSQL behind the target: by default one the operator deploys for the run alone (on the backend pool,
 * requests equal to limits, removed with the run), or an existing one named in {@link #external}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = SpecRules.DATABASE_ONE_KIND, message = SpecRules.DATABASE_ONE_KIND_MESSAGE)
@Getter
@Setter
public class DatabaseSpec {

    @JsonPropertyDescription("CPU and memory of the run's own PostgreSQL (requests equal limits); default: the"
            + " target's resources, so the database is sized like the stack it serves.")
    private ResourcesSpec resources;

    @JsonPropertyDescription("An existing PostgreSQL shared between runs, instead of one deployed for the run.")
    private ExternalDatabaseSpec external;

    public DatabaseSpec withResources(ResourcesSpec resources) {
        this.resources = resources;
        return this;
    }

    public DatabaseSpec withExternal(ExternalDatabaseSpec external) {
        this.external = external;
        return this;
    }

    /** Whether the run uses an existing database rather than one of its own. */
    public boolean isExternal() {
        return external != null;
    }
}
