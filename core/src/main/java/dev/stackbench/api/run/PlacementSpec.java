package dev.stackbench.api.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * Where each role runs, so the target never shares CPUs with the load generator or the backend.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PlacementSpec {

    @JsonPropertyDescription("Nodes for the target pods.")
    private PoolPlacement target;

    @JsonPropertyDescription("Nodes for the database and the delay service.")
    private PoolPlacement backend;

    @JsonPropertyDescription("Nodes for the k6 runners.")
    private PoolPlacement loadgen;

    public PoolPlacement getTarget() {
        return target;
    }

    public void setTarget(PoolPlacement target) {
        this.target = target;
    }

    public PlacementSpec withTarget(PoolPlacement target) {
        this.target = target;
        return this;
    }

    public PoolPlacement getBackend() {
        return backend;
    }

    public void setBackend(PoolPlacement backend) {
        this.backend = backend;
    }

    public PlacementSpec withBackend(PoolPlacement backend) {
        this.backend = backend;
        return this;
    }

    public PoolPlacement getLoadgen() {
        return loadgen;
    }

    public void setLoadgen(PoolPlacement loadgen) {
        this.loadgen = loadgen;
    }

    public PlacementSpec withLoadgen(PoolPlacement loadgen) {
        this.loadgen = loadgen;
        return this;
    }
}
