package dev.stackbench.api.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.Getter;
import lombok.Setter;

/**
 * The services behind the target.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class BackendSpec {

    @JsonPropertyDescription("The PostgreSQL behind the target: by default one deployed for the run alone and removed"
            + " with it; spec.backend.database.external names an existing one instead.")
    private DatabaseSpec database;

    @JsonPropertyDescription("The delay service answering upstream calls.")
    private DelayServiceSpec delayService;

    public BackendSpec withDatabase(DatabaseSpec database) {
        this.database = database;
        return this;
    }

    public BackendSpec withDelayService(DelayServiceSpec delayService) {
        this.delayService = delayService;
        return this;
    }
}
