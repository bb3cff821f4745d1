package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;
import lombok.Getter;
import lombok.Setter;

/**
 * What limited a run (or a step): the resource the figures point at, with the figures that show it. Users compare
 * stacks to learn why one served more than another; a number without the resource that capped it does not say.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class LimitedBy {

    @JsonPropertyDescription("The limiting resource: load-generator, request-pool, event-loop-blocked, offload-pool,"
            + " connection-pool, target-cpu, gc, database, upstream, none (the target kept up) or unknown (no rule had"
            + " enough evidence; evidence says what was missing). The first that holds in this order wins.")
    private String resource;

    @JsonPropertyDescription("The figures that show it, e.g. \"busy 200/200 threads in 96% of samples\", or what was"
            + " missing to tell.")
    private List<String> evidence = new ArrayList<>();

    public LimitedBy() {}

    public LimitedBy(String resource, List<String> evidence) {
        this.resource = resource;
        this.evidence = new ArrayList<>(evidence);
    }

    /** The resource with its evidence in one line, for tables and messages. */
    public String describe() {
        return evidence == null || evidence.isEmpty() ? resource : resource + ": " + String.join("; ", evidence);
    }
}
