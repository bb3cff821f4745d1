package dev.stackbench.results;

import java.time.Instant;

/**
 * The target figures of one scrape, for plots over time. A field is NaN when the scrape did not have the metric.
 *
 * @param cpuSecondsTotal process CPU time so far (process_cpu_time_ns_total), NaN if not exposed
 * @param cpuUsage process_cpu_usage: share of all available CPUs, 0..1
 * @param availableCpus system_cpu_count: CPUs the JVM sees
 * @param gcPauseSecondsTotal sum of jvm_gc_pause_seconds_sum over all collectors
 * @param poolThreads live threads of the variant's offloading pool (stackbench_pool_threads: boundedElastic,
 *     Dispatchers.IO), else Tomcat's busy threads (tomcat_threads_busy_threads)
 * @param hostStealTicks clock ticks the machine's hypervisor took from every CPU of the machine the target runs on
 *     (stackbench_host_cpu_ticks_total{mode="steal"}, /proc/stat), NaN if not exposed
 * @param hostTicks every clock tick of those CPUs ({mode="all"}), NaN if not exposed
 */
public record TargetSample(
        Instant at,
        double liveThreads,
        double heapUsedMiB,
        double cpuSecondsTotal,
        double cpuUsage,
        double availableCpus,
        double gcPauseSecondsTotal,
        double gcPauses,
        double dbPoolActive,
        double dbPoolPending,
        double poolThreads,
        double hostStealTicks,
        double hostTicks) {

    private static final double MIB = 1024.0 * 1024.0;

    /** The target apps' counter of the machine's CPU ticks, by mode (steal, all). */
    /** The machine's CPU ticks by mode ({@code steal}, {@code all}), as the target apps and the delay service publish them. */
    public static final String HOST_TICKS = "stackbench_host_cpu_ticks_total";

    /** Extracts the figures stackbench reports from one scrape of /actuator/prometheus. */
    public static TargetSample of(Instant at, PrometheusScrape scrape) {
        return new TargetSample(
                at,
                scrape.sum("jvm_threads_live_threads").orElse(Double.NaN),
                scrape.sum("jvm_memory_used_bytes", labels -> "heap".equals(labels.get("area")))
                                .orElse(Double.NaN)
                        / MIB,
                scrape.sum("process_cpu_time_ns_total").orElse(Double.NaN) / 1e9,
                scrape.sum("process_cpu_usage").orElse(Double.NaN),
                scrape.sum("system_cpu_count").orElse(Double.NaN),
                scrape.sum("jvm_gc_pause_seconds_sum").orElse(Double.NaN),
                scrape.sum("jvm_gc_pause_seconds_count").orElse(Double.NaN),
                firstPresent(
                        scrape.sum("hikaricp_connections_active").orElse(Double.NaN),
                        scrape.sum("r2dbc_pool_acquired_connections").orElse(Double.NaN)),
                // Only the live gauges: r2dbc_pool_max_pending_connections is a configured limit, not a queue.
                firstPresent(
                        scrape.sum("hikaricp_connections_pending").orElse(Double.NaN),
                        scrape.sum("r2dbc_pool_pending_connections").orElse(Double.NaN)),
                firstPresent(
                        scrape.sum("stackbench_pool_threads").orElse(Double.NaN),
                        scrape.sum("tomcat_threads_busy_threads").orElse(Double.NaN)),
                hostTicks(scrape, "steal"),
                hostTicks(scrape, "all"));
    }

    private static double hostTicks(PrometheusScrape scrape, String mode) {
        return scrape.sum(HOST_TICKS, labels -> mode.equals(labels.get("mode"))).orElse(Double.NaN);
    }

    /** Parses and extracts in one step. */
    public static TargetSample of(Instant at, String prometheusText) {
        return of(at, PrometheusTextParser.parse(prometheusText));
    }

    private static double firstPresent(double first, double second) {
        return Double.isNaN(first) ? second : first;
    }
}
