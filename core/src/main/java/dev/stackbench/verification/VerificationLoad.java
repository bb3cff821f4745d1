package dev.stackbench.verification;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stackbench.api.run.BenchmarkRunDefaults;
import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.run.Executor;
import dev.stackbench.api.run.LoadSpec;
import dev.stackbench.api.run.WorkloadSpec;

/**
 * The small load that verifies a run before it is measured: the run's own scenario and request parameters (so the
 * same requests and the same response checks as its k6 script), sent by a few callers a bounded number of times, without
 * the run's warmup, thresholds or steps. A first, uncounted pass of {@link #WARMUP_ITERATIONS} opens the target's
 * connections and loads its classes, so the counted pass sees only the requests' own work.
 */
public final class VerificationLoad {

    /** Iterations counted: enough to tell one statement per request from two, few enough to take seconds. */
    public static final int COUNTED_ITERATIONS = 20;
    /** Iterations sent first and not counted. */
    public static final int WARMUP_ITERATIONS = 3;
    /**
     * Callers that share a pass's iterations: far below every pool of the apps (the counts are per request whatever the
     * concurrency), enough that the counted pass of 400 ms requests takes two rounds, under a second, not five or
     * twenty: verification runs before the load of every run that counts its own work.
     */
    public static final int CALLERS = 10;

    /** Longest a pass may take: each request waits at most a few seconds (the contract's limits). */
    private static final String MAX_DURATION = "2m";

    private static final ObjectMapper JSON = new ObjectMapper();

    private VerificationLoad() {}

    /**
     * The spec of a pass of {@code iterations} iterations shared by up to {@link #CALLERS} callers, the run's spec
     * otherwise (defaults applied).
     */
    public static BenchmarkRunSpec spec(BenchmarkRunSpec run, int iterations) {
        BenchmarkRunSpec spec = BenchmarkRunDefaults.apply(JSON.convertValue(run, BenchmarkRunSpec.class));
        WorkloadSpec workload = spec.getWorkload();
        LoadSpec load = new LoadSpec();
        load.setExecutor(Executor.SHARED_ITERATIONS);
        load.setVus(Math.min(CALLERS, iterations));
        load.setIterations(iterations);
        workload.setLoad(load);
        workload.setWarmup("0s");
        workload.setDuration(MAX_DURATION);
        workload.setThresholds(null);
        workload.setSweep(null);
        workload.setCapacity(null);
        workload.setRestartBetweenSteps(null);
        workload.setContinueAfterBreak(null);
        workload.setParallelism(1);
        return spec;
    }
}
