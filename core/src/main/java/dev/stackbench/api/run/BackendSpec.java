package dev.stackbench.api.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * The services behind the target.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BackendSpec {

    @JsonPropertyDescription("The PostgreSQL behind the target: by default one deployed for the run alone and removed"
            + " with it; spec.backend.database.external names an existing one instead.")
    private DatabaseSpec database;

    @JsonPropertyDescription("The delay service answering upstream calls.")
    private DelayServiceSpec delayService;

    public DatabaseSpec getDatabase() {
        return database;
    }

    public void setDatabase(DatabaseSpec database) {
        this.database = database;
    }

    public BackendSpec withDatabase(DatabaseSpec database) {
        this.database = database;
        return this;
    }

    public DelayServiceSpec getDelayService() {
        return delayService;
    }

    public void setDelayService(DelayServiceSpec delayService) {
        this.delayService = delayService;
    }

    public BackendSpec withDelayService(DelayServiceSpec delayService) {
        this.delayService = delayService;
        return this;
    }
}
