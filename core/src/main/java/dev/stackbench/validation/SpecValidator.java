package dev.stackbench.validation;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.Durations;
import dev.stackbench.api.Quantities;
import dev.stackbench.api.SpecRules;
import dev.stackbench.api.run.BackendSpec;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.BenchmarkRunDefaults;
import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.run.CapacityObjective;
import dev.stackbench.api.run.CapacitySpec;
import dev.stackbench.api.run.ConfigMapKeyRef;
import dev.stackbench.api.run.DatabaseSpec;
import dev.stackbench.api.run.DelayServiceSpec;
import dev.stackbench.api.run.Executor;
import dev.stackbench.api.run.ExternalDatabaseSpec;
import dev.stackbench.api.run.FanoutMode;
import dev.stackbench.api.run.LoadSpec;
import dev.stackbench.api.run.PlacementSpec;
import dev.stackbench.api.run.PoolPlacement;
import dev.stackbench.api.run.ResourcesSpec;
import dev.stackbench.api.run.Scenario;
import dev.stackbench.api.run.ScriptSpec;
import dev.stackbench.api.run.SecretKeysRef;
import dev.stackbench.api.run.Stage;
import dev.stackbench.api.run.TargetSpec;
import dev.stackbench.api.run.WorkloadSpec;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.k6.K6Env;
import dev.stackbench.k6.K6Metrics;
import dev.stackbench.k6.ThresholdCheck;
import dev.stackbench.lifecycle.SteppedLoad;
import dev.stackbench.model.JvmSizing;
import io.fabric8.kubernetes.api.model.Toleration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Checks a BenchmarkRun against the same rules the CRD gives the API server (OpenAPI bounds and the CEL rules of
 * {@link SpecRules}, after the same defaults), so local mode refuses exactly what a cluster refuses, with messages of
 * the same meaning; and, where a catalogue is given, that the variant exists (which the API server cannot check).
 * Every violation is reported, not just the first.
 */
public final class SpecValidator {

    private static final Pattern CPU_POSITIVE =
            Pattern.compile("^(0*[1-9][0-9]*m|0*[1-9][0-9]*([.][0-9]+)?|0*[.]0*[1-9][0-9]*)$");
    private static final Pattern NAME = Pattern.compile(SpecRules.NAME_PATTERN);
    private static final Pattern CPU = Pattern.compile(SpecRules.CPU_PATTERN);
    private static final Pattern MEMORY = Pattern.compile(SpecRules.MEMORY_PATTERN);
    private static final List<String> TAINT_EFFECTS = SpecRules.celStrings(SpecRules.TAINT_EFFECTS);
    private static final List<String> TOLERATION_OPERATORS = SpecRules.celStrings(SpecRules.TOLERATION_OPERATORS);
    private static final Pattern OBJECT_NAME = Pattern.compile("^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$");

    private final VariantCatalogue catalogue;

    /** @param catalogue the variants to accept; null skips the variant check (as the API server does) */
    public SpecValidator(VariantCatalogue catalogue) {
        this.catalogue = catalogue;
    }

    /** A validator knowing the catalogue shipped in the jar. */
    public static SpecValidator withShippedCatalogue() {
        return new SpecValidator(VariantCatalogue.load());
    }

    /** Every violation of a resource, metadata included; empty when it is valid. */
    public List<Violation> validate(BenchmarkRun run) {
        List<Violation> violations = new ArrayList<>();
        String name = run.getMetadata() == null ? null : run.getMetadata().getName();
        if (name == null || name.isBlank()) {
            violations.add(new Violation(
                    "metadata.name",
                    "metadata.name is required: name the run, e.g." + " metadata: {name: webflux-r2dbc-upstream}"));
        } else if (name.length() > 253 || !OBJECT_NAME.matcher(name).matches()) {
            violations.add(new Violation(
                    "metadata.name",
                    "metadata.name '" + name + "' is not a valid Kubernetes"
                            + " name: use lower-case letters, digits, '-' and '.', starting and ending with a letter or"
                            + " digit"));
        }
        if (run.getSpec() == null) {
            violations.add(new Violation("spec", "spec is required: describe the target and the workload"));
            return violations;
        }
        violations.addAll(validate(run.getSpec()));
        return violations;
    }

    /** Throws {@link InvalidSpecException} listing every violation. */
    public void check(BenchmarkRun run) {
        List<Violation> violations = validate(run);
        if (!violations.isEmpty()) {
            String name = run.getMetadata() == null ? null : run.getMetadata().getName();
            throw new InvalidSpecException("BenchmarkRun " + (name == null ? "(unnamed)" : name), violations);
        }
    }

    /** Every violation of a spec, checked after applying the defaults to a copy. */
    public List<Violation> validate(BenchmarkRunSpec original) {
        BenchmarkRunSpec spec =
                BenchmarkRunDefaults.apply(BenchmarkRuns.yamlMapper().convertValue(original, BenchmarkRunSpec.class));
        Checks checks = new Checks();
        checks.duration("spec.timeout", spec.getTimeout());
        target(checks, spec.getTarget());
        placement(checks, spec.getPlacement());
        backend(checks, spec.getBackend());
        workload(checks, spec.getWorkload());
        fanoutMode(checks, spec);
        if (spec.getWorkload() != null
                && Durations.isValid(spec.getTimeout())
                && Durations.isValid(spec.getWorkload().getWarmup())
                && Durations.isValid(spec.getWorkload().getDuration())) {
            Duration run = Durations.parse(spec.getWorkload().getWarmup())
                    .plus(Durations.parse(spec.getWorkload().getDuration()));
            checks.rule(
                    Durations.parse(spec.getTimeout()).compareTo(run) > 0,
                    "spec.timeout",
                    SpecRules.TIMEOUT_COVERS_RUN_MESSAGE);
        }
        if (spec.getWorkload() != null
                && spec.getWorkload().isStepped()
                && checks.violations.isEmpty()
                && Durations.isValid(spec.getTimeout())) {
            WorkloadSpec workload = spec.getWorkload();
            int steps = SteppedLoad.maxSteps(workload);
            Duration perStep = Durations.parse(workload.getWarmup()).plus(Durations.parse(workload.getDuration()));
            Duration all = perStep.multipliedBy(steps);
            checks.rule(
                    Durations.parse(spec.getTimeout()).compareTo(all) > 0,
                    "spec.timeout",
                    "spec.timeout " + spec.getTimeout() + " is too short for up to " + steps + " steps of "
                            + Durations.format(perStep) + " (warmup + duration) each, "
                            + Durations.format(all) + " of load alone: raise the timeout, e.g. timeout: "
                            + Durations.format(
                                    Duration.ofMinutes(all.plusMinutes(5).toMinutes() + 1))
                            + ", or take fewer or shorter steps");
        }
        return checks.violations;
    }

    /** A fan-out mode the variant cannot do would only fail at the first request, with the target running. */
    private void fanoutMode(Checks checks, BenchmarkRunSpec spec) {
        if (catalogue == null
                || spec.getWorkload() == null
                || spec.getWorkload().getFanoutMode() == null
                || spec.getTarget() == null) {
            return;
        }
        FanoutMode mode = spec.getWorkload().getFanoutMode();
        catalogue
                .find(spec.getTarget().getVariant())
                .filter(variant -> !variant.supports(mode))
                .ifPresent(variant -> checks.add(
                        "spec.workload.fanoutMode",
                        "spec.workload.fanoutMode: variant " + variant.name() + " cannot make its upstream calls "
                                + (mode == FanoutMode.PARALLEL ? "in parallel" : "one after another")
                                + (variant.fanoutModes().isEmpty()
                                        ? ""
                                        : " (it can: " + String.join(", ", variant.fanoutModes()) + ")")
                                + ": remove fanoutMode to use the variant's own way, or pick a variant that can"));
    }

    private void target(Checks checks, TargetSpec target) {
        if (!checks.required(
                "spec.target", target, "describe the variant under test, e.g. target: {variant:" + " webflux-r2dbc}")) {
            return;
        }
        String variant = target.getVariant();
        if (checks.required(
                "spec.target.variant",
                variant,
                "name a variant from the catalogue, e.g. variant:" + " webflux-r2dbc")) {
            if (checks.size("spec.target.variant", variant, 1, 63)
                    && checks.pattern(
                            "spec.target.variant",
                            variant,
                            NAME,
                            "variant names are lower-case letters," + " digits and '-', e.g. mvc-jdbc")
                    && catalogue != null
                    && catalogue.find(variant).isEmpty()) {
                checks.add("spec.target.variant", "spec.target.variant: " + catalogue.unknownVariantMessage(variant));
            }
        }
        checks.size("spec.target.image", target.getImage(), 0, 512);
        checks.range("spec.target.replicas", target.getReplicas(), 1, SpecRules.MAX_REPLICAS);
        resources(checks, "spec.target.resources", target.getResources());
        if (checks.size("spec.target.jvmOptions", target.getJvmOptions(), 0, 4096)) {
            try {
                // Both modes pass the options as JAVA_TOOL_OPTIONS, where the JVM groups quoted words.
                JvmSizing.split(target.getJvmOptions());
            } catch (IllegalArgumentException e) {
                checks.add("spec.target.jvmOptions", e.getMessage());
            }
        }
    }

    private static void resources(Checks checks, String path, ResourcesSpec resources) {
        if (resources == null) {
            return;
        }
        String cpu = resources.getCpu();
        if (cpu != null
                && checks.size(path + ".cpu", cpu, 0, SpecRules.QUANTITY_MAX_LENGTH)
                && checks.pattern(
                        path + ".cpu", cpu, CPU, "write cores or millicores, e.g. \"2\", \"1.5\" or" + " 500m")) {
            // The CRD rule sits on a type shared by target and delay service, so its message names the field
            // relative to resources; here the full path is known.
            checks.rule(
                    CPU_POSITIVE.matcher(cpu).matches(),
                    path + ".cpu",
                    SpecRules.CPU_POSITIVE_MESSAGE.replaceFirst("^resources[.]cpu", path + ".cpu"));
        }
        String memory = resources.getMemory();
        if (memory != null && checks.size(path + ".memory", memory, 0, SpecRules.QUANTITY_MAX_LENGTH)) {
            if (checks.pattern(path + ".memory", memory, MEMORY, "write e.g. 1Gi, 512Mi or 2G")) {
                checks.rule(
                        Quantities.isValidMemory(memory),
                        path + ".memory",
                        path + ".memory '" + memory + "' is larger than any memory a pod can have: write e.g. 1Gi,"
                                + " 512Mi or 2G");
            }
        }
    }

    private static void placement(Checks checks, PlacementSpec placement) {
        if (placement == null) {
            return;
        }
        tolerations(checks, "spec.placement.target", placement.getTarget());
        tolerations(checks, "spec.placement.backend", placement.getBackend());
        tolerations(checks, "spec.placement.loadgen", placement.getLoadgen());
    }

    private static void tolerations(Checks checks, String path, PoolPlacement placement) {
        if (placement == null || placement.getTolerations() == null) {
            return;
        }
        String field = path + ".tolerations";
        List<Toleration> tolerations = placement.getTolerations();
        if (tolerations.size() > SpecRules.MAX_TOLERATIONS) {
            checks.add(
                    field,
                    field + " has " + tolerations.size() + " tolerations, at most " + SpecRules.MAX_TOLERATIONS
                            + " are allowed: keep those of the role's node pool");
        }
        for (int i = 0; i < tolerations.size(); i++) {
            Toleration toleration = tolerations.get(i);
            if (toleration == null) {
                continue;
            }
            String effect = toleration.getEffect();
            if (effect != null && !TAINT_EFFECTS.contains(effect)) {
                checks.add(
                        field,
                        field + ": " + SpecRules.TOLERATION_EFFECT_MESSAGE + " (not '" + effect + "', in tolerations["
                                + i + "])");
            }
            String operator = toleration.getOperator();
            if (operator != null && !TOLERATION_OPERATORS.contains(operator)) {
                checks.add(
                        field,
                        field + ": " + SpecRules.TOLERATION_OPERATOR_MESSAGE + " (not '" + operator
                                + "', in tolerations[" + i + "])");
            }
        }
    }

    private static void backend(Checks checks, BackendSpec backend) {
        if (backend == null) {
            return;
        }
        DatabaseSpec database = backend.getDatabase();
        if (database != null) {
            checks.rule(
                    database.getResources() == null || database.getExternal() == null,
                    "spec.backend.database",
                    SpecRules.DATABASE_ONE_KIND_MESSAGE);
            resources(checks, "spec.backend.database.resources", database.getResources());
            ExternalDatabaseSpec external = database.getExternal();
            if (external != null) {
                String path = "spec.backend.database.external";
                if (checks.required(
                        path + ".host",
                        external.getHost(),
                        "name the PostgreSQL host, or remove external to give the run a database of its own")) {
                    checks.size(path + ".host", external.getHost(), 1, 253);
                }
                checks.range(path + ".port", external.getPort(), 1, 65535);
                checks.size(path + ".database", external.getDatabase(), 1, 63);
                SecretKeysRef secret = external.getSecretRef();
                if (secret != null
                        && checks.required(
                                path + ".secretRef.name",
                                secret.getName(),
                                "name the Secret holding the user name and password")) {
                    checks.size(path + ".secretRef.name", secret.getName(), 1, 253);
                }
            }
        }
        DelayServiceSpec delayService = backend.getDelayService();
        if (delayService != null) {
            checks.range("spec.backend.delayService.replicas", delayService.getReplicas(), 1, SpecRules.MAX_REPLICAS);
            resources(checks, "spec.backend.delayService.resources", delayService.getResources());
        }
    }

    private static void workload(Checks checks, WorkloadSpec workload) {
        if (!checks.required(
                "spec.workload",
                workload,
                "describe the scenario and the load, e.g. workload:"
                        + " {scenario: upstream, upstreamDelay: 300ms, load: {rate: 100}}")) {
            return;
        }
        Scenario scenario = workload.getScenario();
        checks.required("spec.workload.scenario", scenario, "use one of " + String.join(", ", Scenario.names()));
        boolean upstreamDelayValid = checks.duration("spec.workload.upstreamDelay", workload.getUpstreamDelay());
        boolean dbSleepValid = checks.duration("spec.workload.dbSleep", workload.getDbSleep());
        boolean sleepValid = checks.duration("spec.workload.sleep", workload.getSleep());
        checks.range("spec.workload.rowCount", workload.getRowCount(), 1, SpecRules.MAX_ROW_COUNT);
        checks.range("spec.workload.calls", workload.getCalls(), 1, SpecRules.MAX_CALLS);
        checks.range("spec.workload.lockGroup", workload.getLockGroup(), 2, SpecRules.MAX_LOCK_GROUP);
        boolean warmupValid = checks.duration("spec.workload.warmup", workload.getWarmup());
        boolean durationValid = checks.duration("spec.workload.duration", workload.getDuration());
        checks.range("spec.workload.parallelism", workload.getParallelism(), 1, SpecRules.MAX_PARALLELISM);
        resources(checks, "spec.workload.runnerResources", workload.getRunnerResources());
        script(checks, workload.getScript());
        load(checks, workload.getLoad(), workload.isStepped());
        thresholds(checks, scenario, workload.getThresholds());
        steps(checks, workload);

        if (scenario != null) {
            checks.rule(
                    scenario != Scenario.CUSTOM || workload.getScript() != null,
                    "spec.workload.script",
                    SpecRules.CUSTOM_NEEDS_SCRIPT_MESSAGE);
            checks.rule(
                    scenario == Scenario.CUSTOM || workload.getScript() == null,
                    "spec.workload.script",
                    SpecRules.SCRIPT_ONLY_FOR_CUSTOM_MESSAGE);
            checks.rule(
                    !scenario.callsUpstream() || workload.getUpstreamDelay() != null,
                    "spec.workload.upstreamDelay",
                    SpecRules.UPSTREAM_DELAY_REQUIRED_MESSAGE);
            checks.rule(
                    !scenario.sleepsInDatabase() || workload.getDbSleep() != null,
                    "spec.workload.dbSleep",
                    SpecRules.DB_SLEEP_REQUIRED_MESSAGE);
            checks.rule(
                    !scenario.sleepsInProcess() || workload.getSleep() != null,
                    "spec.workload.sleep",
                    SpecRules.SLEEP_REQUIRED_MESSAGE);
            checks.rule(
                    !scenario.fansOut() || workload.getCalls() != null,
                    "spec.workload.calls",
                    SpecRules.CALLS_REQUIRED_MESSAGE);
            checks.rule(
                    scenario.fansOut() || workload.getCalls() == null,
                    "spec.workload.calls",
                    SpecRules.CALLS_ONLY_FANOUT_MESSAGE);
            checks.rule(
                    scenario.fansOut() || workload.getFanoutMode() == null,
                    "spec.workload.fanoutMode",
                    SpecRules.FANOUT_MODE_ONLY_FANOUT_MESSAGE);
            checks.rule(
                    scenario.callsUpstream() || workload.getUpstreamProtocol() == null,
                    "spec.workload.upstreamProtocol",
                    SpecRules.PROTOCOL_ONLY_UPSTREAM_MESSAGE);
            checks.rule(
                    !scenario.contendsForLock() || workload.getLockGroup() != null,
                    "spec.workload.lockGroup",
                    SpecRules.LOCK_GROUP_REQUIRED_MESSAGE);
            checks.rule(
                    scenario.contendsForLock() || workload.getLockGroup() == null,
                    "spec.workload.lockGroup",
                    SpecRules.LOCK_GROUP_ONLY_LOCK_MESSAGE);
        }
        Duration maxCall = Durations.parse(SpecRules.MAX_CALL_DELAY);
        if (upstreamDelayValid && workload.getUpstreamDelay() != null) {
            checks.rule(
                    Durations.parse(workload.getUpstreamDelay()).compareTo(maxCall) <= 0,
                    "spec.workload.upstreamDelay",
                    SpecRules.UPSTREAM_DELAY_MAX_MESSAGE);
        }
        if (dbSleepValid && workload.getDbSleep() != null) {
            checks.rule(
                    Durations.parse(workload.getDbSleep()).compareTo(maxCall) <= 0,
                    "spec.workload.dbSleep",
                    SpecRules.DB_SLEEP_MAX_MESSAGE);
        }
        if (sleepValid && workload.getSleep() != null) {
            checks.rule(
                    Durations.parse(workload.getSleep()).compareTo(maxCall) <= 0,
                    "spec.workload.sleep",
                    SpecRules.SLEEP_MAX_MESSAGE);
        }
        if (durationValid && workload.getDuration() != null) {
            Duration duration = Durations.parse(workload.getDuration());
            checks.rule(
                    duration.compareTo(Duration.ZERO) > 0,
                    "spec.workload.duration",
                    SpecRules.DURATION_POSITIVE_MESSAGE);
            checks.rule(
                    duration.compareTo(Durations.parse(SpecRules.MAX_DURATION)) <= 0,
                    "spec.workload.duration",
                    SpecRules.DURATION_MAX_MESSAGE);
        }
        if (warmupValid && workload.getWarmup() != null) {
            checks.rule(
                    Durations.parse(workload.getWarmup()).compareTo(Durations.parse(SpecRules.MAX_WARMUP)) <= 0,
                    "spec.workload.warmup",
                    SpecRules.WARMUP_MAX_MESSAGE);
        }
    }

    /** A sweep or a capacity search: the same rules as the CRD's, and what CEL cannot say (strictly ascending). */
    private static void steps(Checks checks, WorkloadSpec workload) {
        List<Integer> sweep = workload.getSweep();
        CapacitySpec capacity = workload.getCapacity();
        Executor executor =
                workload.getLoad() == null ? null : workload.getLoad().getExecutor();
        LoadSpec load = workload.getLoad();
        checks.rule(sweep == null || capacity == null, "spec.workload.capacity", SpecRules.SWEEP_OR_CAPACITY_MESSAGE);
        checks.rule(
                workload.getRestartBetweenSteps() == null || workload.isStepped(),
                "spec.workload.restartBetweenSteps",
                SpecRules.RESTART_NEEDS_STEPS_MESSAGE);
        checks.rule(
                workload.getContinueAfterBreak() == null || sweep != null,
                "spec.workload.continueAfterBreak",
                SpecRules.CONTINUE_NEEDS_SWEEP_MESSAGE);
        if (sweep != null) {
            if (sweep.size() < 2 || sweep.size() > SpecRules.MAX_SWEEP_STEPS) {
                checks.add(
                        "spec.workload.sweep",
                        "spec.workload.sweep has " + sweep.size() + " levels, it must have 2 to "
                                + SpecRules.MAX_SWEEP_STEPS + ": a single level is an ordinary run (set load.rate or"
                                + " load.vus), and a longer sweep is better split into several runs");
            }
            boolean closed = executor == Executor.CONSTANT_VUS;
            checks.rule(
                    executor == null || executor == Executor.CONSTANT_ARRIVAL_RATE || closed,
                    "spec.workload.sweep",
                    SpecRules.SWEEP_EXECUTOR_MESSAGE);
            checks.rule(
                    load == null || (closed ? load.getVus() == null : load.getRate() == null),
                    "spec.workload.sweep",
                    SpecRules.SWEEP_REPLACES_LEVEL_MESSAGE);
            long max = closed ? SpecRules.MAX_VUS : SpecRules.MAX_RATE;
            checks.rule(
                    sweep.stream().allMatch(level -> level != null && level >= 1 && level <= max),
                    "spec.workload.sweep",
                    SpecRules.SWEEP_LEVELS_RANGE_MESSAGE);
            boolean ascending = true;
            for (int i = 1; i < sweep.size(); i++) {
                if (sweep.get(i - 1) != null && sweep.get(i) != null && sweep.get(i) <= sweep.get(i - 1)) {
                    ascending = false;
                }
            }
            checks.rule(ascending, "spec.workload.sweep", SpecRules.SWEEP_ASCENDING_MESSAGE);
        }
        if (capacity != null) {
            checks.rule(
                    executor == null || executor == Executor.CONSTANT_ARRIVAL_RATE,
                    "spec.workload.capacity",
                    SpecRules.CAPACITY_EXECUTOR_MESSAGE);
            checks.rule(
                    load == null || load.getRate() == null,
                    "spec.workload.load.rate",
                    SpecRules.CAPACITY_REPLACES_RATE_MESSAGE);
            boolean fromValid = checks.required(
                            "spec.workload.capacity.from",
                            capacity.getFrom(),
                            "set the first rate to probe, e.g. from: 50")
                    && checks.range("spec.workload.capacity.from", capacity.getFrom(), 1, SpecRules.MAX_RATE);
            boolean toValid = checks.required(
                            "spec.workload.capacity.to",
                            capacity.getTo(),
                            "set the highest rate the search may probe, e.g. to: 5000")
                    && checks.range("spec.workload.capacity.to", capacity.getTo(), 1, SpecRules.MAX_RATE);
            if (fromValid && toValid) {
                checks.rule(
                        capacity.getFrom() < capacity.getTo(),
                        "spec.workload.capacity",
                        SpecRules.CAPACITY_FROM_BELOW_TO_MESSAGE);
            }
            checks.pattern(
                    "spec.workload.capacity.resolution",
                    capacity.getResolution(),
                    Pattern.compile(SpecRules.RESOLUTION_PATTERN),
                    SpecRules.RESOLUTION_FORMAT_MESSAGE);
            CapacityObjective objective = capacity.getObjective();
            if (checks.required(
                    "spec.workload.capacity.objective",
                    objective,
                    "say what a rate must meet, e.g. objective: {p95: 450ms, errorRate: 0.01}")) {
                checks.rule(
                        objective.getP95() != null || objective.getErrorRate() != null,
                        "spec.workload.capacity.objective",
                        SpecRules.OBJECTIVE_NOT_EMPTY_MESSAGE);
                checks.duration("spec.workload.capacity.objective.p95", objective.getP95());
                if (objective.getErrorRate() != null
                        && (objective.getErrorRate() < 0 || objective.getErrorRate() > 1)) {
                    checks.add(
                            "spec.workload.capacity.objective.errorRate",
                            "spec.workload.capacity.objective.errorRate is " + objective.getErrorRate()
                                    + ", it must be between 0 and 1: it is a share of requests, e.g. 0.01 for 1%");
                }
            }
        }
    }

    /**
     * Each threshold with k6's grammar ({@link ThresholdCheck}) and on a metric the script has, with an aggregation
     * its type allows: k6 would refuse anything else only once the target is running. Scenario custom may name
     * metrics its module defines, which only k6 knows; their expressions are still checked.
     */
    private static void thresholds(Checks checks, Scenario scenario, Map<String, List<String>> thresholds) {
        if (thresholds == null) {
            return;
        }
        thresholds.forEach((key, expressions) -> {
            String field = "spec.workload.thresholds." + key;
            K6Metrics.ParsedKey parsed = K6Metrics.parseKey(key);
            if (parsed.problem().isPresent()) {
                checks.add(field, field + ": " + parsed.problem().get());
                return;
            }
            K6Metrics.MetricKey metric = parsed.key().orElseThrow();
            String scenarioTag = metric.tags().get("scenario");
            if (scenarioTag != null && !K6Env.MEASURE_SCENARIO.equals(scenarioTag)) {
                checks.add(
                        field,
                        field + ": thresholds apply to the measured requests only, so stackbench sets the scenario"
                                + " tag itself: remove scenario:" + scenarioTag);
            }
            Optional<K6Metrics.Type> type = K6Metrics.type(metric.name(), scenario);
            if (type.isEmpty() && scenario != Scenario.CUSTOM) {
                checks.add(
                        field,
                        field + ": '" + metric.name() + "' is not a metric of the generated script: use one of "
                                + String.join(", ", K6Metrics.knownNames(scenario))
                                + " (a metric of your own can only be"
                                + " used with scenario custom, whose module defines it)");
            }
            for (String expression : expressions == null ? List.<String>of() : expressions) {
                Optional<String> problem = ThresholdCheck.problem(expression);
                if (problem.isPresent()) {
                    checks.add(
                            field,
                            field + ": '" + expression + "' is not a k6 threshold: " + problem.get() + "; "
                                    + ThresholdCheck.GRAMMAR);
                    continue;
                }
                ThresholdCheck check = ThresholdCheck.parse(expression).orElseThrow();
                if (type.isPresent() && !type.get().allows(check.method())) {
                    checks.add(
                            field,
                            field + ": '" + expression + "' aggregates with " + check.method() + ", which k6 does"
                                    + " not allow on " + metric.name() + " (a " + type.get() + "): use "
                                    + type.get().aggregations() + ", e.g. " + example(type.get()));
                }
            }
        });
    }

    private static String example(K6Metrics.Type type) {
        return switch (type) {
            case COUNTER -> "count>0";
            case GAUGE -> "value<100";
            case RATE -> "rate<0.01";
            case TREND -> "p(95)<500";
        };
    }

    private static void script(Checks checks, ScriptSpec script) {
        if (script == null) {
            return;
        }
        checks.rule(
                script.getConfigMapRef() != null || script.getFile() != null,
                "spec.workload.script",
                SpecRules.SCRIPT_SOURCE_REQUIRED_MESSAGE);
        ConfigMapKeyRef configMap = script.getConfigMapRef();
        if (configMap != null) {
            String path = "spec.workload.script.configMapRef";
            if (checks.required(path + ".name", configMap.getName(), "name the ConfigMap holding the script")) {
                checks.size(path + ".name", configMap.getName(), 1, 253);
            }
            if (checks.required(path + ".key", configMap.getKey(), "name the ConfigMap key holding the script")) {
                checks.size(path + ".key", configMap.getKey(), 1, 253);
            }
        }
        checks.size("spec.workload.script.file", script.getFile(), 0, 4096);
    }

    private static void load(Checks checks, LoadSpec load, boolean stepped) {
        if (!checks.required(
                "spec.workload.load",
                load,
                "describe the load, e.g. load: {executor:" + " constant-arrival-rate, rate: 100}")) {
            return;
        }
        String path = "spec.workload.load";
        checks.range(path + ".rate", load.getRate(), 1, SpecRules.MAX_RATE);
        checks.range(path + ".vus", load.getVus(), 1, SpecRules.MAX_VUS);
        checks.range(path + ".preAllocatedVUs", load.getPreAllocatedVUs(), 1, SpecRules.MAX_VUS);
        checks.range(path + ".iterations", load.getIterations(), 1, SpecRules.MAX_ITERATIONS);
        List<Stage> stages = load.getStages();
        if (stages != null) {
            if (stages.size() > SpecRules.MAX_STAGES) {
                checks.add(
                        path + ".stages",
                        path + ".stages has " + stages.size() + " stages, at most " + SpecRules.MAX_STAGES
                                + " are allowed: merge some");
            }
            for (int i = 0; i < stages.size(); i++) {
                String stagePath = path + ".stages[" + i + "]";
                Stage stage = stages.get(i);
                if (stage == null) {
                    checks.add(stagePath, stagePath + " is empty: give it a duration and a target");
                    continue;
                }
                if (checks.required(
                        stagePath + ".duration",
                        stage.getDuration(),
                        "give the stage a duration," + " e.g. duration: 30s")) {
                    checks.duration(stagePath + ".duration", stage.getDuration());
                }
                if (checks.required(
                        stagePath + ".target",
                        stage.getTarget(),
                        "give the stage a target rate or VU" + " count, e.g. target: 100")) {
                    checks.range(stagePath + ".target", stage.getTarget(), 0, SpecRules.MAX_RATE);
                }
            }
        }
        Executor executor = load.getExecutor();
        checks.rule(
                executor != Executor.CONSTANT_ARRIVAL_RATE || load.getRate() != null || stepped,
                path + ".rate",
                SpecRules.RATE_REQUIRED_CONSTANT_MESSAGE);
        checks.rule(
                executor != Executor.RAMPING_ARRIVAL_RATE || load.getRate() != null,
                path + ".rate",
                SpecRules.RATE_REQUIRED_RAMPING_MESSAGE);
        checks.rule(
                executor.isArrivalRate() || load.getVus() != null || (executor == Executor.CONSTANT_VUS && stepped),
                path + ".vus",
                SpecRules.VUS_REQUIRED_MESSAGE);
        checks.rule(
                !executor.isRamping() || (stages != null && !stages.isEmpty()),
                path + ".stages",
                SpecRules.STAGES_REQUIRED_MESSAGE);
        checks.rule(executor.isRamping() || stages == null, path + ".stages", SpecRules.STAGES_ONLY_RAMPING_MESSAGE);
        checks.rule(
                executor.isArrivalRate() || load.getRate() == null,
                path + ".rate",
                SpecRules.RATE_ONLY_ARRIVAL_MESSAGE);
        checks.rule(
                executor.isArrivalRate() || load.getPreAllocatedVUs() == null,
                path + ".preAllocatedVUs",
                SpecRules.PREALLOCATED_ONLY_ARRIVAL_MESSAGE);
        checks.rule(
                executor.isBurst() || load.getIterations() == null,
                path + ".iterations",
                SpecRules.ITERATIONS_ONLY_BURST_MESSAGE);
        checks.rule(
                executor != Executor.SHARED_ITERATIONS
                        || load.getIterations() == null
                        || load.getVus() == null
                        || load.getIterations() >= load.getVus(),
                path + ".iterations",
                SpecRules.SHARED_ITERATIONS_COVER_VUS_MESSAGE);
        checks.rule(
                load.getPreAllocatedVUs() == null
                        || load.getVus() == null
                        || load.getPreAllocatedVUs() <= load.getVus(),
                path + ".preAllocatedVUs",
                SpecRules.PREALLOCATED_WITHIN_VUS_MESSAGE);
    }

    /** Collects violations; each check returns whether the value passed, so dependent checks can be skipped. */
    private static final class Checks {

        private final List<Violation> violations = new ArrayList<>();

        void add(String field, String message) {
            violations.add(new Violation(field, message));
        }

        void rule(boolean holds, String field, String message) {
            if (!holds) {
                add(field, message);
            }
        }

        boolean required(String field, Object value, String hint) {
            if (value == null) {
                add(field, field + " is required: " + hint);
                return false;
            }
            return true;
        }

        boolean range(String field, Integer value, long min, long max) {
            if (value == null) {
                return true;
            }
            if (value < min || value > max) {
                add(
                        field,
                        field + " is " + value + ", it must be between " + min + " and " + max + ": change it"
                                + " to a value in that range");
                return false;
            }
            return true;
        }

        boolean size(String field, String value, long min, long max) {
            if (value == null) {
                return true;
            }
            if (value.length() < min || value.length() > max) {
                add(
                        field,
                        field + " must be " + (min > 0 ? min + " to " : "at most ") + max + " characters long:"
                                + " shorten it" + (min > 0 ? " or fill it in" : ""));
                return false;
            }
            return true;
        }

        boolean pattern(String field, String value, Pattern pattern, String hint) {
            if (value != null && !pattern.matcher(value).matches()) {
                add(field, field + " '" + value + "' has the wrong format: " + hint);
                return false;
            }
            return true;
        }

        boolean duration(String field, String value) {
            if (value == null) {
                return true;
            }
            if (!size(field, value, 0, SpecRules.DURATION_MAX_LENGTH)) {
                return false;
            }
            if (!value.matches(SpecRules.DURATION_PATTERN)) {
                add(field, field + SpecRules.DURATION_FORMAT_HINT + " (not '" + value + "')");
                return false;
            }
            if (!Durations.isValid(value)) {
                add(
                        field,
                        field + " '" + value + "' is longer than the longest duration k6 accepts (" + Durations.LONGEST
                                + ")");
                return false;
            }
            return true;
        }
    }
}
