package dev.stackbench.results;

import dev.stackbench.api.status.LimitedBy;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What limited a run, from the figures it measured: the first rule below that holds gives the resource, and every
 * rule names the figures it relied on, so a reader can check the verdict. The order matters because one bottleneck
 * shows up in the resources in front of it too: requests waiting for a database connection hold their request thread,
 * and a pool whose threads all wait shows a busy pool whatever the CPU does. The order is
 *
 * <ol>
 *   <li>{@value #LOAD_GENERATOR}: k6 itself was saturated or throttled ({@link GeneratorCheck}): the figures measure
 *       the generator, so this one overrides every other. When only the CPUs k6 shares were busy, k6 itself well below
 *       its share, the machine was contended rather than the generator saturated: the rules below still decide, and
 *       the verdict carries the generator check's finding as a caveat;
 *   <li>{@value #CONNECTION_POOL}: requests waited for a database connection in at least {@link #PENDING_SHARE} of the
 *       scrapes;
 *   <li>the variant's thread pool, when the scenario holds one of its threads for each request's wait, with more demand
 *       than its Little's-law cap where the workload has a fixed wait: all threads busy in at least
 *       {@link #POOL_FULL_SHARE} of the scrapes where the target publishes the gauge (for an event loop, the threads
 *       a thread-state sample found blocked; below {@link #AT_CAP} of the cap
 *       only while the CPU was not full: threads waiting for CPU are busy too), else the achieved rate at least
 *       {@link #AT_CAP} of the cap. The pool names the resource: Tomcat's threads are the {@value #REQUEST_POOL}, an
 *       event loop blocked in JDBC or a sleep is {@value #EVENT_LOOP_BLOCKED}, boundedElastic or Dispatchers.IO is the
 *       {@value #OFFLOAD_POOL}. A burst (all requests at once) instead waited for the pool when the pool's rounds
 *       (requests / threads, rounded up, at least two) times the wait predict at least {@link #AT_CAP} of its makespan;
 *   <li>{@value #TARGET_CPU}: the target used at least {@link #CPU_FULL} of the CPU it may use, or was throttled in at
 *       least {@link #THROTTLED} of its CFS periods, or (local mode) its CPUs were that busy by every process while it
 *       fell behind;
 *   <li>{@value #GC}: GC pauses took at least {@link #GC_SHARE} of the window;
 *   <li>{@value #DATABASE}: the database pod used at least {@link #CPU_FULL} of its CPU limit (cluster mode; local mode
 *       does not measure PostgreSQL's CPU apart);
 *   <li>{@value #UPSTREAM}: the delay service pod used at least {@link #CPU_FULL} of its CPU limit (cluster mode), or,
 *       locally, the CPUs the delay service and PostgreSQL share were at least {@link #CPU_FULL} busy while the target
 *       fell behind, and the scenario calls the delay service only ({@value #DATABASE} when it queries PostgreSQL only);
 *   <li>{@value #NONE}: the target kept up: the offered rate achieved, no iteration dropped, the median latency near
 *       the workload's nominal wait.
 * </ol>
 *
 * Otherwise {@value #UNKNOWN}, with what was missing to tell. Nothing measures the delay service's latency or the
 * target's upstream connections apart from the target's own latency, so {@value #UPSTREAM} rests on the CPU the delay
 * service had, never on a guess.
 */
public final class LimitingResource {

    public static final String LOAD_GENERATOR = "load-generator";
    public static final String CONNECTION_POOL = "connection-pool";
    public static final String REQUEST_POOL = "request-pool";
    public static final String EVENT_LOOP_BLOCKED = "event-loop-blocked";
    public static final String OFFLOAD_POOL = "offload-pool";
    public static final String TARGET_CPU = "target-cpu";
    public static final String GC = "gc";
    public static final String DATABASE = "database";
    public static final String UPSTREAM = "upstream";
    public static final String NONE = "none";
    public static final String UNKNOWN = "unknown";

    /** Requests waited for a connection in at least this share of the scrapes: the pool was short, not unlucky. */
    public static final double PENDING_SHARE = 0.25;

    /** The pool was full in at least this share of the scrapes: most of the window, not a burst. */
    public static final double POOL_FULL_SHARE = 0.5;

    /** A pool counts as full at this share of its size or more. */
    public static final double POOL_FULL = 0.95;

    /**
     * The achieved rate is at the Little's-law cap from this share of it up: the cap assumes the nominal wait alone,
     * and a shared machine adds a little to every request.
     */
    public static final double AT_CAP = 0.8;

    /** Demand exceeds a cap when the offered rate is above it by this factor (or more VUs than the pool has threads). */
    public static final double ABOVE_CAP = 1.05;

    /** CPU at its limit from this share of what the target may use. */
    public static final double CPU_FULL = 0.9;

    /** Throttled in this share of the CFS periods or more: the limit, not the work, set the pace. */
    public static final double THROTTLED = 0.1;

    /** GC pauses at this share of the window or more. */
    public static final double GC_SHARE = 0.1;

    /** The offered rate counts as achieved from this share of it up. */
    public static final double KEPT_UP = 0.95;

    /** The median latency counts as unloaded up to this factor of the nominal wait, plus {@link #LATENCY_SLACK_MS}. */
    public static final double LATENCY_FACTOR = 1.5;

    public static final double LATENCY_SLACK_MS = 50;

    /**
     * The variant's thread pool and the Little's-law cap it sets on this workload.
     *
     * @param name the catalogue's pool name, e.g. "tomcat", "reactor-netty event loop", "boundedElastic"
     * @param size its threads on the target's CPUs
     * @param threadBound whether each request of the scenario holds one of its threads for its whole wait
     * @param capRps threads / nominal wait; null when the workload has no fixed wait
     * @param serviceSeconds the nominal wait; null when the workload has none
     */
    public record Pool(String name, int size, boolean threadBound, Double capRps, Double serviceSeconds) {

        String resource() {
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.contains("event loop")) {
                return EVENT_LOOP_BLOCKED;
            }
            return lower.contains("tomcat") ? REQUEST_POOL : OFFLOAD_POOL;
        }
    }

    /**
     * What a run measured that the rules read; null figures were not measured.
     *
     * @param generatorSaturated the generator check's finding when k6 was saturated or throttled
     * @param generatorContended the generator check's finding when only the CPUs k6 shares were busy
     * @param offeredRps requests per second the open-model load offered; null for a closed model (VUs)
     * @param vus the VUs of a closed model, the concurrency it offers; null for an open model
     * @param achievedRps requests per second completed in the window
     * @param droppedIterations iterations k6 could not start
     * @param p50Ms the median latency
     * @param pool the variant's thread pool; null when the catalogue does not know the variant
     * @param peakPoolThreads the pool gauge's peak (Tomcat busy threads or the offload pool's live threads)
     * @param poolAtPeakShare the share of scrapes at that peak
     * @param dbPoolPendingShare the share of scrapes with requests waiting for a database connection
     * @param peakDbPoolPending the most requests waiting for a connection at once
     * @param dbCapRps connections / database sleep when the scenario sleeps in the database
     * @param targetCores the target's average CPU in cores
     * @param targetAllowedCores the CPU the target may use
     * @param targetThrottledRatio the share of the target's CFS periods it was throttled in
     * @param gcPauseMs GC pause time in the window
     * @param measuredSeconds the window's length
     * @param databaseCores the database pod's average CPU in cores
     * @param databaseAllowedCores the database pod's CPU limit
     * @param upstreamCores the delay service pod's average CPU in cores (cluster mode)
     * @param upstreamAllowedCores the delay service pod's CPU limit
     * @param backendCpusBusy the busy share of the CPUs the delay service and PostgreSQL run on (local mode, where they
     *     share them with k6)
     * @param targetCpusBusy the busy share of the CPUs the target runs on, by every process (local mode)
     * @param callsUpstream whether the scenario calls the delay service
     * @param usesDatabase whether the scenario queries PostgreSQL
     * @param burst the burst's size and makespan; null for a steady load
     */
    public record Observed(
            Optional<String> generatorSaturated,
            Optional<String> generatorContended,
            Double offeredRps,
            Integer vus,
            double achievedRps,
            long droppedIterations,
            Double p50Ms,
            Pool pool,
            Integer peakPoolThreads,
            Double poolAtPeakShare,
            Double dbPoolPendingShare,
            Double peakDbPoolPending,
            Double dbCapRps,
            Double targetCores,
            Double targetAllowedCores,
            Double targetThrottledRatio,
            Double gcPauseMs,
            Double measuredSeconds,
            Double databaseCores,
            Double databaseAllowedCores,
            Double upstreamCores,
            Double upstreamAllowedCores,
            Double backendCpusBusy,
            Double targetCpusBusy,
            boolean callsUpstream,
            boolean usesDatabase,
            Burst burst) {}

    /**
     * A burst's figures (executor per-vu-iterations, one request per user, all at once).
     *
     * @param requests the requests sent at once
     * @param makespanMs from the first request sent to the last answer
     */
    public record Burst(long requests, double makespanMs) {}

    private LimitingResource() {}

    /** The first rule that holds, with its figures; {@value #UNKNOWN} with what was missing when none holds. */
    public static LimitedBy classify(Observed o) {
        if (o.generatorSaturated().isPresent()) {
            return new LimitedBy(LOAD_GENERATOR, List.of(o.generatorSaturated().get()));
        }
        List<String> missing = new ArrayList<>();
        Optional<LimitedBy> found = connectionPool(o)
                .or(() -> pool(o, missing))
                .or(() -> targetCpu(o, missing))
                .or(() -> gc(o))
                .or(() -> database(o))
                .or(() -> backend(o, missing))
                .or(() -> keptUp(o, missing));
        LimitedBy verdict = found.orElseGet(() -> unknown(o, missing));
        o.generatorContended().ifPresent(finding -> verdict.getEvidence().add("less trustworthy figures: " + finding));
        return verdict;
    }

    private static Optional<LimitedBy> connectionPool(Observed o) {
        if (o.dbPoolPendingShare() == null || o.dbPoolPendingShare() < PENDING_SHARE) {
            return Optional.empty();
        }
        List<String> evidence = new ArrayList<>();
        evidence.add(format(
                "requests waited for a database connection in %.0f%% of samples (at most %.0f at once)",
                100 * o.dbPoolPendingShare(), o.peakDbPoolPending() == null ? Double.NaN : o.peakDbPoolPending()));
        if (o.dbCapRps() != null) {
            evidence.add(
                    format("%.1f req/s against the connections' Little's-law cap %.1f", o.achievedRps(), o.dbCapRps()));
        }
        return Optional.of(new LimitedBy(CONNECTION_POOL, evidence));
    }

    private static Optional<LimitedBy> pool(Observed o, List<String> missing) {
        Pool pool = o.pool();
        if (pool == null || !pool.threadBound() || pool.size() <= 0) {
            return Optional.empty();
        }
        if (o.burst() != null && pool.serviceSeconds() != null) {
            return burstRounds(o);
        }
        boolean gauge = o.peakPoolThreads() != null && o.poolAtPeakShare() != null;
        boolean full =
                gauge && o.peakPoolThreads() >= POOL_FULL * pool.size() && o.poolAtPeakShare() >= POOL_FULL_SHARE;
        if (gauge && !full) {
            return Optional.empty();
        }
        if (pool.capRps() == null) {
            if (!gauge) {
                missing.add("the " + pool.name() + " threads' gauge and a fixed wait for the Little's-law cap");
                return Optional.empty();
            }
            // A full pool without a fixed wait to compare with: threads waiting for CPU are busy too.
            return cpuFull(o) ? Optional.empty() : Optional.of(new LimitedBy(pool.resource(), List.of(poolFull(o))));
        }
        boolean demandAbove = o.offeredRps() != null
                ? o.offeredRps() >= ABOVE_CAP * pool.capRps()
                : o.vus() != null && o.vus() > pool.size();
        boolean atCap = o.achievedRps() >= AT_CAP * pool.capRps();
        // A full pool below its cap held each request longer than the nominal wait: still the pool, unless the CPU
        // was full too (threads waiting for CPU are busy as well). Without the gauge only the cap can tell.
        if (!demandAbove || (full ? !atCap && cpuFull(o) : !atCap)) {
            return Optional.empty();
        }
        List<String> evidence = new ArrayList<>();
        if (full) {
            evidence.add(poolFull(o));
        }
        evidence.add(format(
                "%.1f req/s, %.0f%% of the Little's-law cap %.1f (%d threads / %.3f s per request; measured %.3f s per"
                        + " request), %s",
                o.achievedRps(),
                100 * o.achievedRps() / pool.capRps(),
                pool.capRps(),
                pool.size(),
                pool.serviceSeconds(),
                o.achievedRps() > 0 ? pool.size() / o.achievedRps() : Double.NaN,
                o.offeredRps() != null
                        ? format("%.1f req/s offered", o.offeredRps())
                        : o.vus() + " requests in flight (VUs)"));
        if (!gauge) {
            evidence.add("no gauge of busy " + pool.name() + " threads: judged from the cap alone");
        }
        return Optional.of(new LimitedBy(pool.resource(), evidence));
    }

    /**
     * A burst against a pool that holds a thread per request's fixed wait: the pool serves it in rounds of its size,
     * so it predicts the makespan (rounds x the wait). A burst of at least two rounds whose makespan reached
     * {@link #AT_CAP} of the prediction waited for the pool. A burst is over in a few scrapes, too few for the pool's
     * gauge to tell, so the rounds decide.
     */
    private static Optional<LimitedBy> burstRounds(Observed o) {
        Pool pool = o.pool();
        Burst burst = o.burst();
        long rounds = (burst.requests() + pool.size() - 1) / pool.size();
        double predictedSeconds = rounds * pool.serviceSeconds();
        double makespanSeconds = burst.makespanMs() / 1000;
        if (rounds < 2 || makespanSeconds < AT_CAP * predictedSeconds) {
            return Optional.empty();
        }
        return Optional.of(new LimitedBy(
                pool.resource(),
                List.of(format(
                        "a burst of %d requests on %d %s threads: %d rounds of %.3f s, %.1f s as the pool predicts;"
                                + " makespan %.1f s",
                        burst.requests(),
                        pool.size(),
                        pool.name(),
                        rounds,
                        pool.serviceSeconds(),
                        predictedSeconds,
                        makespanSeconds))));
    }

    private static String poolFull(Observed o) {
        // An event loop's gauge is a thread-state sample: its threads are busy by design, blocked only by mistake.
        String state = EVENT_LOOP_BLOCKED.equals(o.pool().resource())
                ? "found blocked (in JDBC, a sleep or a wait) by the thread-state sample"
                : "in use";
        return format(
                "%d/%d %s threads %s in %.0f%% of samples",
                o.peakPoolThreads(), o.pool().size(), o.pool().name(), state, 100 * o.poolAtPeakShare());
    }

    private static boolean cpuFull(Observed o) {
        return o.targetCores() != null
                && o.targetAllowedCores() != null
                && o.targetAllowedCores() > 0
                && o.targetCores() >= CPU_FULL * o.targetAllowedCores();
    }

    private static Optional<LimitedBy> targetCpu(Observed o, List<String> missing) {
        List<String> evidence = new ArrayList<>();
        if (cpuFull(o)) {
            evidence.add(format(
                    "target used %.2f of %.2f CPU (%.0f%%)",
                    o.targetCores(), o.targetAllowedCores(), 100 * o.targetCores() / o.targetAllowedCores()));
        }
        if (evidence.isEmpty()
                && o.targetCpusBusy() != null
                && o.targetCpusBusy() >= CPU_FULL
                && keptUp(o).isEmpty()) {
            evidence.add(format(
                    "the target's CPUs were %.0f%% busy while it fell behind, the target itself using %.2f of %.2f CPU:"
                            + " other processes took the rest",
                    100 * o.targetCpusBusy(),
                    o.targetCores() == null ? Double.NaN : o.targetCores(),
                    o.targetAllowedCores() == null ? Double.NaN : o.targetAllowedCores()));
        }
        if (o.targetThrottledRatio() != null && o.targetThrottledRatio() >= THROTTLED) {
            evidence.add(format("target throttled in %.0f%% of its CPU periods", 100 * o.targetThrottledRatio()));
        }
        if (o.targetCores() == null) {
            missing.add("the target's CPU");
        }
        return evidence.isEmpty() ? Optional.empty() : Optional.of(new LimitedBy(TARGET_CPU, evidence));
    }

    private static Optional<LimitedBy> gc(Observed o) {
        if (o.gcPauseMs() == null || o.measuredSeconds() == null || o.measuredSeconds() <= 0) {
            return Optional.empty();
        }
        double share = o.gcPauseMs() / (1000 * o.measuredSeconds());
        return atLeast(
                GC,
                share,
                GC_SHARE,
                format(
                        "GC paused the target %.0f ms of %.0f s (%.0f%%)",
                        o.gcPauseMs(), o.measuredSeconds(), 100 * share));
    }

    private static Optional<LimitedBy> database(Observed o) {
        return podAtLimit(DATABASE, "database", o.databaseCores(), o.databaseAllowedCores());
    }

    /** A pod at {@link #CPU_FULL} of its CPU limit or more; empty too when its figures are missing. */
    private static Optional<LimitedBy> podAtLimit(String resource, String who, Double cores, Double allowed) {
        if (cores == null || allowed == null || allowed <= 0) {
            return Optional.empty();
        }
        double share = cores / allowed;
        return atLeast(
                resource,
                share,
                CPU_FULL,
                format("%s used %.2f of %.2f CPU (%.0f%%)", who, cores, allowed, 100 * share));
    }

    /**
     * The backend the target waited for: the delay service pod at its CPU limit (cluster mode), or, locally, the CPUs
     * the delay service and PostgreSQL share busy while the target fell behind, which of the two by what the scenario
     * calls.
     */
    private static Optional<LimitedBy> backend(Observed o, List<String> missing) {
        if (o.upstreamCores() != null && o.upstreamAllowedCores() != null) {
            return podAtLimit(UPSTREAM, "delay service", o.upstreamCores(), o.upstreamAllowedCores());
        }
        if (o.backendCpusBusy() == null
                || o.backendCpusBusy() < CPU_FULL
                || keptUp(o).isPresent()) {
            return Optional.empty();
        }
        String busy = format(
                "the CPUs the delay service and PostgreSQL run on were %.0f%% busy while the target fell behind",
                100 * o.backendCpusBusy());
        if (o.callsUpstream() == o.usesDatabase()) {
            missing.add(busy + ", but which of the two used them is not measured");
            return Optional.empty();
        }
        List<String> evidence = new ArrayList<>(List.of(busy));
        latencyAgainstNominal(o).ifPresent(evidence::add);
        if (o.targetCores() != null && o.targetAllowedCores() != null) {
            evidence.add(format("target used %.2f of %.2f CPU", o.targetCores(), o.targetAllowedCores()));
        }
        return Optional.of(new LimitedBy(o.callsUpstream() ? UPSTREAM : DATABASE, evidence));
    }

    /** The resource with its one figure when the share reaches the threshold. */
    private static Optional<LimitedBy> atLeast(String resource, double share, double threshold, String evidence) {
        return share < threshold ? Optional.empty() : Optional.of(new LimitedBy(resource, List.of(evidence)));
    }

    /** The median against the nominal wait, where both are known. */
    private static Optional<String> latencyAgainstNominal(Observed o) {
        Double nominalMs = nominalMs(o);
        return nominalMs == null || o.p50Ms() == null
                ? Optional.empty()
                : Optional.of(format("median %.0f ms against the nominal %.0f ms", o.p50Ms(), nominalMs));
    }

    private static Double nominalMs(Observed o) {
        return o.pool() == null || o.pool().serviceSeconds() == null
                ? null
                : 1000 * o.pool().serviceSeconds();
    }

    /** Whether the target kept up, with the figures that show it; empty when it fell behind or nothing can tell. */
    private static Optional<LimitedBy> keptUp(Observed o) {
        return keptUp(o, new ArrayList<>());
    }

    private static Optional<LimitedBy> keptUp(Observed o, List<String> missing) {
        List<String> evidence = new ArrayList<>();
        if (o.droppedIterations() > 0) {
            return Optional.empty();
        }
        if (o.offeredRps() != null) {
            if (o.achievedRps() < KEPT_UP * o.offeredRps()) {
                return Optional.empty();
            }
            evidence.add(format("%.1f of %.1f req/s offered", o.achievedRps(), o.offeredRps()));
        }
        evidence.add("no iterations dropped");
        Double nominalMs = nominalMs(o);
        if (nominalMs != null && o.p50Ms() != null) {
            if (o.p50Ms() > LATENCY_FACTOR * nominalMs + LATENCY_SLACK_MS) {
                return Optional.empty();
            }
            evidence.add(latencyAgainstNominal(o).orElseThrow());
        } else if (o.offeredRps() == null) {
            // A closed model always "achieves" what it offers: only the latency can say the target kept up.
            missing.add("an offered rate or a nominal wait to compare the latency with");
            return Optional.empty();
        } else {
            evidence.add("no nominal wait to compare the latency with");
        }
        return Optional.of(new LimitedBy(NONE, evidence));
    }

    private static LimitedBy unknown(Observed o, List<String> missing) {
        List<String> evidence = new ArrayList<>();
        evidence.add(format("no rule held at %.1f req/s", o.achievedRps()));
        if (missing.isEmpty()) {
            evidence.add("no pool was full, the CPU below its limit, GC and database unremarkable, yet the target did"
                    + " not keep up; the upstream (delay service) is not measured apart");
        } else {
            evidence.add("missing: " + String.join(", ", missing));
        }
        return new LimitedBy(UNKNOWN, evidence);
    }

    private static String format(String pattern, Object... args) {
        return String.format(Locale.ROOT, pattern, args);
    }
}
