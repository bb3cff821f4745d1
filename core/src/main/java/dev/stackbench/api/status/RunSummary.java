package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lombok.Getter;
import lombok.Setter;

/**
 * The measured results of a run: warmup excluded, all k6 runners combined.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class RunSummary {

    @JsonPropertyDescription("The run's PromQL checks and what each gave (with spec.checks).")
    private java.util.List<CheckResult> checks;

    @JsonPropertyDescription("HTTP requests sent in the measured window.")
    private Long requests;

    @JsonPropertyDescription("Measured requests per second: requests completed in the measured window /"
            + " measuredSeconds; for a burst, completed requests / makespan.")
    private Double rps;

    @JsonPropertyDescription("Share of failed requests (k6 http_req_failed), 0..1.")
    private Double errorRate;

    @JsonPropertyDescription("Failed requests in the measured window.")
    private Long failedRequests;

    @JsonPropertyDescription("Failed checks (status, variant and the scenario's own) among the verified responses."
            + " The built-in scenarios verify every response with an unexpected status but the body of only one"
            + " response in 50 per k6 VU (its first included), so a wrong body is counted as a sample; a custom"
            + " module's context.verify checks every response.")
    private Long checksFailed;

    @JsonPropertyDescription("Completed iterations in the measured window.")
    private Long iterations;

    @JsonPropertyDescription("Iterations k6 could not start because it ran out of VUs.")
    private Long droppedIterations;

    @JsonPropertyDescription("Measured requests per HTTP status, e.g. {\"200\": 5210, \"409\": 3}; \"0\" counts"
            + " requests that got no response, \"other\" statuses stackbench does not count one by one.")
    private Map<String, Long> statusCodes;

    @JsonPropertyDescription("The measured burst (executors per-vu-iterations and shared-iterations).")
    private BurstSummary burst;

    @JsonPropertyDescription("Scenario lock: the groups of concurrent changes and the lock wait.")
    private LockSummary lock;

    @JsonPropertyDescription("Request duration percentiles in milliseconds.")
    private LatencySummary latencyMs;

    @JsonPropertyDescription(
            "Latency from each iteration's intended start (arrival-rate executors), dropped iterations included as lower"
                    + " bounds: what the callers of an open model saw, beside latencyMs (the service time of the"
                    + " requests sent).")
    private IntendedLatency intendedLatencyMs;

    @JsonPropertyDescription("False when percentiles come from merged histogram buckets.")
    private Boolean percentilesExact;

    @JsonPropertyDescription("How inexact percentiles are bounded.")
    private String percentilesNote;

    @JsonPropertyDescription("Whether every threshold passed on the combined result.")
    private Boolean thresholdsPassed;

    @JsonPropertyDescription("Each threshold and its outcome.")
    private List<ThresholdResult> thresholdResults;

    @JsonPropertyDescription("What the target process did during the measured window.")
    private TargetSummary target;

    @JsonPropertyDescription("What the target itself counted in the measured window, compared with what k6 measured.")
    private ServerSummary server;

    @JsonPropertyDescription("Throughput cap predicted by Little's law where the variant is thread-bound.")
    private Double littleLawRps;

    @JsonPropertyDescription("What limited the run, and the figures that show it.")
    private LimitedBy limitedBy;

    @JsonPropertyDescription("Length of the measured window.")
    private Double measuredSeconds;

    @JsonPropertyDescription("Number of k6 runners combined.")
    private Integer runners;

    @JsonPropertyDescription("For a sweep or a capacity search: the step these figures are from (see status.steps).")
    private Integer step;

    @JsonPropertyDescription("For a capacity search: the capacity found (status.capacity.rate, iterations/s), here"
            + " too so that a comparison of repeated searches can compare it.")
    private Integer capacity;

    @JsonPropertyDescription("Share of the machine's CPU time its hypervisor took during the measured window (steal"
            + " in /proc/stat), 0..1; above 0.05 the run is warned about and a comparison leaves it out. Local mode"
            + " reads this machine; on a cluster the target apps and the delay service publish their node's counters"
            + " and the most any target or delay-service pod's node lost counts.")
    private Double hostSteal;

    @JsonPropertyDescription("Things that make the figures less trustworthy.")
    private List<String> warnings;

    @JsonPropertyDescription(
            "CPU each pod of the run (target, delay service, database, k6 runners) used in the measured window,"
                    + " from the kubelets (cluster mode).")
    private List<PodResources> pods;

    public RunSummary withRequests(Long requests) {
        this.requests = requests;
        return this;
    }

    public RunSummary withRps(Double rps) {
        this.rps = rps;
        return this;
    }

    public RunSummary withErrorRate(Double errorRate) {
        this.errorRate = errorRate;
        return this;
    }

    public RunSummary withFailedRequests(Long failedRequests) {
        this.failedRequests = failedRequests;
        return this;
    }

    public RunSummary withChecksFailed(Long checksFailed) {
        this.checksFailed = checksFailed;
        return this;
    }

    public RunSummary withIterations(Long iterations) {
        this.iterations = iterations;
        return this;
    }

    public RunSummary withDroppedIterations(Long droppedIterations) {
        this.droppedIterations = droppedIterations;
        return this;
    }

    public RunSummary withLatencyMs(LatencySummary latencyMs) {
        this.latencyMs = latencyMs;
        return this;
    }

    public RunSummary withPercentilesExact(Boolean percentilesExact) {
        this.percentilesExact = percentilesExact;
        return this;
    }

    public RunSummary withPercentilesNote(String percentilesNote) {
        this.percentilesNote = percentilesNote;
        return this;
    }

    public RunSummary withThresholdsPassed(Boolean thresholdsPassed) {
        this.thresholdsPassed = thresholdsPassed;
        return this;
    }

    public RunSummary withThresholdResults(List<ThresholdResult> thresholdResults) {
        this.thresholdResults = thresholdResults;
        return this;
    }

    public RunSummary withTarget(TargetSummary target) {
        this.target = target;
        return this;
    }

    public RunSummary withServer(ServerSummary server) {
        this.server = server;
        return this;
    }

    public RunSummary withLittleLawRps(Double littleLawRps) {
        this.littleLawRps = littleLawRps;
        return this;
    }

    public RunSummary withMeasuredSeconds(Double measuredSeconds) {
        this.measuredSeconds = measuredSeconds;
        return this;
    }

    public RunSummary withRunners(Integer runners) {
        this.runners = runners;
        return this;
    }

    public RunSummary withWarnings(List<String> warnings) {
        this.warnings = warnings;
        return this;
    }

    /** Adds a warning, creating the list when needed. */
    public RunSummary addWarning(String warning) {
        if (warnings == null) {
            warnings = new ArrayList<>();
        }
        warnings.add(warning);
        return this;
    }
}
