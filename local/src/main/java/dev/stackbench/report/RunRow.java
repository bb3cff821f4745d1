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
 * @param details lines printed under the table for this run: the status codes, a burst's makespan, the lock groups
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
        List<String> warnings,
        List<String> details) {

    public RunRow {
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
        details = details == null ? List.of() : List.copyOf(details);
    }

    /** A row without detail lines. */
    public RunRow(
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
        this(
                name,
                variant,
                phase,
                requests,
                rps,
                p50Ms,
                p95Ms,
                p99Ms,
                maxMs,
                errorRate,
                droppedIterations,
                peakThreads,
                avgCpuCores,
                loadGeneratorCpuCores,
                littleLawRps,
                thresholdsPassed,
                loadGeneratorAlarm,
                warnings,
                List.of());
    }
}
