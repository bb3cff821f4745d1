package dev.stackbench.k6;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stackbench.api.Durations;
import dev.stackbench.api.SpecRules;
import dev.stackbench.api.run.BenchmarkRunDefaults;
import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.run.Executor;
import dev.stackbench.api.run.LoadSpec;
import dev.stackbench.api.run.Scenario;
import dev.stackbench.api.run.Stage;
import dev.stackbench.api.run.UpstreamProtocol;
import dev.stackbench.api.run.WorkloadSpec;
import dev.stackbench.catalogue.VariantCatalogue;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a BenchmarkRun spec into one k6 script. The script runs two scenarios with the same load: {@code warmup}
 * first, then {@code measure} starting when the warmup ends; every figure stackbench reports comes from the measure
 * scenario's tagged sub-metrics and from latency buckets counted only during it (see {@link LatencyBuckets}).
 *
 * <p>Ramping executors warm up at their start value (constant-arrival-rate at {@code rate}, or constant-vus at
 * {@code vus}), then measure the stages; when the stages are shorter than {@code duration}, the last target is held
 * until {@code duration} is reached.
 */
public final class K6ScriptGenerator {

    public static final Duration GRACEFUL_STOP = Duration.ofSeconds(30);
    /** How long k6 waits for a response unless told otherwise. */
    private static final Duration K6_DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    /** Time a request takes beyond its nominal wait (network, JSON, scheduling), for sizing VU pools. */
    private static final double OVERHEAD_SECONDS = 0.05;

    private static final int MIN_VUS = 10;
    /** Each VU costs memory in the load generator; beyond this many, k6 initialises more while running. */
    private static final int MAX_DEFAULT_PREALLOCATED = 1_000;
    /** Items the contract seeds; orders pick one of them at random. */
    private static final int SEEDED_ITEMS = 10_000;

    /**
     * The built-in scenarios check the body of one response in this many per VU (and every response with an
     * unexpected status): parsing and checking every body would cost k6 more CPU than sending the request.
     */
    public static final int VERIFY_EVERY = 50;

    /** The JavaScript module of the stackbench output (hack/k6) that counts the latency buckets for a script. */
    public static final String OUTPUT_MODULE = "k6/x/stackbench";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** The script counts each measured response in its latency bucket itself, as a sub-metric of a k6 Counter. */
    private static final String COUNTER_BUCKETS = """
            // k6 cannot merge percentiles across runners; counts per fixed latency bucket add up exactly. Each
            // bucket is a sub-metric (tagged with its index, with a threshold so that k6 reports it) of one of a
            // few counters: k6 compares every sample with each sub-metric of its counter, and every VU makes
            // every counter, so groups of about the square root of the bucket count keep both costs low.
            const BUCKET_GROUPS = [];
            for (let group = 0; group < BUCKETS.groups; group++) {
              BUCKET_GROUPS.push(new Counter(BUCKETS.metric + '_' + String(group).padStart(2, '0')));
            }
            // The tags of bucket i, made when a request first falls into it (making all of them costs every VU).
            const BUCKET_TAGS = [];
            function bucketTags(index) {
              const tags = { [BUCKETS.tag]: String(index).padStart(4, '0') };
              BUCKET_TAGS[index] = tags;
              return tags;
            }
            const LOG_GROWTH = Math.log(BUCKETS.growth);
            const MIN_MS = BUCKETS.minMs;
            const LAST_BUCKET = BUCKETS.count - 1;
            """;

    private static final String COUNTER_RECORD = """

              const ms = response.timings.duration;
              const index = ms > MIN_MS ? Math.floor(Math.log(ms / MIN_MS) / LOG_GROWTH) : 0;
              const bucket = index < LAST_BUCKET ? index : LAST_BUCKET;
              BUCKET_GROUPS[Math.floor(bucket / BUCKETS.groupSize)].add(1, BUCKET_TAGS[bucket] || bucketTags(bucket));
            """.stripTrailing();

    /**
     * The stackbench output of the k6 that runs the script counts the measured latencies from the samples it gets
     * anyway (hack/k6), and handleSummary reads them from it.
     */
    private static final String OUTPUT_BUCKETS = """
            // k6 cannot merge percentiles across runners; counts per fixed latency bucket add up exactly. The
            // stackbench output of this k6 counts every request of the measure scenario in these buckets from the
            // http_req_duration samples it receives anyway, with the formula of LatencyBuckets, so no response costs
            // this script a sample of its own; handleSummary takes the counts from it.
            countLatencies(MEASURE, BUCKETS.minMs, BUCKETS.growth, BUCKETS.count);
            """;

    /** One response in this many per VU has its body checked. */
    private final int verifyEvery;

    /** Whether the k6 that runs the scripts has the stackbench output, to count the latency buckets (hack/k6). */
    private final boolean outputCountsLatency;

    /** Scripts for loads: one body checked in {@link #VERIFY_EVERY}; for any k6. */
    public K6ScriptGenerator() {
        this(VERIFY_EVERY, false);
    }

    private K6ScriptGenerator(int verifyEvery, boolean outputCountsLatency) {
        this.verifyEvery = verifyEvery;
        this.outputCountsLatency = outputCountsLatency;
    }

    /**
     * Scripts for a k6 that runs with the stackbench output ({@code --out stackbench=...}, hack/k6): the output counts
     * the measured latencies in their buckets, which costs k6 less CPU per request than the script's own count. A
     * custom module's scripts still count in the script, since the module chooses which responses count. Such a
     * script needs that k6: another one refuses its import of {@value #OUTPUT_MODULE}.
     */
    public K6ScriptGenerator withLatencyCountedByTheOutput() {
        return new K6ScriptGenerator(verifyEvery, true);
    }

    /**
     * Scripts for loads run by a k6 with stackbench's output ({@link #withLatencyCountedByTheOutput}) or by any other
     * k6: what local mode and the operator choose from what they know of their k6.
     */
    public static K6ScriptGenerator forK6(boolean stackbenchOutput) {
        K6ScriptGenerator generator = new K6ScriptGenerator();
        return stackbenchOutput ? generator.withLatencyCountedByTheOutput() : generator;
    }

    /**
     * Scripts that check the body of every response with the load's own checks: for the few requests that verify a
     * variant before it is measured, where a sampled body could let a wrong answer through.
     */
    public static K6ScriptGenerator checkingEveryResponse() {
        return new K6ScriptGenerator(1, false);
    }

    /** Script for a built-in scenario. */
    public K6Script generate(BenchmarkRunSpec spec) {
        return generate(spec, null);
    }

    /**
     * Script for any scenario.
     *
     * @param customModule for scenario custom: the import specifier of the user's module (e.g. "./custom.js"), whose
     *     default export is called once per iteration with {baseUrl, variant, record}
     */
    public K6Script generate(BenchmarkRunSpec original, String customModule) {
        BenchmarkRunSpec spec = BenchmarkRunDefaults.apply(copy(original));
        WorkloadSpec workload = spec.getWorkload();
        if (workload != null && workload.isStepped()) {
            throw new IllegalArgumentException("a sweep or a capacity search runs one script per step: generate the"
                    + " script of a step's spec (SteppedLoad.specFor)");
        }
        if (workload == null || workload.getLoad() == null || workload.getScenario() == null) {
            throw new IllegalArgumentException("spec.workload with scenario and load is required to generate a k6"
                    + " script: validate the spec first");
        }
        Scenario scenario = workload.getScenario();
        if (scenario == Scenario.CUSTOM && (customModule == null || customModule.isBlank())) {
            throw new IllegalArgumentException("scenario custom needs the module of spec.workload.script: pass its"
                    + " import path (e.g. ./custom.js)");
        }
        LoadSpec load = workload.getLoad();
        Duration warmup = Durations.parse(workload.getWarmup());
        Duration measured = measuredDuration(workload);
        int requestsPerIteration = requestsPerIteration(workload);
        VuPlan vus = planVus(spec, requestsPerIteration);

        ObjectNode options = JSON.createObjectNode();
        options.put("discardResponseBodies", false);
        options.put("userAgent", "stackbench-k6");
        if (scenario.contendsForLock()) {
            // A lock group is one http.batch: all of its requests must be in flight at once.
            options.put("batch", workload.getLockGroup());
            options.put("batchPerHost", workload.getLockGroup());
        }
        ArrayNode trendStats = options.putArray("summaryTrendStats");
        for (String stat : List.of("min", "avg", "med", "p(50)", "p(90)", "p(95)", "p(99)", "max", "count")) {
            trendStats.add(stat);
        }
        ObjectNode scenarios = options.putObject("scenarios");
        String requestName = requestName(scenario);
        if (!warmup.isZero()) {
            ObjectNode warmupScenario = warmupScenario(load, warmup, vus);
            warmupScenario.put("exec", K6Env.WARMUP_SCENARIO);
            nameRequests(warmupScenario, requestName);
            scenarios.set(K6Env.WARMUP_SCENARIO, warmupScenario);
        }
        ObjectNode measure = measureScenario(load, workload, measured, vus);
        measure.put("startTime", Durations.format(warmup));
        measure.put("exec", K6Env.MEASURE_SCENARIO);
        nameRequests(measure, requestName);
        scenarios.set(K6Env.MEASURE_SCENARIO, measure);
        boolean outputBuckets = outputCountsLatency && scenario != Scenario.CUSTOM;
        options.set("thresholds", thresholds(workload.getThresholds(), !outputBuckets));
        boolean burst = load.getExecutor().isBurst();

        String text = template()
                .replace(
                        "__OUTPUT_IMPORT__",
                        outputBuckets
                                ? "\nimport { countLatencies, latencyBuckets } from '" + OUTPUT_MODULE + "';"
                                : "")
                .replace("__LATENCY_COUNTING__\n", outputBuckets ? OUTPUT_BUCKETS : COUNTER_BUCKETS)
                .replace("__RECORD_LATENCY__", outputBuckets ? "" : COUNTER_RECORD)
                .replace("__SUMMARY_LATENCY__", outputBuckets ? "\n    latencyBuckets: latencyBuckets()," : "")
                .replace(
                        "__CUSTOM_IMPORT__",
                        scenario == Scenario.CUSTOM
                                ? "import customIteration from " + jsString(customModule) + ";\n"
                                : "")
                .replace(
                        "__VARIANT__",
                        jsString(
                                spec.getTarget() == null ? "" : spec.getTarget().getVariant()))
                .replace("__WORKLOAD__", toJson(workloadConstants(workload)))
                .replace("__BUCKETS__", toJson(bucketConstants()))
                .replace(
                        "__SUMMARY__", toJson(summaryConstants(warmup, measured, requestsPerIteration, scenario, load)))
                .replace("__OPTIONS__", toJson(options))
                .replace("__K6_DEFAULT_TIMEOUT__", jsString(Durations.format(K6_DEFAULT_TIMEOUT)))
                .replace("__ITERATION__", iteration(scenario));
        return new K6Script(text, warmup, measured, GRACEFUL_STOP, requestsPerIteration, vus.preAllocated(), vus.max());
    }

    /**
     * The name tag of the requests of a scenario whose iterations send one kind of request (a threshold may filter on
     * it, e.g. http_req_duration{name:upstream}); null for the scenarios that name each request themselves.
     */
    static String requestName(Scenario scenario) {
        return switch (scenario) {
            case UPSTREAM, DB, MIXED, ROWS, SLEEP, FANOUT -> scenario.value();
            case ORDERS, LOCK, CUSTOM -> null;
        };
    }

    /** Tags every sample of a scenario with its requests' name: free per request, unlike a tag given per request. */
    private static void nameRequests(ObjectNode k6Scenario, String requestName) {
        if (requestName != null) {
            k6Scenario.putObject("tags").put("name", requestName);
        }
    }

    /** The measured window: duration, or for ramping executors the stages held at their last target up to it. */
    public static Duration measuredDuration(WorkloadSpec workload) {
        Duration duration = Durations.parse(
                workload.getDuration() == null ? BenchmarkRunDefaults.DURATION : workload.getDuration());
        LoadSpec load = workload.getLoad();
        Executor executor =
                load.getExecutor() == null ? Executor.fromValue(BenchmarkRunDefaults.EXECUTOR) : load.getExecutor();
        if (!executor.isRamping() || load.getStages() == null) {
            return duration;
        }
        Duration stages = stagesDuration(load.getStages());
        return stages.compareTo(duration) >= 0 ? stages : duration;
    }

    private static Duration stagesDuration(List<Stage> stages) {
        return stages.stream()
                .map(stage -> Durations.parse(stage.getDuration()))
                .reduce(Duration.ZERO, Duration::plus);
    }

    /**
     * How long a request may wait for its answer: k6's default of 60 s, and for a burst its whole time limit, since
     * the last requests of a burst queue behind all the others and cutting them off would hide the makespan.
     */
    static Duration requestTimeout(WorkloadSpec workload) {
        Duration k6Default = K6_DEFAULT_TIMEOUT;
        if (!workload.getLoad().getExecutor().isBurst()) {
            return k6Default;
        }
        Duration limit = measuredDuration(workload);
        return limit.compareTo(k6Default) > 0 ? limit : k6Default;
    }

    /** HTTP requests one iteration of a built-in scenario sends. */
    public static int requestsPerIteration(WorkloadSpec workload) {
        return switch (workload.getScenario()) {
            case ORDERS -> 2;
            case LOCK -> 1 + workload.getLockGroup();
            default -> 1;
        };
    }

    private record VuPlan(int preAllocated, int max) {}

    /** The most VUs the generated script lets k6 use for this spec (defaults applied to a copy). */
    public static int maxVus(BenchmarkRunSpec original) {
        BenchmarkRunSpec spec = BenchmarkRunDefaults.apply(copy(original));
        return planVus(spec, requestsPerIteration(spec.getWorkload())).max();
    }

    /**
     * Enough VUs for the rate at the nominal service time, with room for the target slowing down. k6 drops an
     * iteration when no initialised VU is idle (initialising one takes time), so VUs are pre-allocated for requests
     * taking twice their nominal time and at least half a second, as a cold target answers slowly.
     */
    private static VuPlan planVus(BenchmarkRunSpec spec, int requestsPerIteration) {
        WorkloadSpec workload = spec.getWorkload();
        LoadSpec load = workload.getLoad();
        if (!load.getExecutor().isArrivalRate()) {
            int peak = load.getVus();
            if (load.getStages() != null) {
                for (Stage stage : load.getStages()) {
                    peak = Math.max(peak, stage.getTarget());
                }
            }
            return new VuPlan(0, peak);
        }
        double peakRate = load.getRate();
        if (load.getStages() != null) {
            for (Stage stage : load.getStages()) {
                peakRate = Math.max(peakRate, stage.getTarget());
            }
        }
        double waitSeconds = VariantCatalogue.nominalServiceTime(workload)
                .map(Durations::seconds)
                .orElse(0.0);
        double iterationSeconds = (waitSeconds + OVERHEAD_SECONDS) * requestsPerIteration;
        int max = load.getVus() != null
                ? load.getVus()
                : (int) Math.min(
                        SpecRules.MAX_VUS,
                        Math.max(MIN_VUS, Math.ceil(peakRate * Math.max(1.0, 4 * iterationSeconds))));
        int preAllocated = load.getPreAllocatedVUs() != null
                ? load.getPreAllocatedVUs()
                : (int) Math.min(
                        MAX_DEFAULT_PREALLOCATED,
                        Math.max(MIN_VUS, Math.ceil(peakRate * Math.max(0.5, 2 * iterationSeconds))));
        return new VuPlan(Math.min(preAllocated, max), max);
    }

    private static ObjectNode warmupScenario(LoadSpec load, Duration warmup, VuPlan vus) {
        ObjectNode scenario = JSON.createObjectNode();
        if (load.getExecutor().isBurst()) {
            // A burst warms up with a smaller burst of its own, one request per user, over before measuring starts.
            scenario.put("executor", Executor.PER_VU_ITERATIONS.value());
            scenario.put("vus", warmupBurstVus(load));
            scenario.put("iterations", 1);
            scenario.put("maxDuration", Durations.format(warmup));
        } else if (load.getExecutor().isArrivalRate()) {
            scenario.put("executor", Executor.CONSTANT_ARRIVAL_RATE.value());
            scenario.put("rate", load.getRate());
            scenario.put("timeUnit", "1s");
            scenario.put("duration", Durations.format(warmup));
            scenario.put("preAllocatedVUs", vus.preAllocated());
            scenario.put("maxVUs", vus.max());
        } else {
            scenario.put("executor", Executor.CONSTANT_VUS.value());
            scenario.put("vus", load.getVus());
            scenario.put("duration", Durations.format(warmup));
        }
        scenario.put("gracefulStop", Durations.format(GRACEFUL_STOP));
        return scenario;
    }

    private static ObjectNode measureScenario(LoadSpec load, WorkloadSpec workload, Duration measured, VuPlan vus) {
        ObjectNode scenario = JSON.createObjectNode();
        Executor executor = load.getExecutor();
        scenario.put("executor", executor.value());
        switch (executor) {
            case CONSTANT_ARRIVAL_RATE -> {
                scenario.put("rate", load.getRate());
                scenario.put("timeUnit", "1s");
                scenario.put("duration", Durations.format(measured));
                scenario.put("preAllocatedVUs", vus.preAllocated());
                scenario.put("maxVUs", vus.max());
            }
            case RAMPING_ARRIVAL_RATE -> {
                scenario.put("startRate", load.getRate());
                scenario.put("timeUnit", "1s");
                scenario.put("preAllocatedVUs", vus.preAllocated());
                scenario.put("maxVUs", vus.max());
                scenario.set("stages", stages(load.getStages(), measured));
            }
            case CONSTANT_VUS -> {
                scenario.put("vus", load.getVus());
                scenario.put("duration", Durations.format(measured));
            }
            case RAMPING_VUS -> {
                scenario.put("startVUs", load.getVus());
                scenario.set("stages", stages(load.getStages(), measured));
                scenario.put("gracefulRampDown", Durations.format(GRACEFUL_STOP));
            }
            case PER_VU_ITERATIONS -> {
                scenario.put("vus", load.getVus());
                scenario.put("iterations", load.getIterations() == null ? 1 : load.getIterations());
                scenario.put("maxDuration", Durations.format(measured));
            }
            case SHARED_ITERATIONS -> {
                scenario.put("vus", load.getVus());
                scenario.put("iterations", load.burstIterations());
                scenario.put("maxDuration", Durations.format(measured));
            }
        }
        scenario.put("gracefulStop", Durations.format(GRACEFUL_STOP));
        return scenario;
    }

    /** A tenth of the burst's users, at least one: enough to load the classes and JIT the request path. */
    public static int warmupBurstVus(LoadSpec load) {
        return Math.max(1, (int) Math.ceil(load.getVus() / 10.0));
    }

    private static ArrayNode stages(List<Stage> stages, Duration measured) {
        ArrayNode nodes = JSON.createArrayNode();
        for (Stage stage : stages) {
            nodes.addObject()
                    .put("duration", Durations.format(Durations.parse(stage.getDuration())))
                    .put("target", stage.getTarget());
        }
        Duration hold = measured.minus(stagesDuration(stages));
        if (!hold.isZero() && !hold.isNegative()) {
            nodes.addObject()
                    .put("duration", Durations.format(hold))
                    .put("target", stages.get(stages.size() - 1).getTarget());
        }
        return nodes;
    }

    /**
     * User thresholds apply to the measure scenario's sub-metrics; reporting sub-metrics (the measure scenario's,
     * the status codes', the latency buckets') get an always-true threshold because k6 only reports tagged
     * sub-metrics that have one.
     */
    static ObjectNode thresholds(Map<String, List<String>> userThresholds) {
        return thresholds(userThresholds, true);
    }

    /**
     * @param bucketSubMetrics whether the script counts the latency buckets as sub-metrics (not when the stackbench
     *     output counts them)
     */
    static ObjectNode thresholds(Map<String, List<String>> userThresholds, boolean bucketSubMetrics) {
        Map<String, Set<String>> byMetric = new LinkedHashMap<>();
        for (String[] reporting : new String[][] {
            {"http_reqs", "count>=0"},
            {"http_req_failed", "rate>=0"},
            {"http_req_duration", "max>=0"},
            {"iterations", "count>=0"},
            {"dropped_iterations", "count>=0"},
            {"checks", "rate>=0"}
        }) {
            byMetric.computeIfAbsent(K6Env.measureMetric(reporting[0]), key -> new LinkedHashSet<>())
                    .add(reporting[1]);
        }
        for (int status : K6Metrics.COUNTED_STATUSES) {
            byMetric.computeIfAbsent(K6Metrics.statusMetric(status), key -> new LinkedHashSet<>())
                    .add("count>=0");
        }
        for (int bucket = 0; bucketSubMetrics && bucket < LatencyBuckets.COUNT; bucket++) {
            byMetric.computeIfAbsent(LatencyBuckets.metricName(bucket), key -> new LinkedHashSet<>())
                    .add("count>=0");
        }
        if (userThresholds != null) {
            userThresholds.forEach((metric, expressions) -> byMetric.computeIfAbsent(
                            K6Env.measureMetric(metric), key -> new LinkedHashSet<>())
                    .addAll(expressions == null ? List.of() : expressions));
        }
        ObjectNode thresholds = JSON.createObjectNode();
        byMetric.forEach((metric, expressions) -> {
            ArrayNode list = thresholds.putArray(metric);
            expressions.forEach(list::add);
        });
        return thresholds;
    }

    private static ObjectNode workloadConstants(WorkloadSpec workload) {
        ObjectNode node = JSON.createObjectNode();
        node.put("scenario", workload.getScenario().value());
        if (workload.getUpstreamDelay() != null) {
            node.put(
                    "upstreamDelayMs",
                    Durations.parse(workload.getUpstreamDelay()).toMillis());
        }
        if (workload.getDbSleep() != null) {
            node.put("dbSleepMs", Durations.parse(workload.getDbSleep()).toMillis());
        }
        if (workload.getSleep() != null) {
            node.put("sleepMs", Durations.parse(workload.getSleep()).toMillis());
        }
        if (workload.getCalls() != null) {
            node.put("calls", workload.getCalls());
        }
        if (workload.getFanoutMode() != null) {
            node.put("fanoutMode", workload.getFanoutMode().value());
        }
        if (workload.getLockGroup() != null) {
            node.put("lockGroup", workload.getLockGroup());
        }
        // Left out for http, the targets' default, so the requests are the same as before the parameter existed.
        boolean rsocket = workload.getUpstreamProtocol() == UpstreamProtocol.RSOCKET;
        node.put("protocolParam", rsocket ? "&protocol=rsocket" : "");
        node.put("protocol", rsocket ? UpstreamProtocol.RSOCKET.value() : UpstreamProtocol.HTTP.value());
        node.put("rowCount", workload.getRowCount());
        node.put("requestTimeout", Durations.format(requestTimeout(workload)));
        node.put("seededItems", SEEDED_ITEMS);
        return node;
    }

    private static ObjectNode bucketConstants() {
        ObjectNode node = JSON.createObjectNode();
        node.put("minMs", LatencyBuckets.MIN_MS);
        node.put("growth", LatencyBuckets.GROWTH);
        node.put("count", LatencyBuckets.COUNT);
        node.put("metric", LatencyBuckets.METRIC);
        node.put("tag", LatencyBuckets.TAG);
        node.put("groupSize", LatencyBuckets.GROUP_SIZE);
        node.put("groups", LatencyBuckets.GROUPS);
        return node;
    }

    private ObjectNode summaryConstants(
            Duration warmup, Duration measured, int requestsPerIteration, Scenario scenario, LoadSpec load) {
        ObjectNode node = JSON.createObjectNode();
        node.put("burst", load.getExecutor().isBurst());
        node.put("plannedIterations", load.burstIterations());
        node.put("format", K6Env.SUMMARY_FORMAT);
        node.put("begin", K6Env.SUMMARY_BEGIN);
        node.put("end", K6Env.SUMMARY_END);
        node.put("scenario", scenario.value());
        node.put("warmupSeconds", Durations.seconds(warmup));
        node.put("measuredSeconds", Durations.seconds(measured));
        node.put("requestsPerIteration", requestsPerIteration);
        node.put("windowLateMetric", K6Env.WINDOW_LATE_METRIC);
        node.put("windowFromWarmupMetric", K6Env.WINDOW_FROM_WARMUP_METRIC);
        node.put("verifyEvery", verifyEvery);
        node.put("burstSentMetric", K6Metrics.BURST_SENT_AT);
        node.put("burstDoneMetric", K6Metrics.BURST_DONE_AT);
        return node;
    }

    private static String iteration(Scenario scenario) {
        return switch (scenario) {
            case UPSTREAM -> """
                    // The URL, parameters and checks are built once: an iteration only sends and counts.
                    const URL = BASE_URL + '/api/upstream?delayMs=' + WORKLOAD.upstreamDelayMs + WORKLOAD.protocolParam;
                    const CHECKS = { 'upstream: protocol': (json) => json.protocol === WORKLOAD.protocol };

                    function iteration() {
                      verifySample(http.get(URL, PARAMS), 200, 'upstream', CHECKS);
                    }
                    """;
            case DB -> """
                    const URL = BASE_URL + '/api/db?sleepMs=' + WORKLOAD.dbSleepMs;

                    function iteration() {
                      verifySample(http.get(URL, PARAMS), 200, 'db');
                    }
                    """;
            case MIXED -> """
                    const URL = BASE_URL + '/api/mixed?delayMs=' + WORKLOAD.upstreamDelayMs
                      + '&sleepMs=' + WORKLOAD.dbSleepMs + WORKLOAD.protocolParam;
                    const CHECKS = { 'mixed: protocol': (json) => json.protocol === WORKLOAD.protocol };

                    function iteration() {
                      verifySample(http.get(URL, PARAMS), 200, 'mixed', CHECKS);
                    }
                    """;
            case SLEEP -> """
                    const URL = BASE_URL + '/api/sleep?sleepMs=' + WORKLOAD.sleepMs;

                    function iteration() {
                      verifySample(http.get(URL, PARAMS), 200, 'sleep');
                    }
                    """;
            case FANOUT -> """
                    const FANOUT_MODE = WORKLOAD.fanoutMode ? '&mode=' + WORKLOAD.fanoutMode : '';
                    const URL = BASE_URL + '/api/fanout?delayMs=' + WORKLOAD.upstreamDelayMs
                      + '&calls=' + WORKLOAD.calls + FANOUT_MODE + WORKLOAD.protocolParam;
                    const CHECKS = {
                      'fanout: call count': (json) => json.count === WORKLOAD.calls,
                      'fanout: protocol': (json) => json.protocol === WORKLOAD.protocol,
                    };

                    function iteration() {
                      verifySample(http.get(URL, PARAMS), 200, 'fanout', CHECKS);
                    }
                    """;
            case LOCK -> """
                    const JSON_HEADERS = { 'Content-Type': 'application/json' };
                    // 409 is the answer a loser of the lock must get, not a failure.
                    const LOCK_PARAMS = { headers: JSON_HEADERS, timeout: WORKLOAD.requestTimeout,
                      tags: { name: 'order-lock' }, responseCallback: http.expectedStatuses(200, 409) };
                    const lockGroups = new Counter('stackbench_lock_groups');
                    const lockGroupsCorrect = new Counter('stackbench_lock_groups_correct');
                    const lockGroupsSeveralWinners = new Counter('stackbench_lock_groups_several_winners');
                    const lockGroupsNoWinner = new Counter('stackbench_lock_groups_no_winner');
                    const lockGroupsWithErrors = new Counter('stackbench_lock_groups_with_errors');
                    const lockWait = new Trend('stackbench_lock_wait_ms');

                    // One iteration creates an order, then sends lockGroup concurrent NEW -> PAID changes of it: the
                    // row lock lets exactly one succeed, every other one must get 409.
                    function iteration() {
                      const itemId = 1 + Math.floor(Math.random() * WORKLOAD.seededItems);
                      const created = http.post(BASE_URL + '/api/orders', JSON.stringify({ itemId, quantity: 1 }),
                        { headers: JSON_HEADERS, timeout: WORKLOAD.requestTimeout, tags: { name: 'order-create' } });
                      const order = verify(created, 201, 'order-create', {
                        'order-create: status NEW': (json) => json.status === 'NEW',
                      });
                      if (!order || order.orderId === undefined) {
                        return;
                      }
                      const url = BASE_URL + '/api/orders/' + order.orderId + '/status';
                      const body = JSON.stringify({ status: 'PAID' });
                      const group = [];
                      for (let i = 0; i < WORKLOAD.lockGroup; i++) {
                        group.push(['PUT', url, body, LOCK_PARAMS]);
                      }
                      const measuring = phase === MEASURE;
                      let winners = 0;
                      let errors = 0;
                      for (const response of http.batch(group)) {
                        record(response);
                        const json = parseBody(response);
                        if (response.status === 200) {
                          winners++;
                        } else if (response.status !== 409) {
                          errors++;
                        }
                        check(response, {
                          'order-lock: status 200 or 409': (r) => r.status === 200 || r.status === 409,
                          'order-lock: winner is PAID by this variant': (r) => r.status !== 200
                            || (json !== null && json.status === 'PAID' && json.variant === VARIANT),
                          'order-lock: lock wait reported': () => json !== null && typeof json.lockWaitMs === 'number',
                        }, { operation: 'order-lock' });
                        if (measuring && json !== null && typeof json.lockWaitMs === 'number') {
                          lockWait.add(json.lockWaitMs);
                        }
                      }
                      if (!measuring) {
                        return;
                      }
                      lockGroups.add(1);
                      if (errors > 0) {
                        lockGroupsWithErrors.add(1);
                      } else if (winners === 1) {
                        lockGroupsCorrect.add(1);
                      } else if (winners === 0) {
                        lockGroupsNoWinner.add(1);
                      } else {
                        lockGroupsSeveralWinners.add(1);
                      }
                    }
                    """;
            case ROWS -> """
                    const URL = BASE_URL + '/api/rows?count=' + WORKLOAD.rowCount;
                    const CHECKS = {
                      'rows: item count': (json) => Array.isArray(json.items) && json.items.length === WORKLOAD.rowCount,
                    };

                    function iteration() {
                      verifySample(http.get(URL, PARAMS), 200, 'rows', CHECKS);
                    }
                    """;
            case ORDERS -> """
                    const JSON_HEADERS = { 'Content-Type': 'application/json' };

                    // One iteration is one order's life: create it, then pay it (two requests).
                    function iteration() {
                      const itemId = 1 + Math.floor(Math.random() * WORKLOAD.seededItems);
                      const quantity = 1 + Math.floor(Math.random() * 3);
                      const created = http.post(BASE_URL + '/api/orders', JSON.stringify({ itemId, quantity }),
                        { headers: JSON_HEADERS, timeout: WORKLOAD.requestTimeout, tags: { name: 'order-create' } });
                      const order = verify(created, 201, 'order-create', {
                        'order-create: status NEW': (json) => json.status === 'NEW',
                      });
                      if (!order || order.orderId === undefined) {
                        return;
                      }
                      const paid = http.put(BASE_URL + '/api/orders/' + order.orderId + '/status',
                        JSON.stringify({ status: 'PAID' }),
                        { headers: JSON_HEADERS, timeout: WORKLOAD.requestTimeout, tags: { name: 'order-status' } });
                      verifySample(paid, 200, 'order-status', {
                        'order-status: status PAID': (json) => json.status === 'PAID',
                      });
                    }
                    """;
            case CUSTOM -> """
                    // The custom module sends the requests; it may call context.record(response) to count a response
                    // in the latency buckets used when several runners are combined.
                    function iteration() {
                      customIteration({ baseUrl: BASE_URL, variant: VARIANT, record, verify });
                    }
                    """;
        };
    }

    private static String template() {
        return """
                // Generated by stackbench from a BenchmarkRun spec; regenerate it instead of editing.
                import http from 'k6/http';
                import { check } from 'k6';
                import { Counter, Trend } from 'k6/metrics';
                import exec from 'k6/execution';__OUTPUT_IMPORT__
                __CUSTOM_IMPORT__
                const BASE_URL = (__ENV.STACKBENCH_BASE_URL || 'http://127.0.0.1:8080').replace(/\\/+$/, '');
                const VARIANT = __ENV.STACKBENCH_VARIANT || __VARIANT__;
                const SUMMARY_FILE = __ENV.STACKBENCH_SUMMARY_FILE || '';
                const RUNNER_ID = __ENV.STACKBENCH_RUNNER_ID || '';
                const WORKLOAD = __WORKLOAD__;
                const BUCKETS = __BUCKETS__;
                const SUMMARY = __SUMMARY__;
                const WARMUP = 'warmup';
                const MEASURE = 'measure';
                const K6_DEFAULT_TIMEOUT = __K6_DEFAULT_TIMEOUT__;

                __LATENCY_COUNTING__

                // Throughput is what completed inside the measured window, whichever scenario sent it: requests
                // still in flight when the window closes finish during the graceful stop and would otherwise
                // inflate an overloaded target's rate. Only the responses at the window's edges are counted (a
                // counter per response would cost k6 as much as the checks): the measured ones that completed after
                // the window closed, and the warmup's that completed inside it. The window's completions are the
                // measured responses (the latency buckets' total) less the first plus the second.
                const windowLate = new Counter(SUMMARY.windowLateMetric);
                const windowFromWarmup = new Counter(SUMMARY.windowFromWarmupMetric);

                // Each scenario calls its own exported function, which tells this VU which scenario it runs (a VU
                // may serve the warmup, then the measure scenario). The window's bounds come from k6 once per VU
                // and scenario: asking k6 for its scenario on every request costs more than the request's checks.
                let phase = '';
                let windowStartMs = 0;
                let windowEndMs = 0;
                function enter(scenario) {
                  phase = scenario;
                  windowStartMs = exec.scenario.startTime
                    + (scenario === MEASURE ? 0 : SUMMARY.warmupSeconds * 1000);
                  windowEndMs = windowStartMs + SUMMARY.measuredSeconds * 1000;
                }

                // Parameters of a scenario's one request: none unless the timeout is not k6's own default, since
                // parameters are read again for every request. Its name tag comes from the scenario's tags in the
                // options, which k6 applies at no cost per request.
                const PARAMS = WORKLOAD.requestTimeout === K6_DEFAULT_TIMEOUT
                  ? undefined
                  : { timeout: WORKLOAD.requestTimeout };

                // A burst's makespan: from the first measured request sent to the last response received, as
                // epoch milliseconds whose min and max add up across runners.
                const burstSentAt = SUMMARY.burst ? new Trend(SUMMARY.burstSentMetric) : null;
                const burstDoneAt = SUMMARY.burst ? new Trend(SUMMARY.burstDoneMetric) : null;

                // k6 reads the options from the script's first run (VU 0) and gives every VU the result: evaluating
                // hundreds of thresholds again in each VU would only cost time.
                export const options = __VU === 0 ? __OPTIONS__ : {};

                export function record(response) {
                  const now = Date.now();
                  if (phase !== MEASURE) {
                    if (now >= windowStartMs && now < windowEndMs) {
                      windowFromWarmup.add(1);
                    }
                    return;
                  }
                  if (now >= windowEndMs) {
                    windowLate.add(1);
                  }
                  // response.timings makes a new object on every read: only read where a figure needs it.
                  if (burstSentAt !== null) {
                    const t = response.timings;
                    burstSentAt.add(now - t.blocked - t.connecting - t.tls_handshaking - t.duration);
                    burstDoneAt.add(now);
                  }__RECORD_LATENCY__
                }

                function parseBody(response) {
                  try {
                    return response.json();
                  } catch (e) {
                    return null;
                  }
                }

                // Counts the response, checks status and variant (plus scenario-specific checks) and returns
                // the JSON body.
                export function verify(response, expectedStatus, operation, extraChecks) {
                  record(response);
                  const json = parseBody(response);
                  const checks = {};
                  checks[operation + ': status ' + expectedStatus] = () => response.status === expectedStatus;
                  checks[operation + ': variant'] = () => json !== null && json.variant === VARIANT;
                  for (const name in extraChecks || {}) {
                    checks[name] = () => json !== null && extraChecks[name](json);
                  }
                  check(response, checks, { operation: operation });
                  return response.status === expectedStatus ? json : null;
                }

                // Counts every response; checks every one whose status is wrong, and the body of one response in
                // SUMMARY.verifyEvery per VU (its first included): parsing and checking every body would cost the
                // load generator more than sending the request.
                let untilVerified = 0;
                function verifySample(response, expectedStatus, operation, extraChecks) {
                  const sampled = untilVerified === 0;
                  untilVerified = sampled ? SUMMARY.verifyEvery - 1 : untilVerified - 1;
                  if (sampled || response.status !== expectedStatus) {
                    verify(response, expectedStatus, operation, extraChecks);
                  } else {
                    record(response);
                  }
                }

                export function warmup() {
                  if (phase !== WARMUP) {
                    enter(WARMUP);
                  }
                  iteration();
                }

                export function measure() {
                  if (phase !== MEASURE) {
                    enter(MEASURE);
                  }
                  iteration();
                }

                __ITERATION__
                export function handleSummary(data) {
                  const summary = JSON.stringify({
                    format: SUMMARY.format,
                    runnerId: RUNNER_ID,
                    variant: VARIANT,
                    scenario: SUMMARY.scenario,
                    warmupSeconds: SUMMARY.warmupSeconds,
                    measuredSeconds: SUMMARY.measuredSeconds,
                    requestsPerIteration: SUMMARY.requestsPerIteration,
                    burst: SUMMARY.burst,
                    plannedIterations: SUMMARY.plannedIterations,
                    verifyEvery: SUMMARY.verifyEvery,__SUMMARY_LATENCY__
                    buckets: { minMs: BUCKETS.minMs, growth: BUCKETS.growth, count: BUCKETS.count },
                    endedAtMs: Date.now(),
                    k6: data,
                  });
                  const outputs = { stdout: '\\n' + SUMMARY.begin + '\\n' + summary + '\\n' + SUMMARY.end + '\\n' };
                  if (SUMMARY_FILE) {
                    outputs[SUMMARY_FILE] = summary;
                  }
                  return outputs;
                }
                """;
    }

    private static BenchmarkRunSpec copy(BenchmarkRunSpec spec) {
        return JSON.convertValue(spec, BenchmarkRunSpec.class);
    }

    private static String jsString(String value) {
        return toJson(JSON.getNodeFactory().textNode(value == null ? "" : value));
    }

    private static String toJson(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write k6 options as JSON", e);
        }
    }
}
