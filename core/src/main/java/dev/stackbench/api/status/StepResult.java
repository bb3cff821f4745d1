package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.Getter;
import lombok.Setter;

/**
 * One measured step of a sweep or one probe of a capacity search: the load it offered and what the target did with
 * it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class StepResult {

    @JsonPropertyDescription("1 for the first step, in the order the steps ran.")
    private Integer step;

    @JsonPropertyDescription(
            "The load offered: arrival rate in iterations per second (arrival-rate executors), or VUs (constant-vus).")
    private Integer level;

    @JsonPropertyDescription("iterations/s or VUs: what level counts.")
    private String unit;

    @JsonPropertyDescription(
            "Passed, Failed (missed its thresholds or the capacity objective), Broken (failed badly: the sweep stops after it unless continueAfterBreak) or GeneratorLimited (k6, not the target, could not deliver the load).")
    private StepOutcome outcome;

    @JsonPropertyDescription("Why the step has its outcome, with the figures.")
    private String reason;

    @JsonPropertyDescription("When the step's load started (RFC 3339).")
    private String startedAt;

    @JsonPropertyDescription("When the step's results were read (RFC 3339).")
    private String finishedAt;

    @JsonPropertyDescription("Requests of the measured window.")
    private Long requests;

    @JsonPropertyDescription("Requests per second over the measured window.")
    private Double rps;

    @JsonPropertyDescription("Median latency in ms.")
    private Double p50Ms;

    @JsonPropertyDescription("95th percentile latency in ms.")
    private Double p95Ms;

    @JsonPropertyDescription("99th percentile latency in ms.")
    private Double p99Ms;

    @JsonPropertyDescription(
            "95th percentile latency from the intended start (arrival-rate executors), in milliseconds; a lower bound"
                    + " when intendedLowerBound says so.")
    private Double intendedP95Ms;

    @JsonPropertyDescription(
            "99th percentile latency from the intended start (arrival-rate executors), in milliseconds.")
    private Double intendedP99Ms;

    @JsonPropertyDescription(
            "Whether the intended-start percentiles of the step are only lower bounds (iterations were dropped).")
    private Boolean intendedLowerBound;

    @JsonPropertyDescription("Share of failed requests (0..1).")
    private Double errorRate;

    @JsonPropertyDescription("Iterations k6 could not start in time (open model): load that was not offered.")
    private Long droppedIterations;

    @JsonPropertyDescription("Whether every threshold held in this step; absent without thresholds.")
    private Boolean thresholdsPassed;

    @JsonPropertyDescription("Most live JVM threads of the target during the step.")
    private Integer peakThreads;

    @JsonPropertyDescription("The target's average CPU use during the step, in cores.")
    private Double targetCpuCores;

    @JsonPropertyDescription("The load generator's average CPU use during the step, in cores (all runners).")
    private Double generatorCpuCores;

    @JsonPropertyDescription(
            "The throughput the variant's thread pool allows at this workload's service time, where it has one.")
    private Double littleLawRps;

    @JsonPropertyDescription("What limited the step, and the figures that show it.")
    private LimitedBy limitedBy;

    @JsonPropertyDescription("Share of the machine's CPU time its hypervisor took during the step's measured window"
            + " (as summary.hostSteal), 0..1; above 0.05 a step that did not pass says so in its reason.")
    private Double hostSteal;

    public StepResult withStep(Integer step) {
        this.step = step;
        return this;
    }

    public StepResult withLevel(Integer level) {
        this.level = level;
        return this;
    }

    public StepResult withUnit(String unit) {
        this.unit = unit;
        return this;
    }

    public StepResult withOutcome(StepOutcome outcome) {
        this.outcome = outcome;
        return this;
    }

    public StepResult withReason(String reason) {
        this.reason = reason;
        return this;
    }

    public StepResult withStartedAt(String startedAt) {
        this.startedAt = startedAt;
        return this;
    }

    public StepResult withFinishedAt(String finishedAt) {
        this.finishedAt = finishedAt;
        return this;
    }

    public StepResult withRequests(Long requests) {
        this.requests = requests;
        return this;
    }

    public StepResult withRps(Double rps) {
        this.rps = rps;
        return this;
    }

    public StepResult withP50Ms(Double p50Ms) {
        this.p50Ms = p50Ms;
        return this;
    }

    public StepResult withP95Ms(Double p95Ms) {
        this.p95Ms = p95Ms;
        return this;
    }

    public StepResult withP99Ms(Double p99Ms) {
        this.p99Ms = p99Ms;
        return this;
    }

    public StepResult withErrorRate(Double errorRate) {
        this.errorRate = errorRate;
        return this;
    }

    public StepResult withDroppedIterations(Long droppedIterations) {
        this.droppedIterations = droppedIterations;
        return this;
    }

    public StepResult withThresholdsPassed(Boolean thresholdsPassed) {
        this.thresholdsPassed = thresholdsPassed;
        return this;
    }

    public StepResult withPeakThreads(Integer peakThreads) {
        this.peakThreads = peakThreads;
        return this;
    }

    public StepResult withTargetCpuCores(Double targetCpuCores) {
        this.targetCpuCores = targetCpuCores;
        return this;
    }

    public StepResult withGeneratorCpuCores(Double generatorCpuCores) {
        this.generatorCpuCores = generatorCpuCores;
        return this;
    }

    public StepResult withLittleLawRps(Double littleLawRps) {
        this.littleLawRps = littleLawRps;
        return this;
    }

    public StepResult withLimitedBy(LimitedBy limitedBy) {
        this.limitedBy = limitedBy;
        return this;
    }

    public StepResult withHostSteal(Double hostSteal) {
        this.hostSteal = hostSteal;
        return this;
    }
}
