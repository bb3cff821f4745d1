package dev.stackbench.api.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.stackbench.api.SpecRules;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;
import lombok.Getter;
import lombok.Setter;

/**
 * The k6 executor driving the load. Arrival-rate executors (an open model) are preferred: they keep sending at the
 * requested rate when the target slows down, so a slow target shows up as latency instead of as fewer requests.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = SpecRules.RATE_REQUIRED_RAMPING,
        message = SpecRules.RATE_REQUIRED_RAMPING_MESSAGE,
        fieldPath = ".rate")
@ValidationRule(value = SpecRules.STAGES_REQUIRED, message = SpecRules.STAGES_REQUIRED_MESSAGE, fieldPath = ".stages")
@ValidationRule(
        value = SpecRules.STAGES_ONLY_RAMPING,
        message = SpecRules.STAGES_ONLY_RAMPING_MESSAGE,
        fieldPath = ".stages")
@ValidationRule(value = SpecRules.RATE_ONLY_ARRIVAL, message = SpecRules.RATE_ONLY_ARRIVAL_MESSAGE, fieldPath = ".rate")
@ValidationRule(
        value = SpecRules.PREALLOCATED_ONLY_ARRIVAL,
        message = SpecRules.PREALLOCATED_ONLY_ARRIVAL_MESSAGE,
        fieldPath = ".preAllocatedVUs")
@ValidationRule(
        value = SpecRules.PREALLOCATED_WITHIN_VUS,
        message = SpecRules.PREALLOCATED_WITHIN_VUS_MESSAGE,
        fieldPath = ".preAllocatedVUs")
@ValidationRule(
        value = SpecRules.ITERATIONS_ONLY_BURST,
        message = SpecRules.ITERATIONS_ONLY_BURST_MESSAGE,
        fieldPath = ".iterations")
@ValidationRule(
        value = SpecRules.SHARED_ITERATIONS_COVER_VUS,
        message = SpecRules.SHARED_ITERATIONS_COVER_VUS_MESSAGE,
        fieldPath = ".iterations")
@Getter
@Setter
public class LoadSpec {

    @Default(BenchmarkRunDefaults.EXECUTOR)
    @JsonPropertyDescription("constant-arrival-rate, ramping-arrival-rate, constant-vus, ramping-vus, or for a"
            + " burst per-vu-iterations (vus users each send iterations requests at once) or shared-iterations (vus"
            + " users share iterations requests).")
    private Executor executor;

    @Min(1)
    @Max(SpecRules.MAX_RATE)
    @JsonPropertyDescription("Requests (iterations) per second; the start rate for ramping-arrival-rate.")
    private Integer rate;

    @Min(1)
    @Max(SpecRules.MAX_VUS)
    @JsonPropertyDescription("Virtual users for the vus executors (the start count for ramping-vus); the most VUs"
            + " an arrival-rate executor may use.")
    private Integer vus;

    @Min(1)
    @Max(SpecRules.MAX_VUS)
    @JsonPropertyDescription("VUs an arrival-rate executor starts with; derived from rate and scenario when omitted.")
    private Integer preAllocatedVUs;

    @Size(max = SpecRules.MAX_STAGES)
    @JsonPropertyDescription(
            "Ramp stages for the ramping executors: each reaches target (iterations/s or VUs) over" + " duration.")
    private List<Stage> stages;

    @Min(1)
    @Max(SpecRules.MAX_ITERATIONS)
    @JsonPropertyDescription("Burst executors only: requests (iterations) each VU sends for per-vu-iterations"
            + " (default 1: every user sends one request at the same moment), the total all VUs share for"
            + " shared-iterations (default vus).")
    private Integer iterations;

    public LoadSpec withExecutor(Executor executor) {
        this.executor = executor;
        return this;
    }

    public LoadSpec withRate(Integer rate) {
        this.rate = rate;
        return this;
    }

    public LoadSpec withVus(Integer vus) {
        this.vus = vus;
        return this;
    }

    public LoadSpec withPreAllocatedVUs(Integer preAllocatedVUs) {
        this.preAllocatedVUs = preAllocatedVUs;
        return this;
    }

    public LoadSpec withStages(List<Stage> stages) {
        this.stages = stages;
        return this;
    }

    public LoadSpec withIterations(Integer iterations) {
        this.iterations = iterations;
        return this;
    }

    /** Iterations the burst executor sends in total; 0 for the other executors. */
    public long burstIterations() {
        if (executor == null || !executor.isBurst() || vus == null) {
            return 0;
        }
        if (executor == Executor.PER_VU_ITERATIONS) {
            return (long) vus * (iterations == null ? 1 : iterations);
        }
        return iterations == null ? vus : iterations;
    }
}
