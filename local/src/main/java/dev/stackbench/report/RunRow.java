package dev.stackbench.report;

import java.util.List;

/**
 * One run's line in the comparison table, with the figures the status summary holds. Nullable numbers are
 * figures that could not be measured (e.g. no Little's-law cap for a variant that is not thread-bound).
 *
 * @param errorRate fraction of failed requests (0.01 = 1 %)
 * @param littleLawRps predicted throughput cap (pool threads / nominal latency) for thread-bound variants
 * @param loadGeneratorCpuCores average CPU k6 used, in cores
 * @param loadGeneratorAlarm why k6 did not offer the requested load (dropped iterations, CPU saturated), or
 *     null when it did; such a row does not measure what the spec asked for
 */
public record RunRow(
        String name,
        String variant,
        String phase,
        long requests,
        Double rps,
        Double p50Ms,
        Double p95Ms,
        Double p99Ms,
        Double maxMs,
        Double errorRate,
        long droppedIterations,
        Integer peakThreads,
        Double avgCpuCores,
        Double loadGeneratorCpuCores,
        Double littleLawRps,
        Boolean thresholdsPassed,
        String loadGeneratorAlarm,
        List<String> warnings) {

    public RunRow {
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
    }
}
