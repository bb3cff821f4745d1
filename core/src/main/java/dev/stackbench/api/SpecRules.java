package dev.stackbench.api;

/**
 * Formats, bounds and cross-field rules of a BenchmarkRun spec. The CRD carries them as OpenAPI bounds and CEL rules
 * (x-kubernetes-validations), and {@code dev.stackbench.validation.SpecValidator} applies the same constants in
 * local mode, so a spec is refused with the same message by the API server and by {@code stackbench run}.
 *
 * <p>CEL expressions avoid backslashes ({@code [.]} instead of an escaped dot) so they read the same in Java, YAML
 * and CEL.
 */
public final class SpecRules {

    /** Go/k6 duration: one or more number+unit pairs, e.g. 300ms, 20s, 1m30s. Never negative. */
    public static final String DURATION_PATTERN = "^([0-9]+([.][0-9]+)?(ns|us|ms|s|m|h))+$";
    /**
     * Durations are checked by a CEL rule rather than an OpenAPI pattern, so the API server's message says what to
     * write; the rules that compare durations skip malformed ones (this rule reports them).
     */
    private static final String MATCHES_DURATION = ".matches('" + DURATION_PATTERN + "')";

    public static final String DURATION_FORMAT = "self" + MATCHES_DURATION;
    public static final String DURATION_FORMAT_HINT = " must be a duration: a number with a unit (ns, us, ms, s, m,"
            + " h), e.g. 300ms, 20s or 1m30s; it cannot be negative";
    public static final String TIMEOUT_FORMAT_MESSAGE = "spec.timeout" + DURATION_FORMAT_HINT;
    public static final String UPSTREAM_DELAY_FORMAT_MESSAGE = "spec.workload.upstreamDelay" + DURATION_FORMAT_HINT;
    public static final String DB_SLEEP_FORMAT_MESSAGE = "spec.workload.dbSleep" + DURATION_FORMAT_HINT;
    public static final String SLEEP_FORMAT_MESSAGE = "spec.workload.sleep" + DURATION_FORMAT_HINT;
    public static final String WARMUP_FORMAT_MESSAGE = "spec.workload.warmup" + DURATION_FORMAT_HINT;
    public static final String DURATION_FORMAT_MESSAGE = "spec.workload.duration" + DURATION_FORMAT_HINT;
    public static final String STAGE_DURATION_FORMAT_MESSAGE =
            "spec.workload.load.stages[].duration" + DURATION_FORMAT_HINT;
    public static final long DURATION_MAX_LENGTH = 32;
    /** Kubernetes CPU quantity in cores or millicores. */
    public static final String CPU_PATTERN = "^([0-9]+m|[0-9]+([.][0-9]+)?)$";
    /** Kubernetes memory quantity with an optional binary or decimal suffix. */
    public static final String MEMORY_PATTERN = "^[0-9]+([.][0-9]+)?(Ki|Mi|Gi|Ti|k|M|G|T)?$";

    public static final long QUANTITY_MAX_LENGTH = 16;
    /** DNS label, as variant names are also used in object names. */
    public static final String NAME_PATTERN = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$";

    public static final long MAX_REPLICAS = 20;
    public static final long MAX_PARALLELISM = 100;
    public static final long MAX_RATE = 100_000;
    public static final long MAX_VUS = 20_000;
    private static final String MAX_RATE_TEXT = "100000";
    private static final String MAX_VUS_TEXT = "20000";
    public static final long MAX_STAGES = 100;
    public static final long MAX_ROW_COUNT = 10_000;
    /** The delay service and the database call accept at most 60 s (contract). */
    public static final String MAX_CALL_DELAY = "60s";

    public static final String MAX_DURATION = "6h";
    public static final String MAX_WARMUP = "1h";

    public static final String TIMEOUT_COVERS_RUN = "!has(self.timeout) || !has(self.workload)"
            + " || !has(self.workload.warmup) || !has(self.workload.duration)"
            + " || !self.timeout" + MATCHES_DURATION + " || !self.workload.warmup" + MATCHES_DURATION
            + " || !self.workload.duration" + MATCHES_DURATION
            + " || duration(self.timeout) > duration(self.workload.warmup) + duration(self.workload.duration)";
    public static final String TIMEOUT_COVERS_RUN_MESSAGE = "spec.timeout must be longer than spec.workload.warmup"
            + " + spec.workload.duration: raise the timeout (e.g. timeout: 15m) or shorten the run";

    public static final String DATABASE_ONE_KIND = "!(has(self.resources) && has(self.external))";
    public static final String DATABASE_ONE_KIND_MESSAGE = "spec.backend.database: set resources (the size of the"
            + " run's own PostgreSQL) or external (an existing PostgreSQL), not both: an external database's size is"
            + " not the run's to set";

    public static final String CPU_POSITIVE =
            "!has(self.cpu) || self.cpu.matches('^(0*[1-9][0-9]*m|0*[1-9][0-9]*([.][0-9]+)?|0*[.]0*[1-9][0-9]*)$')";
    public static final String CPU_POSITIVE_MESSAGE =
            "resources.cpu must be a CPU quantity above zero: set e.g. cpu: \"2\", cpu: \"1.5\" or cpu: 500m";

    public static final String CUSTOM_NEEDS_SCRIPT = "self.scenario != 'custom' || has(self.script)";
    public static final String CUSTOM_NEEDS_SCRIPT_MESSAGE = "spec.workload.script is required when scenario is"
            + " custom: set script.configMapRef (cluster) or script.file (local) to a k6 module whose default export"
            + " is one iteration";
    public static final String SCRIPT_ONLY_FOR_CUSTOM = "self.scenario == 'custom' || !has(self.script)";
    public static final String SCRIPT_ONLY_FOR_CUSTOM_MESSAGE =
            "spec.workload.script is only used by scenario" + " custom: remove script, or set scenario: custom";
    public static final String UPSTREAM_DELAY_REQUIRED =
            "!(self.scenario in ['upstream', 'mixed']) || has(self.upstreamDelay)";
    public static final String UPSTREAM_DELAY_REQUIRED_MESSAGE = "spec.workload.upstreamDelay is required when"
            + " scenario is upstream or mixed: set the delay of the upstream call, e.g. upstreamDelay: 300ms";
    public static final String DB_SLEEP_REQUIRED = "!(self.scenario in ['db', 'mixed']) || has(self.dbSleep)";
    public static final String DB_SLEEP_REQUIRED_MESSAGE = "spec.workload.dbSleep is required when scenario is db"
            + " or mixed: set the pg_sleep of the database call, e.g. dbSleep: 100ms";
    public static final String SLEEP_REQUIRED = "self.scenario != 'sleep' || has(self.sleep)";
    public static final String SLEEP_REQUIRED_MESSAGE = "spec.workload.sleep is required when scenario is sleep: set"
            + " how long each request waits inside the target, e.g. sleep: 1500ms";
    public static final String SLEEP_MAX = "!has(self.sleep) || !self.sleep" + MATCHES_DURATION
            + " || duration(self.sleep) <= duration('" + MAX_CALL_DELAY + "')";
    public static final String SLEEP_MAX_MESSAGE =
            "spec.workload.sleep must be at most " + MAX_CALL_DELAY + " (the target's limit): lower it";
    public static final long MAX_CALLS = 100;
    public static final long MAX_LOCK_GROUP = 50;
    public static final String CALLS_REQUIRED = "self.scenario != 'fanout' || has(self.calls)";
    public static final String CALLS_REQUIRED_MESSAGE = "spec.workload.calls is required when scenario is fanout:"
            + " set how many upstream calls each request makes, e.g. calls: 5";
    public static final String CALLS_ONLY_FANOUT = "self.scenario == 'fanout' || !has(self.calls)";
    public static final String CALLS_ONLY_FANOUT_MESSAGE =
            "spec.workload.calls is only used by scenario fanout: remove it, or set scenario: fanout";
    public static final String FANOUT_MODE_ONLY_FANOUT = "self.scenario == 'fanout' || !has(self.fanoutMode)";
    public static final String FANOUT_MODE_ONLY_FANOUT_MESSAGE =
            "spec.workload.fanoutMode is only used by scenario fanout: remove it, or set scenario: fanout";
    public static final String PROTOCOL_ONLY_UPSTREAM =
            "self.scenario in ['upstream', 'mixed', 'fanout'] || !has(self.upstreamProtocol)";
    public static final String PROTOCOL_ONLY_UPSTREAM_MESSAGE = "spec.workload.upstreamProtocol is only used by the"
            + " scenarios that call the delay service (upstream, mixed, fanout): remove it, or pick one of them";
    public static final String LOCK_GROUP_REQUIRED = "self.scenario != 'lock' || has(self.lockGroup)";
    public static final String LOCK_GROUP_REQUIRED_MESSAGE = "spec.workload.lockGroup is required when scenario is"
            + " lock: set how many concurrent changes of the same order each iteration sends, e.g. lockGroup: 3";
    public static final String LOCK_GROUP_ONLY_LOCK = "self.scenario == 'lock' || !has(self.lockGroup)";
    public static final String LOCK_GROUP_ONLY_LOCK_MESSAGE =
            "spec.workload.lockGroup is only used by scenario lock: remove it, or set scenario: lock";
    public static final String UPSTREAM_DELAY_MAX = "!has(self.upstreamDelay) || !self.upstreamDelay" + MATCHES_DURATION
            + " || duration(self.upstreamDelay) <= duration('" + MAX_CALL_DELAY + "')";
    public static final String UPSTREAM_DELAY_MAX_MESSAGE =
            "spec.workload.upstreamDelay must be at most " + MAX_CALL_DELAY + " (the delay service's limit): lower it";
    public static final String DB_SLEEP_MAX = "!has(self.dbSleep) || !self.dbSleep" + MATCHES_DURATION
            + " || duration(self.dbSleep) <= duration('" + MAX_CALL_DELAY + "')";
    public static final String DB_SLEEP_MAX_MESSAGE =
            "spec.workload.dbSleep must be at most " + MAX_CALL_DELAY + " (the database call's limit): lower it";
    public static final String DURATION_POSITIVE =
            "!has(self.duration) || !self.duration" + MATCHES_DURATION + " || duration(self.duration) > duration('0s')";
    public static final String DURATION_POSITIVE_MESSAGE =
            "spec.workload.duration must be longer than 0s: set the" + " measured time, e.g. duration: 60s";
    public static final String DURATION_MAX = "!has(self.duration) || !self.duration" + MATCHES_DURATION
            + " || duration(self.duration) <= duration('" + MAX_DURATION + "')";
    public static final String DURATION_MAX_MESSAGE = "spec.workload.duration must be at most " + MAX_DURATION
            + ": shorten it or split the experiment into several runs";
    public static final String WARMUP_MAX = "!has(self.warmup) || !self.warmup" + MATCHES_DURATION
            + " || duration(self.warmup) <= duration('" + MAX_WARMUP + "')";
    public static final String WARMUP_MAX_MESSAGE =
            "spec.workload.warmup must be at most " + MAX_WARMUP + ": shorten it";

    /** On the workload, as a sweep or a capacity search sets the rate of each step instead. */
    public static final String RATE_REQUIRED_CONSTANT = "!has(self.load) || !has(self.load.executor)"
            + " || self.load.executor != 'constant-arrival-rate' || has(self.load.rate) || has(self.sweep)"
            + " || has(self.capacity)";

    public static final String RATE_REQUIRED_CONSTANT_MESSAGE = "spec.workload.load.rate is required when executor"
            + " is constant-arrival-rate: set a rate in requests per second (or a sweep or a capacity search, which"
            + " set the rate of each step)";
    public static final String RATE_REQUIRED_RAMPING = "self.executor != 'ramping-arrival-rate' || has(self.rate)";
    public static final String RATE_REQUIRED_RAMPING_MESSAGE = "spec.workload.load.rate is required when executor"
            + " is ramping-arrival-rate: set the start rate in requests per second (the stages ramp from it)";
    /** On the workload, as a sweep sets the VUs of each step of constant-vus instead. */
    public static final String VUS_REQUIRED = "!has(self.load) || !has(self.load.executor)"
            + " || !(self.load.executor in ['constant-vus', 'ramping-vus', 'per-vu-iterations', 'shared-iterations'])"
            + " || has(self.load.vus) || (self.load.executor == 'constant-vus' && has(self.sweep))";

    public static final String VUS_REQUIRED_MESSAGE = "spec.workload.load.vus is required when executor is"
            + " constant-vus, ramping-vus, per-vu-iterations or shared-iterations: set the number of virtual users"
            + " (the start count for ramping-vus, the users sending at once for a burst; a sweep of constant-vus sets"
            + " the VUs of each step)";

    /** Steps of a sweep; each runs warmup + duration, so a long sweep is better split. */
    public static final long MAX_SWEEP_STEPS = 20;

    public static final String SWEEP_EXECUTOR = "!has(self.sweep) || !has(self.load) || !has(self.load.executor)"
            + " || self.load.executor in ['constant-arrival-rate', 'constant-vus']";
    public static final String SWEEP_EXECUTOR_MESSAGE = "spec.workload.sweep needs executor constant-arrival-rate"
            + " (levels in iterations per second) or constant-vus (levels in VUs): change the executor or remove the"
            + " sweep";
    public static final String SWEEP_REPLACES_LEVEL = "!has(self.sweep) || !has(self.load) || !has(self.load.executor)"
            + " || (self.load.executor == 'constant-vus' ? !has(self.load.vus) : !has(self.load.rate))";
    public static final String SWEEP_REPLACES_LEVEL_MESSAGE = "spec.workload.sweep sets the load of each step"
            + " (load.rate for constant-arrival-rate, load.vus for constant-vus): remove that field from load";
    public static final String SWEEP_ASCENDING = "!has(self.sweep) || self.sweep.isSorted()";
    public static final String SWEEP_ASCENDING_MESSAGE = "spec.workload.sweep must list its levels from the lowest to"
            + " the highest, each once, e.g. sweep: [50, 100, 200, 400]: a sweep stops at the first level that breaks"
            + " the stack";
    public static final String SWEEP_LEVELS_RANGE = "!has(self.sweep) || self.sweep.all(level, level >= 1"
            + " && level <= (has(self.load) && has(self.load.executor) && self.load.executor == 'constant-vus' ? "
            + MAX_VUS_TEXT + " : " + MAX_RATE_TEXT + "))";
    public static final String SWEEP_LEVELS_RANGE_MESSAGE = "spec.workload.sweep levels must be between 1 and "
            + MAX_RATE_TEXT + " iterations per second (constant-arrival-rate) or 1 and " + MAX_VUS_TEXT
            + " VUs (constant-vus): change the levels outside that range";
    public static final String CAPACITY_EXECUTOR = "!has(self.capacity) || !has(self.load)"
            + " || !has(self.load.executor) || self.load.executor == 'constant-arrival-rate'";
    public static final String CAPACITY_EXECUTOR_MESSAGE = "spec.workload.capacity searches over arrival rates: set"
            + " executor constant-arrival-rate (an open model, so a slow target shows as latency)";
    public static final String CAPACITY_REPLACES_RATE =
            "!has(self.capacity) || !has(self.load) || !has(self.load.rate)";
    public static final String CAPACITY_REPLACES_RATE_MESSAGE =
            "spec.workload.capacity sets the rate of each probe:" + " remove spec.workload.load.rate";
    public static final String SWEEP_OR_CAPACITY = "!(has(self.sweep) && has(self.capacity))";
    public static final String SWEEP_OR_CAPACITY_MESSAGE = "spec.workload.capacity and spec.workload.sweep cannot"
            + " both be set: keep sweep (levels you choose) or capacity (a search for the highest rate that meets an"
            + " objective), and use two runs for both";
    public static final String RESTART_NEEDS_STEPS =
            "!has(self.restartBetweenSteps) || has(self.sweep) || has(self.capacity)";
    public static final String RESTART_NEEDS_STEPS_MESSAGE = "spec.workload.restartBetweenSteps is only used with a"
            + " sweep or a capacity search: remove it, or add sweep or capacity";
    public static final String CONTINUE_NEEDS_SWEEP = "!has(self.continueAfterBreak) || has(self.sweep)";
    public static final String CONTINUE_NEEDS_SWEEP_MESSAGE = "spec.workload.continueAfterBreak is only used with a"
            + " sweep (a capacity search always stops where the objective breaks): remove it, or add a sweep";
    public static final String CAPACITY_FROM_BELOW_TO = "self.from < self.to";
    public static final String CAPACITY_FROM_BELOW_TO_MESSAGE =
            "spec.workload.capacity.from must be below" + " capacity.to: the search probes rates from from up to to";
    public static final String OBJECTIVE_NOT_EMPTY = "has(self.p95) || has(self.errorRate)";
    public static final String OBJECTIVE_NOT_EMPTY_MESSAGE = "spec.workload.capacity.objective needs p95 or"
            + " errorRate (or both), e.g. objective: {p95: 450ms, errorRate: 0.01}";
    public static final String OBJECTIVE_P95_FORMAT_MESSAGE =
            "spec.workload.capacity.objective.p95" + DURATION_FORMAT_HINT;
    /** 0.1% to 100%. */
    public static final String RESOLUTION_PATTERN = "^(100|[1-9][0-9]?([.][0-9]+)?|0[.][1-9][0-9]*)%$";

    public static final String RESOLUTION_FORMAT = "self.matches('" + RESOLUTION_PATTERN + "')";
    public static final String RESOLUTION_FORMAT_MESSAGE =
            "spec.workload.capacity.resolution must be a percentage" + " from 0.1% to 100%, e.g. resolution: 5%";
    public static final long MAX_ITERATIONS = 1_000_000;
    public static final String ITERATIONS_ONLY_BURST =
            "self.executor in ['per-vu-iterations', 'shared-iterations'] || !has(self.iterations)";
    public static final String ITERATIONS_ONLY_BURST_MESSAGE = "spec.workload.load.iterations is only used by the"
            + " burst executors: remove it, or use executor per-vu-iterations or shared-iterations";
    public static final String SHARED_ITERATIONS_COVER_VUS = "self.executor != 'shared-iterations'"
            + " || !has(self.iterations) || !has(self.vus) || self.iterations >= self.vus";
    public static final String SHARED_ITERATIONS_COVER_VUS_MESSAGE = "spec.workload.load.iterations of"
            + " shared-iterations is the total for all VUs and must be at least vus (otherwise some VUs send"
            + " nothing): raise iterations or lower vus";
    public static final String STAGES_REQUIRED = "!(self.executor in ['ramping-arrival-rate', 'ramping-vus'])"
            + " || (has(self.stages) && size(self.stages) > 0)";
    public static final String STAGES_REQUIRED_MESSAGE = "spec.workload.load.stages is required when executor is"
            + " ramping-arrival-rate or ramping-vus: add at least one stage {duration, target}";
    public static final String STAGES_ONLY_RAMPING =
            "self.executor in ['ramping-arrival-rate', 'ramping-vus'] || !has(self.stages)";
    public static final String STAGES_ONLY_RAMPING_MESSAGE = "spec.workload.load.stages is only used by ramping"
            + " executors: remove stages, or use executor ramping-arrival-rate or ramping-vus";
    public static final String RATE_ONLY_ARRIVAL =
            "self.executor in ['constant-arrival-rate', 'ramping-arrival-rate'] || !has(self.rate)";
    public static final String RATE_ONLY_ARRIVAL_MESSAGE = "spec.workload.load.rate is only used by arrival-rate"
            + " executors: remove rate and set vus, or use executor constant-arrival-rate";
    public static final String PREALLOCATED_ONLY_ARRIVAL =
            "self.executor in ['constant-arrival-rate', 'ramping-arrival-rate'] || !has(self.preAllocatedVUs)";
    public static final String PREALLOCATED_ONLY_ARRIVAL_MESSAGE = "spec.workload.load.preAllocatedVUs is only used"
            + " by arrival-rate executors: remove it, or use executor constant-arrival-rate";
    public static final String PREALLOCATED_WITHIN_VUS =
            "!has(self.preAllocatedVUs) || !has(self.vus) || self.preAllocatedVUs <= self.vus";
    public static final String PREALLOCATED_WITHIN_VUS_MESSAGE = "spec.workload.load.preAllocatedVUs must not exceed"
            + " vus (the most VUs the executor may use): lower preAllocatedVUs or raise vus";

    public static final String SCRIPT_SOURCE_REQUIRED = "has(self.configMapRef) || has(self.file)";
    public static final String SCRIPT_SOURCE_REQUIRED_MESSAGE = "spec.workload.script needs configMapRef (cluster"
            + " mode) or file (local mode): name the k6 module to run";

    /** Tolerations per role: enough for any node pool, and a bound that keeps the CEL rules below cheap. */
    public static final long MAX_TOLERATIONS = 20;
    /**
     * The taint effects Kubernetes knows, as a CEL list; the empty effect tolerates every effect. The Java check
     * reads the same list ({@link #celStrings}).
     */
    public static final String TAINT_EFFECTS = "['', 'NoSchedule', 'PreferNoSchedule', 'NoExecute']";
    /** The toleration operators Kubernetes knows, as a CEL list; the empty operator means Equal. */
    public static final String TOLERATION_OPERATORS = "['', 'Equal', 'Exists']";
    /*
     * Tolerations are checked at admission rather than left to the Deployment: a toleration the API server refuses
     * there would only fail the run once it holds its node pools. The rules sit on the tolerations list of a type
     * the three roles share, so the messages name the field relative to the list.
     */
    public static final String TOLERATION_EFFECT = "self.all(t, !has(t.effect) || t.effect in " + TAINT_EFFECTS + ")";
    public static final String TOLERATION_EFFECT_MESSAGE = "each toleration's effect must be NoSchedule,"
            + " PreferNoSchedule or NoExecute (the effect of the taint to tolerate), or left out to tolerate every"
            + " effect: write e.g. effect: NoSchedule";
    public static final String TOLERATION_OPERATOR =
            "self.all(t, !has(t.operator) || t.operator in " + TOLERATION_OPERATORS + ")";
    public static final String TOLERATION_OPERATOR_MESSAGE = "each toleration's operator must be Equal (the taint"
            + " has the given value) or Exists (any value; leave value out): write e.g. operator: Equal";

    /** Comparisons: at most this many variants and repetitions, so a comparison stays a bounded amount of work. */
    public static final long MAX_COMPARISON_VARIANTS = 10;

    public static final long MAX_REPETITIONS = 100;
    /** A variant's name appears in its runs' names ({@code <comparison>-<name>-r<round>}), which stay short. */
    public static final long MAX_COMPARISON_LABEL = 30;
    /**
     * The longest name of a BenchmarkRun. k6-operator names objects after the run's TestRun ({@code <run>-k6}, or
     * {@code <run>-s<step>} for a sweep or capacity step, up to 99): the initializer Job {@code <testrun>-initializer},
     * whose name is also its pods' {@code job-name} label, and the runners' Services {@code
     * <testrun>-service-<n>}, DNS labels; both are at most 63 characters, so 63 - 12 - 4.
     */
    public static final int MAX_RUN_NAME = 47;

    /** CEL on the BenchmarkRun object: the API server refuses a longer name at once (the operator checks it too). */
    public static final String RUN_NAME_LENGTH = "self.metadata.name.size() <= 47";

    public static final String RUN_NAME_LENGTH_MESSAGE = "metadata.name must be at most 47 characters: k6-operator"
            + " names Jobs and Services after the run, up to 16 characters longer, and Kubernetes allows 63";

    /** The longest name of a comparison's run: every run's limit. */
    public static final int MAX_CHILD_RUN_NAME = MAX_RUN_NAME;
    /** The figures a comparison can compare, as a CEL list. */
    public static final String COMPARISON_METRIC_NAMES =
            "['rps', 'p50', 'p90', 'p95', 'p99', 'max', 'errorRate'," + " 'capacity']";

    public static final String COMPARISON_METRICS = "self.all(m, m in " + COMPARISON_METRIC_NAMES + ")";
    public static final String COMPARISON_METRICS_MESSAGE =
            "spec.metrics may hold rps, p50, p90, p95, p99, max, errorRate"
                    + " and capacity (for a template with workload.capacity): remove or fix the others";
    public static final String COMPARISON_LABELS_UNIQUE = "!has(self.variants) || self.variants.all(a,"
            + " self.variants.exists_one(b, (has(b.name) ? b.name : b.variant) == (has(a.name) ? a.name :"
            + " a.variant)))";
    public static final String COMPARISON_LABELS_UNIQUE_MESSAGE = "spec.variants: two entries have the same name"
            + " (the variant, unless name is set): give each a name of its own, e.g. name: mvc-200-threads";

    /** The strings of a CEL list literal such as {@code ['a', 'b']}, for the Java side of a rule. */
    public static java.util.List<String> celStrings(String celList) {
        java.util.List<String> values = new java.util.ArrayList<>();
        java.util.regex.Matcher matcher =
                java.util.regex.Pattern.compile("'([^']*)'").matcher(celList);
        while (matcher.find()) {
            values.add(matcher.group(1));
        }
        return java.util.List.copyOf(values);
    }

    private SpecRules() {}
}
