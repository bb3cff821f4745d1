package dev.stackbench.local;

import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.BenchmarkRunStatus;
import dev.stackbench.api.LatencySummary;
import dev.stackbench.api.RunSummary;
import dev.stackbench.api.TargetSummary;
import dev.stackbench.report.RunRow;
import java.util.ArrayList;
import java.util.List;

/** Turns a run's status (the same block the operator writes) into its line of the comparison table. */
public final class ReportRows {

    private ReportRows() {}

    public static RunRow of(BenchmarkRun run, RunObservation observation) {
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
        String alarm = null;
        if (summary.getWarnings() != null) {
            for (String warning : summary.getWarnings()) {
                if (warning.startsWith("k6 could not generate") && alarm == null) {
                    alarm = warning;
                } else {
                    warnings.add(warning);
                }
            }
        }
        if (alarm != null) {
            // The loud alarm already says k6 fell short; the aggregator's own note on dropped iterations repeats it.
            warnings.removeIf(warning -> warning.startsWith("k6 dropped"));
        }
        Double k6Cores = observation == null ? null : observation.averageLoadGeneratorCores();
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
                warnings);
    }
}
