package dev.stackbench.api.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.stackbench.api.SpecRules;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;
import java.util.Map;
import lombok.Getter;
import lombok.Setter;

/**
 * The requests to send and the load model.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = SpecRules.CUSTOM_NEEDS_SCRIPT,
        message = SpecRules.CUSTOM_NEEDS_SCRIPT_MESSAGE,
        fieldPath = ".script")
@ValidationRule(
        value = SpecRules.SCRIPT_ONLY_FOR_CUSTOM,
        message = SpecRules.SCRIPT_ONLY_FOR_CUSTOM_MESSAGE,
        fieldPath = ".script")
@ValidationRule(
        value = SpecRules.UPSTREAM_DELAY_REQUIRED,
        message = SpecRules.UPSTREAM_DELAY_REQUIRED_MESSAGE,
        fieldPath = ".upstreamDelay")
@ValidationRule(
        value = SpecRules.DB_SLEEP_REQUIRED,
        message = SpecRules.DB_SLEEP_REQUIRED_MESSAGE,
        fieldPath = ".dbSleep")
@ValidationRule(
        value = SpecRules.UPSTREAM_DELAY_MAX,
        message = SpecRules.UPSTREAM_DELAY_MAX_MESSAGE,
        fieldPath = ".upstreamDelay")
@ValidationRule(value = SpecRules.DB_SLEEP_MAX, message = SpecRules.DB_SLEEP_MAX_MESSAGE, fieldPath = ".dbSleep")
@ValidationRule(value = SpecRules.SLEEP_REQUIRED, message = SpecRules.SLEEP_REQUIRED_MESSAGE, fieldPath = ".sleep")
@ValidationRule(value = SpecRules.SLEEP_MAX, message = SpecRules.SLEEP_MAX_MESSAGE, fieldPath = ".sleep")
@ValidationRule(value = SpecRules.CALLS_REQUIRED, message = SpecRules.CALLS_REQUIRED_MESSAGE, fieldPath = ".calls")
@ValidationRule(
        value = SpecRules.CALLS_ONLY_FANOUT,
        message = SpecRules.CALLS_ONLY_FANOUT_MESSAGE,
        fieldPath = ".calls")
@ValidationRule(
        value = SpecRules.FANOUT_MODE_ONLY_FANOUT,
        message = SpecRules.FANOUT_MODE_ONLY_FANOUT_MESSAGE,
        fieldPath = ".fanoutMode")
@ValidationRule(
        value = SpecRules.PROTOCOL_ONLY_UPSTREAM,
        message = SpecRules.PROTOCOL_ONLY_UPSTREAM_MESSAGE,
        fieldPath = ".upstreamProtocol")
@ValidationRule(
        value = SpecRules.LOCK_GROUP_REQUIRED,
        message = SpecRules.LOCK_GROUP_REQUIRED_MESSAGE,
        fieldPath = ".lockGroup")
@ValidationRule(
        value = SpecRules.LOCK_GROUP_ONLY_LOCK,
        message = SpecRules.LOCK_GROUP_ONLY_LOCK_MESSAGE,
        fieldPath = ".lockGroup")
@ValidationRule(
        value = SpecRules.DURATION_POSITIVE,
        message = SpecRules.DURATION_POSITIVE_MESSAGE,
        fieldPath = ".duration")
@ValidationRule(value = SpecRules.DURATION_MAX, message = SpecRules.DURATION_MAX_MESSAGE, fieldPath = ".duration")
@ValidationRule(value = SpecRules.WARMUP_MAX, message = SpecRules.WARMUP_MAX_MESSAGE, fieldPath = ".warmup")
@ValidationRule(
        value = SpecRules.RATE_REQUIRED_CONSTANT,
        message = SpecRules.RATE_REQUIRED_CONSTANT_MESSAGE,
        fieldPath = ".load.rate")
@ValidationRule(value = SpecRules.VUS_REQUIRED, message = SpecRules.VUS_REQUIRED_MESSAGE, fieldPath = ".load.vus")
@ValidationRule(value = SpecRules.SWEEP_EXECUTOR, message = SpecRules.SWEEP_EXECUTOR_MESSAGE, fieldPath = ".sweep")
@ValidationRule(
        value = SpecRules.SWEEP_REPLACES_LEVEL,
        message = SpecRules.SWEEP_REPLACES_LEVEL_MESSAGE,
        fieldPath = ".sweep")
@ValidationRule(value = SpecRules.SWEEP_ASCENDING, message = SpecRules.SWEEP_ASCENDING_MESSAGE, fieldPath = ".sweep")
@ValidationRule(
        value = SpecRules.SWEEP_LEVELS_RANGE,
        message = SpecRules.SWEEP_LEVELS_RANGE_MESSAGE,
        fieldPath = ".sweep")
@ValidationRule(
        value = SpecRules.CAPACITY_EXECUTOR,
        message = SpecRules.CAPACITY_EXECUTOR_MESSAGE,
        fieldPath = ".capacity")
@ValidationRule(
        value = SpecRules.CAPACITY_REPLACES_RATE,
        message = SpecRules.CAPACITY_REPLACES_RATE_MESSAGE,
        fieldPath = ".load.rate")
@ValidationRule(
        value = SpecRules.SWEEP_OR_CAPACITY,
        message = SpecRules.SWEEP_OR_CAPACITY_MESSAGE,
        fieldPath = ".capacity")
@ValidationRule(
        value = SpecRules.RESTART_NEEDS_STEPS,
        message = SpecRules.RESTART_NEEDS_STEPS_MESSAGE,
        fieldPath = ".restartBetweenSteps")
@ValidationRule(
        value = SpecRules.CONTINUE_NEEDS_SWEEP,
        message = SpecRules.CONTINUE_NEEDS_SWEEP_MESSAGE,
        fieldPath = ".continueAfterBreak")
@Getter
@Setter
public class WorkloadSpec {

    @Required
    @JsonPropertyDescription("upstream, db, mixed, rows, orders, sleep, fanout, lock or custom.")
    private Scenario scenario;

    @ValidationRule(value = SpecRules.DURATION_FORMAT, message = SpecRules.UPSTREAM_DELAY_FORMAT_MESSAGE)
    @Size(max = SpecRules.DURATION_MAX_LENGTH)
    @JsonPropertyDescription("Delay of the upstream call (scenarios upstream and mixed), e.g. 300ms; at most 60s.")
    private String upstreamDelay;

    @ValidationRule(value = SpecRules.DURATION_FORMAT, message = SpecRules.DB_SLEEP_FORMAT_MESSAGE)
    @Size(max = SpecRules.DURATION_MAX_LENGTH)
    @JsonPropertyDescription("pg_sleep of the database call (scenarios db and mixed), e.g. 100ms; at most 60s.")
    private String dbSleep;

    @ValidationRule(value = SpecRules.DURATION_FORMAT, message = SpecRules.SLEEP_FORMAT_MESSAGE)
    @Size(max = SpecRules.DURATION_MAX_LENGTH)
    @JsonPropertyDescription("How long each request waits inside the target (scenario sleep), e.g. 1500ms; at most"
            + " 60s. Blocking variants sleep on their request thread, reactive ones on a timer.")
    private String sleep;

    @Min(1)
    @Max(SpecRules.MAX_CALLS)
    @JsonPropertyDescription("Upstream calls each request makes (scenario fanout), each with upstreamDelay.")
    private Integer calls;

    @JsonPropertyDescription("parallel (all calls at once) or sequential (each after the previous one answered),"
            + " scenario fanout only; left out, each variant uses its own way (parallel where it has a non-blocking"
            + " client, sequential where it has a blocking one). A variant refuses a mode it cannot do.")
    private FanoutMode fanoutMode;

    @JsonPropertyDescription("http (default) or rsocket: how the target calls the delay service in scenarios"
            + " upstream, mixed and fanout. Over RSocket each call is a request-stream on one multiplexed connection;"
            + " blocking variants block on it (.block()), reactive ones compose it.")
    private UpstreamProtocol upstreamProtocol;

    @Min(2)
    @Max(SpecRules.MAX_LOCK_GROUP)
    @JsonPropertyDescription("Concurrent changes of the same order each iteration sends (scenario lock): the order row"
            + " is locked (SELECT ... FOR UPDATE), so exactly one may succeed and the others must get 409.")
    private Integer lockGroup;

    @Default(BenchmarkRunDefaults.ROW_COUNT_TEXT)
    @Min(1)
    @Max(SpecRules.MAX_ROW_COUNT)
    @JsonPropertyDescription("Rows read per request in scenario rows.")
    private Integer rowCount;

    @Required
    @JsonPropertyDescription("The k6 executor and its parameters.")
    private LoadSpec load;

    @Default(BenchmarkRunDefaults.WARMUP)
    @ValidationRule(value = SpecRules.DURATION_FORMAT, message = SpecRules.WARMUP_FORMAT_MESSAGE)
    @Size(max = SpecRules.DURATION_MAX_LENGTH)
    @JsonPropertyDescription("Load applied before measuring and excluded from every result, e.g. 20s; 0s for none.")
    private String warmup;

    @Default(BenchmarkRunDefaults.DURATION)
    @ValidationRule(value = SpecRules.DURATION_FORMAT, message = SpecRules.DURATION_FORMAT_MESSAGE)
    @Size(max = SpecRules.DURATION_MAX_LENGTH)
    @JsonPropertyDescription("Measured time after the warmup, e.g. 60s.")
    private String duration;

    @Default(BenchmarkRunDefaults.PARALLELISM_TEXT)
    @Min(1)
    @Max(SpecRules.MAX_PARALLELISM)
    @JsonPropertyDescription("Number of k6 runners sharing the load.")
    private Integer parallelism;

    @JsonPropertyDescription("CPU and memory of each k6 runner pod, requests equal to limits, so a runner is neither"
            + " throttled below nor allowed above what it was given. Raise them when the run reports dropped"
            + " iterations. Not applied in local mode, where k6 gets the CPUs the target does not use.")
    private ResourcesSpec runnerResources;

    @JsonPropertyDescription("Your own k6 iteration, only for scenario custom.")
    private ScriptSpec script;

    @Size(min = 2, max = SpecRules.MAX_SWEEP_STEPS)
    @JsonPropertyDescription("Load levels to run one after another, lowest first, each as a measured step of duration"
            + " after its own warmup, against the same target: iterations per second for constant-arrival-rate, VUs"
            + " for constant-vus, e.g. [50, 100, 200, 400, 800]. The results of every step are in status.steps; the"
            + " summary is the step with the highest rps that met the thresholds. The sweep stops after a step that"
            + " breaks (more than 10% errors, or a threshold missed by more than half its limit) unless"
            + " continueAfterBreak.")
    private List<Integer> sweep;

    @JsonPropertyDescription("Search for the highest arrival rate that meets an objective (constant-arrival-rate"
            + " only): status.capacity has the rate, the interval it lies in and every probe.")
    private CapacitySpec capacity;

    @JsonPropertyDescription("Restart the target before every step of a sweep or a capacity search (cold starts);"
            + " by default it keeps running from step to step.")
    private Boolean restartBetweenSteps;

    @JsonPropertyDescription("Run every step of a sweep even after one has broken the stack.")
    private Boolean continueAfterBreak;

    @JsonPropertyDescription("k6 thresholds on the measured requests: per metric, a list of"
            + " <aggregation><operator><number>, e.g. http_req_duration: [p(95)<500], http_req_failed: [rate<0.01],"
            + " http_reqs: [count>0] (durations in milliseconds, no units). A metric is one k6 reports"
            + " (http_req_duration, http_req_failed, http_reqs, iterations, dropped_iterations, checks, ...),"
            + " optionally with tag filters, e.g. http_req_duration{name:upstream} (the built-in scenarios name"
            + " their requests after the scenario; orders names them order-create and order-status, lock order-create"
            + " and order-lock);"
            + " the aggregation must suit its type (trend: avg, min, max, med, p(N); rate: rate; counter: count,"
            + " rate; gauge: value). With scenario custom, metrics the module defines may be named too: only their"
            + " expressions are checked before the run. A malformed threshold fails the run before anything"
            + " starts.")
    private Map<String, List<String>> thresholds;

    public WorkloadSpec withScenario(Scenario scenario) {
        this.scenario = scenario;
        return this;
    }

    public WorkloadSpec withUpstreamDelay(String upstreamDelay) {
        this.upstreamDelay = upstreamDelay;
        return this;
    }

    public WorkloadSpec withDbSleep(String dbSleep) {
        this.dbSleep = dbSleep;
        return this;
    }

    public WorkloadSpec withSleep(String sleep) {
        this.sleep = sleep;
        return this;
    }

    public WorkloadSpec withRowCount(Integer rowCount) {
        this.rowCount = rowCount;
        return this;
    }

    public WorkloadSpec withLoad(LoadSpec load) {
        this.load = load;
        return this;
    }

    public WorkloadSpec withWarmup(String warmup) {
        this.warmup = warmup;
        return this;
    }

    public WorkloadSpec withDuration(String duration) {
        this.duration = duration;
        return this;
    }

    public WorkloadSpec withParallelism(Integer parallelism) {
        this.parallelism = parallelism;
        return this;
    }

    public WorkloadSpec withScript(ScriptSpec script) {
        this.script = script;
        return this;
    }

    public WorkloadSpec withThresholds(Map<String, List<String>> thresholds) {
        this.thresholds = thresholds;
        return this;
    }

    public WorkloadSpec withCalls(Integer calls) {
        this.calls = calls;
        return this;
    }

    public WorkloadSpec withFanoutMode(FanoutMode fanoutMode) {
        this.fanoutMode = fanoutMode;
        return this;
    }

    public WorkloadSpec withLockGroup(Integer lockGroup) {
        this.lockGroup = lockGroup;
        return this;
    }

    public WorkloadSpec withUpstreamProtocol(UpstreamProtocol upstreamProtocol) {
        this.upstreamProtocol = upstreamProtocol;
        return this;
    }

    public WorkloadSpec withSweep(List<Integer> sweep) {
        this.sweep = sweep;
        return this;
    }

    public WorkloadSpec withCapacity(CapacitySpec capacity) {
        this.capacity = capacity;
        return this;
    }

    public WorkloadSpec withRestartBetweenSteps(Boolean restartBetweenSteps) {
        this.restartBetweenSteps = restartBetweenSteps;
        return this;
    }

    public WorkloadSpec withContinueAfterBreak(Boolean continueAfterBreak) {
        this.continueAfterBreak = continueAfterBreak;
        return this;
    }

    /** Whether the run is a sweep or a capacity search: several measured steps against one target. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isStepped() {
        return sweep != null || capacity != null;
    }
}
