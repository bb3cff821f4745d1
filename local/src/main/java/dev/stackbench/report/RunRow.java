package dev.stackbench.report;

import dev.stackbench.api.status.CapacityResult;
import dev.stackbench.api.status.LimitedBy;
import dev.stackbench.api.status.StepResult;
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
 * @param steps a sweep's or a capacity search's measured steps in the order they ran (status.steps); empty for a
 *     run with one load level
 * @param keptStep the step whose figures the row shows (status.summary.step), or null
 * @param capacity what a capacity search found (status.capacity), or null
 * @param limitedBy what limited the run (status.summary.limitedBy), or null when it was not judged
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
        List<String> details,
        List<StepResult> steps,
        Integer keptStep,
        CapacityResult capacity,
        LimitedBy limitedBy) {

    public RunRow {
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
        details = details == null ? List.of() : List.copyOf(details);
        steps = steps == null ? List.of() : List.copyOf(steps);
    }

    /** A row of a run with one load level. */
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
            List<String> warnings,
            List<String> details) {
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
                details,
                List.of(),
                null,
                null,
                null);
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

    /** This row with a sweep's or a capacity search's results. */
    public RunRow withSteps(List<StepResult> steps, Integer keptStep, CapacityResult capacity) {
        return new RunRow(
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
                details,
                steps,
                keptStep,
                capacity,
                limitedBy);
    }

    /** This row under another name, e.g. with its invocation's directory in front when runs of several are shown. */
    public RunRow withName(String newName) {
        return new RunRow(
                newName,
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
                details,
                steps,
                keptStep,
                capacity,
                limitedBy);
    }

    /** This row with what limited its run. */
    public RunRow withLimitedBy(LimitedBy verdict) {
        return new RunRow(
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
                details,
                steps,
                keptStep,
                capacity,
                verdict);
    }
}
