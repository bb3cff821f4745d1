package dev.stackbench.local;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.BenchmarkRunStatus;
import dev.stackbench.api.status.BurstSummary;
import dev.stackbench.api.status.Conditions;
import dev.stackbench.api.status.IntendedLatency;
import dev.stackbench.api.status.LatencySummary;
import dev.stackbench.api.status.LockSummary;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.api.status.TargetSummary;
import dev.stackbench.report.RunRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

/** Turns a run's status (the same block the operator writes) into its line of the comparison table. */
public final class ReportRows {

    private ReportRows() {}

    public static RunRow of(BenchmarkRun run, RunObservation observation) {
        return fromStatus(run, observation == null ? null : observation.averageLoadGeneratorCores());
    }

    /**
     * The run's line from its status alone, as read back from a results directory.
     *
     * @param loadGeneratorCores average CPU k6 used over the measured window, in cores, or null when not known
     */
    public static RunRow fromStatus(BenchmarkRun run, Double loadGeneratorCores) {
        BenchmarkRunStatus status = run.getStatus();
        RunRow row = summaryRow(run, loadGeneratorCores);
        if (status != null && status.getSummary() != null) {
            row = row.withLimitedBy(status.getSummary().getLimitedBy());
        }
        if (status == null || (status.getSteps() == null && status.getCapacity() == null)) {
            return row;
        }
        // A sweep or capacity search that failed part-way still has the steps it measured, but maybe no summary.
        Integer kept = status.getSummary() == null ? null : status.getSummary().getStep();
        return row.withSteps(status.getSteps(), kept, status.getCapacity());
    }

    /** The run's line: the status summary's figures, for a sweep those of the kept step. */
    private static RunRow summaryRow(BenchmarkRun run, Double k6Cores) {
        BenchmarkRunStatus status = run.getStatus();
        RunSummary summary = status == null ? null : status.getSummary();
        String phase = status == null || status.getPhase() == null
                ? "-"
                : status.getPhase().name();
        String variant = run.getSpec().getTarget().getVariant();
        List<String> warnings = new ArrayList<>();
        if (status != null && "Failed".equals(phase) && status.getMessage() != null) {
            warnings.add("failed: " + status.getMessage());
        }
        if (summary == null) {
            return new RunRow(
                    run.getMetadata().getName(),
                    variant,
                    phase,
                    0,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    0,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    warnings);
        }
        LatencySummary latency = summary.getLatencyMs() == null ? new LatencySummary() : summary.getLatencyMs();
        TargetSummary target = summary.getTarget() == null ? new TargetSummary() : summary.getTarget();
        // The generator check's finding is the row's alarm: its condition holds it whether or not the summary's
        // warnings repeat it (dropped iterations are already a warning of their own there).
        String alarm = status.getConditions() == null
                ? null
                : status.getConditions().stream()
                        .filter(c -> Conditions.GENERATOR_SATURATED.equals(c.getType())
                                && Conditions.TRUE.equals(c.getStatus()))
                        .map(c -> c.getMessage())
                        .findFirst()
                        .orElse(null);
        if (summary.getWarnings() != null) {
            for (String warning : summary.getWarnings()) {
                if (!warning.equals(alarm)) {
                    warnings.add(warning);
                }
            }
        }
        if (alarm != null) {
            // The alarm already says k6 fell short; the summary's own note on dropped iterations repeats it.
            warnings.removeIf(warning -> warning.startsWith("k6 dropped"));
        }
        return new RunRow(
                run.getMetadata().getName(),
                variant,
                phase,
                summary.getRequests() == null ? 0 : summary.getRequests(),
                summary.getRps(),
                latency.getP50(),
                latency.getP95(),
                latency.getP99(),
                latency.getMax(),
                summary.getErrorRate(),
                summary.getDroppedIterations() == null ? 0 : summary.getDroppedIterations(),
                target.getPeakThreads(),
                target.getAvgCpuCores(),
                k6Cores,
                summary.getLittleLawRps(),
                summary.getThresholdsPassed(),
                alarm,
                warnings,
                details(summary));
    }

    /** The figures some scenarios and executors add: status codes, a burst's makespan, the lock groups. */
    static List<String> details(RunSummary summary) {
        List<String> lines = new ArrayList<>();
        if (summary.getLimitedBy() != null) {
            lines.add("limited by " + summary.getLimitedBy().describe());
        }
        Map<String, Long> codes = summary.getStatusCodes();
        if (codes != null && !codes.isEmpty()) {
            lines.add("statuses: "
                    + codes.entrySet().stream()
                            .map(entry -> (entry.getKey().equals("0") ? "no response" : entry.getKey()) + " x"
                                    + entry.getValue())
                            .collect(Collectors.joining(", ")));
        }
        Integer peakPool =
                summary.getTarget() == null ? null : summary.getTarget().getPeakPoolThreads();
        if (peakPool != null && peakPool >= 0) {
            lines.add("pool: at most " + peakPool
                    + " threads of the request pool at work (its live threads for an offloading pool)");
        } else if (peakPool != null) {
            // Tomcat publishes -1 busy threads when its executor is no thread pool (virtual threads): nothing to count.
            lines.add("pool: the target reports no busy-thread count for its requests (" + peakPool
                    + " from Tomcat: its executor is not a pool of platform threads, e.g. virtual threads)");
        }
        intendedLine(summary.getIntendedLatencyMs()).ifPresent(lines::add);
        BurstSummary burst = summary.getBurst();
        if (burst != null) {
            lines.add(String.format(
                    Locale.ROOT,
                    "burst: %d of %d requests answered, makespan %s ms (first request sent to last response)",
                    burst.getCompletedRequests(),
                    burst.getPlannedRequests(),
                    burst.getMakespanMs() == null ? "-" : String.format(Locale.ROOT, "%.0f", burst.getMakespanMs())));
        }
        LockSummary lock = summary.getLock();
        if (lock != null) {
            LatencySummary wait = lock.getLockWaitMs();
            lines.add(String.format(
                    Locale.ROOT,
                    "lock: %d groups of %d: %d correct, %d with several successes, %d with none, %d with errors%s",
                    lock.getGroups(),
                    lock.getGroupSize(),
                    lock.getCorrectGroups(),
                    lock.getGroupsWithSeveralSuccesses(),
                    lock.getGroupsWithoutSuccess(),
                    lock.getGroupsWithErrors(),
                    wait == null || wait.getP50() == null
                            ? ""
                            : String.format(
                                    Locale.ROOT,
                                    "; lock wait p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms%s",
                                    wait.getP50(),
                                    wait.getP95(),
                                    wait.getP99(),
                                    wait.getMax(),
                                    Boolean.FALSE.equals(lock.getLockWaitExact())
                                            ? " (upper bounds: the largest of the runners')"
                                            : "")));
        }
        return lines;
    }

    /**
     * The latency from the intended start beside the service time, ">=" before a figure that dropped iterations make
     * a lower bound.
     */
    static Optional<String> intendedLine(IntendedLatency intended) {
        if (intended == null || intended.getP50() == null) {
            return Optional.empty();
        }
        List<String> bounds = intended.getLowerBounds() == null ? List.of() : intended.getLowerBounds();
        BiFunction<String, Double, String> figure = (name, value) ->
                String.format(Locale.ROOT, "%s %s%.1f", name, bounds.contains(name) ? ">=" : "", value);
        return Optional.of(String.format(
                Locale.ROOT,
                "from the intended start: %s, %s, %s, %s ms over %d intended iterations (%d dropped%s)%s",
                figure.apply("p50", intended.getP50()),
                figure.apply("p90", intended.getP90()),
                figure.apply("p95", intended.getP95()),
                figure.apply("p99", intended.getP99()),
                intended.getIntended(),
                intended.getDropped(),
                (intended.getBeyondWindow() != null && intended.getBeyondWindow() > 0
                                ? ", " + intended.getBeyondWindow() + " never served in the window"
                                : "")
                        + (intended.getCutOff() != null ? ", " + intended.getCutOff() + " cut off at the end" : ""),
                intended.getScheduleLagP99Ms() == null
                        ? ""
                        : String.format(Locale.ROOT, "; schedule lag p99 %.1f ms", intended.getScheduleLagP99Ms())));
    }
}
