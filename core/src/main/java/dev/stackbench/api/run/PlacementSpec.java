package dev.stackbench.api.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.Getter;
import lombok.Setter;

/**
 * Where each role runs, so the target never shares CPUs with the load generator or the backend.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class PlacementSpec {

    @JsonPropertyDescription("Nodes for the target pods.")
    private PoolPlacement target;

    @JsonPropertyDescription("Nodes for the database and the delay service.")
    private PoolPlacement backend;

    @JsonPropertyDescription("Nodes for the k6 runners.")
    private PoolPlacement loadgen;

    public PlacementSpec withTarget(PoolPlacement target) {
        this.target = target;
        return this;
    }

    public PlacementSpec withBackend(PoolPlacement backend) {
        this.backend = backend;
        return this;
    }

    public PlacementSpec withLoadgen(PoolPlacement loadgen) {
        this.loadgen = loadgen;
        return this;
    }
}
