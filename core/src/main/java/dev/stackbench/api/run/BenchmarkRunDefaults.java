package dev.stackbench.api.run;

import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Default values of a BenchmarkRun spec. The CRD schema carries them as {@code default:} (applied by the API server)
 * and {@link #apply(BenchmarkRunSpec)} fills them in Java, so local mode and the operator see the same spec. The API
 * server only defaults fields of objects that exist; {@link #apply} also creates the objects that hold defaults.
 */
public final class BenchmarkRunDefaults {

    public static final String CPU = "2";
    public static final String MEMORY = "1Gi";
    public static final int REPLICAS = 1;
    public static final String REPLICAS_TEXT = "1";
    public static final String EXECUTOR = "constant-arrival-rate";
    public static final String WARMUP = "20s";
    public static final String DURATION = "60s";
    public static final int PARALLELISM = 1;
    public static final String PARALLELISM_TEXT = "1";
    public static final int ROW_COUNT = 100;
    public static final String ROW_COUNT_TEXT = "100";
    public static final String CLEANUP = "Always";
    public static final String TIMEOUT = "15m";
    public static final String CAPACITY_RESOLUTION = "5%";
    public static final int DATABASE_PORT = 5432;
    public static final String DATABASE_PORT_TEXT = "5432";
    public static final String DATABASE_NAME = "stackbench";
    public static final String SECRET_USER_KEY = "username";
    public static final String SECRET_PASSWORD_KEY = "password";

    private BenchmarkRunDefaults() {}

    /** Fills every unset field that has a default, in place; returns the same spec. Null-safe on missing parts. */
    public static BenchmarkRunSpec apply(BenchmarkRunSpec spec) {
        if (spec == null) {
            return null;
        }
        setIfNull(spec.getCleanup(), spec::setCleanup, () -> CleanupPolicy.fromValue(CLEANUP));
        setIfNull(spec.getTimeout(), spec::setTimeout, () -> TIMEOUT);
        if (spec.getChecks() != null) {
            spec.getChecks().stream()
                    .filter(java.util.Objects::nonNull)
                    .forEach(check ->
                            setIfNull(check.getSeverity(), check::setSeverity, () -> PromQLCheck.CheckSeverity.error));
        }
        // A missing target or workload stays missing, so validation still reports it as missing.
        if (spec.getTarget() != null) {
            TargetSpec target = spec.getTarget();
            setIfNull(target.getReplicas(), target::setReplicas, () -> REPLICAS);
            setIfNull(target.getResources(), target::setResources, ResourcesSpec::new);
            applyResources(target.getResources());
        }

        if (spec.getBackend() == null) {
            spec.setBackend(new BackendSpec());
        }
        BackendSpec backend = spec.getBackend();
        setIfNull(backend.getDatabase(), backend::setDatabase, DatabaseSpec::new);
        DatabaseSpec database = backend.getDatabase();
        if (database.getExternal() != null) {
            ExternalDatabaseSpec external = database.getExternal();
            setIfNull(external.getPort(), external::setPort, () -> DATABASE_PORT);
            setIfNull(external.getDatabase(), external::setDatabase, () -> DATABASE_NAME);
            if (external.getSecretRef() != null) {
                SecretKeysRef secret = external.getSecretRef();
                setIfNull(secret.getUserKey(), secret::setUserKey, () -> SECRET_USER_KEY);
                setIfNull(secret.getPasswordKey(), secret::setPasswordKey, () -> SECRET_PASSWORD_KEY);
            }
        } else if (database.getResources() == null && spec.getTarget() != null) {
            // As fair as the target: the run's own database gets what the target gets.
            ResourcesSpec target = spec.getTarget().getResources();
            database.setResources(new ResourcesSpec().withCpu(target.getCpu()).withMemory(target.getMemory()));
        } else if (database.getResources() != null) {
            applyResources(database.getResources());
        }
        setIfNull(backend.getDelayService(), backend::setDelayService, DelayServiceSpec::new);
        DelayServiceSpec delayService = backend.getDelayService();
        setIfNull(delayService.getReplicas(), delayService::setReplicas, () -> REPLICAS);
        setIfNull(delayService.getResources(), delayService::setResources, ResourcesSpec::new);
        applyResources(delayService.getResources());

        if (spec.getWorkload() != null) {
            WorkloadSpec workload = spec.getWorkload();
            setIfNull(workload.getRowCount(), workload::setRowCount, () -> ROW_COUNT);
            setIfNull(workload.getWarmup(), workload::setWarmup, () -> WARMUP);
            setIfNull(workload.getDuration(), workload::setDuration, () -> DURATION);
            setIfNull(workload.getParallelism(), workload::setParallelism, () -> PARALLELISM);
            setIfNull(workload.getRunnerResources(), workload::setRunnerResources, ResourcesSpec::new);
            applyResources(workload.getRunnerResources());
            if (workload.getLoad() != null) {
                LoadSpec load = workload.getLoad();
                setIfNull(load.getExecutor(), load::setExecutor, () -> Executor.fromValue(EXECUTOR));
            }
            if (workload.getCapacity() != null) {
                CapacitySpec capacity = workload.getCapacity();
                setIfNull(capacity.getResolution(), capacity::setResolution, () -> CAPACITY_RESOLUTION);
            }
        }
        return spec;
    }

    /** Applies the spec defaults of a whole resource; returns the same resource. */
    public static BenchmarkRun apply(BenchmarkRun run) {
        if (run != null) {
            if (run.getSpec() == null) {
                run.setSpec(new BenchmarkRunSpec());
            }
            apply(run.getSpec());
        }
        return run;
    }

    private static void applyResources(ResourcesSpec resources) {
        setIfNull(resources.getCpu(), resources::setCpu, () -> CPU);
        setIfNull(resources.getMemory(), resources::setMemory, () -> MEMORY);
    }

    private static <T> void setIfNull(T current, Consumer<T> setter, Supplier<T> defaultValue) {
        if (current == null) {
            setter.accept(defaultValue.get());
        }
    }
}
