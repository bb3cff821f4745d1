package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * One measured step of a sweep or one probe of a capacity search: the load it offered and what the target did with
 * it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
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

    public Integer getStep() {
        return step;
    }

    public void setStep(Integer step) {
        this.step = step;
    }

    public StepResult withStep(Integer step) {
        this.step = step;
        return this;
    }

    public Integer getLevel() {
        return level;
    }

    public void setLevel(Integer level) {
        this.level = level;
    }

    public StepResult withLevel(Integer level) {
        this.level = level;
        return this;
    }

    public String getUnit() {
        return unit;
    }

    public void setUnit(String unit) {
        this.unit = unit;
    }

    public StepResult withUnit(String unit) {
        this.unit = unit;
        return this;
    }

    public StepOutcome getOutcome() {
        return outcome;
    }

    public void setOutcome(StepOutcome outcome) {
        this.outcome = outcome;
    }

    public StepResult withOutcome(StepOutcome outcome) {
        this.outcome = outcome;
        return this;
    }

    public String getReason() {
        return reason;
    }

    public void setReason(String reason) {
        this.reason = reason;
    }

    public StepResult withReason(String reason) {
        this.reason = reason;
        return this;
    }

    public String getStartedAt() {
        return startedAt;
    }

    public void setStartedAt(String startedAt) {
        this.startedAt = startedAt;
    }

    public StepResult withStartedAt(String startedAt) {
        this.startedAt = startedAt;
        return this;
    }

    public String getFinishedAt() {
        return finishedAt;
    }

    public void setFinishedAt(String finishedAt) {
        this.finishedAt = finishedAt;
    }

    public StepResult withFinishedAt(String finishedAt) {
        this.finishedAt = finishedAt;
        return this;
    }

    public Long getRequests() {
        return requests;
    }

    public void setRequests(Long requests) {
        this.requests = requests;
    }

    public StepResult withRequests(Long requests) {
        this.requests = requests;
        return this;
    }

    public Double getRps() {
        return rps;
    }

    public void setRps(Double rps) {
        this.rps = rps;
    }

    public StepResult withRps(Double rps) {
        this.rps = rps;
        return this;
    }

    public Double getP50Ms() {
        return p50Ms;
    }

    public void setP50Ms(Double p50Ms) {
        this.p50Ms = p50Ms;
    }

    public StepResult withP50Ms(Double p50Ms) {
        this.p50Ms = p50Ms;
        return this;
    }

    public Double getP95Ms() {
        return p95Ms;
    }

    public void setP95Ms(Double p95Ms) {
        this.p95Ms = p95Ms;
    }

    public StepResult withP95Ms(Double p95Ms) {
        this.p95Ms = p95Ms;
        return this;
    }

    public Double getP99Ms() {
        return p99Ms;
    }

    public void setP99Ms(Double p99Ms) {
        this.p99Ms = p99Ms;
    }

    public StepResult withP99Ms(Double p99Ms) {
        this.p99Ms = p99Ms;
        return this;
    }

    public Double getErrorRate() {
        return errorRate;
    }

    public void setErrorRate(Double errorRate) {
        this.errorRate = errorRate;
    }

    public StepResult withErrorRate(Double errorRate) {
        this.errorRate = errorRate;
        return this;
    }

    public Long getDroppedIterations() {
        return droppedIterations;
    }

    public void setDroppedIterations(Long droppedIterations) {
        this.droppedIterations = droppedIterations;
    }

    public StepResult withDroppedIterations(Long droppedIterations) {
        this.droppedIterations = droppedIterations;
        return this;
    }

    public Boolean getThresholdsPassed() {
        return thresholdsPassed;
    }

    public void setThresholdsPassed(Boolean thresholdsPassed) {
        this.thresholdsPassed = thresholdsPassed;
    }

    public StepResult withThresholdsPassed(Boolean thresholdsPassed) {
        this.thresholdsPassed = thresholdsPassed;
        return this;
    }

    public Integer getPeakThreads() {
        return peakThreads;
    }

    public void setPeakThreads(Integer peakThreads) {
        this.peakThreads = peakThreads;
    }

    public StepResult withPeakThreads(Integer peakThreads) {
        this.peakThreads = peakThreads;
        return this;
    }

    public Double getTargetCpuCores() {
        return targetCpuCores;
    }

    public void setTargetCpuCores(Double targetCpuCores) {
        this.targetCpuCores = targetCpuCores;
    }

    public StepResult withTargetCpuCores(Double targetCpuCores) {
        this.targetCpuCores = targetCpuCores;
        return this;
    }

    public Double getGeneratorCpuCores() {
        return generatorCpuCores;
    }

    public void setGeneratorCpuCores(Double generatorCpuCores) {
        this.generatorCpuCores = generatorCpuCores;
    }

    public StepResult withGeneratorCpuCores(Double generatorCpuCores) {
        this.generatorCpuCores = generatorCpuCores;
        return this;
    }

    public Double getLittleLawRps() {
        return littleLawRps;
    }

    public void setLittleLawRps(Double littleLawRps) {
        this.littleLawRps = littleLawRps;
    }

    public StepResult withLittleLawRps(Double littleLawRps) {
        this.littleLawRps = littleLawRps;
        return this;
    }
}
