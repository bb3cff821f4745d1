package dev.stackbench.api.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.stackbench.api.SpecRules;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.Getter;
import lombok.Setter;

/**
 * One load experiment: which variant to deploy and how, where its parts run, and the load to drive.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = SpecRules.TIMEOUT_COVERS_RUN,
        message = SpecRules.TIMEOUT_COVERS_RUN_MESSAGE,
        fieldPath = ".timeout")
@Getter
@Setter
public class BenchmarkRunSpec {

    @Required
    @JsonPropertyDescription("The target variant under test and its resources.")
    private TargetSpec target;

    @JsonPropertyDescription("Dedicated nodes per role (target, backend, loadgen); ignored in local mode.")
    private PlacementSpec placement;

    @JsonPropertyDescription("The database and the delay service the target talks to.")
    private BackendSpec backend;

    @Required
    @JsonPropertyDescription("The scenario and the load to drive against the target.")
    private WorkloadSpec workload;

    @Size(max = 20)
    @JsonPropertyDescription("PromQL checks over the measured window (needs a cluster whose operator knows a"
            + " Prometheus: error fails the run, warning adds a warning).")
    private java.util.List<PromQLCheck> checks;

    @Default(BenchmarkRunDefaults.CLEANUP)
    @JsonPropertyDescription(
            "Delete what the run created: Always, OnSuccess (keep a failed run for inspection) or" + " Never.")
    private CleanupPolicy cleanup;

    @Default(BenchmarkRunDefaults.TIMEOUT)
    @ValidationRule(value = SpecRules.DURATION_FORMAT, message = SpecRules.TIMEOUT_FORMAT_MESSAGE)
    @Size(max = SpecRules.DURATION_MAX_LENGTH)
    @JsonPropertyDescription("Fail the run when it has not finished after this long, e.g. 15m.")
    private String timeout;

    public BenchmarkRunSpec withTarget(TargetSpec target) {
        this.target = target;
        return this;
    }

    public BenchmarkRunSpec withPlacement(PlacementSpec placement) {
        this.placement = placement;
        return this;
    }

    public BenchmarkRunSpec withBackend(BackendSpec backend) {
        this.backend = backend;
        return this;
    }

    public BenchmarkRunSpec withWorkload(WorkloadSpec workload) {
        this.workload = workload;
        return this;
    }

    public BenchmarkRunSpec withCleanup(CleanupPolicy cleanup) {
        this.cleanup = cleanup;
        return this;
    }

    public BenchmarkRunSpec withTimeout(String timeout) {
        this.timeout = timeout;
        return this;
    }
}
