package dev.stackbench.report;

import java.util.List;
import java.util.Map;

/**
 * Everything the HTML report shows about one run.
 *
 * @param requests per-second throughput and latency of the measured window (warmup excluded)
 * @param liveThreads the target's live JVM threads over the measured window
 * @param targetCpuCores CPU the target used, in cores, over the measured window
 * @param loadGeneratorCpuCores CPU k6 used, in cores, over the measured window
 * @param isolationNotes what the machine could and could not isolate for this run
 * @param environment CPU model, CPUs per process, versions: what is needed to reproduce it
 * @param specYaml the BenchmarkRun as run
 * @param measuredSeconds planned length of the measured window (requests still in flight finish after it), or NaN
 * @param details what the run's results directory adds: warmup, latency spectrum, errors, provenance, raw files
 */
public record ReportRun(
        RunRow row,
        List<RequestTimeline.Point> requests,
        List<GaugePoint> liveThreads,
        List<GaugePoint> targetCpuCores,
        List<GaugePoint> loadGeneratorCpuCores,
        List<String> isolationNotes,
        Map<String, Object> environment,
        String specYaml,
        double measuredSeconds,
        RunDetails details) {

    /** A run without the details a results directory adds. */
    public ReportRun(
            RunRow row,
            List<RequestTimeline.Point> requests,
            List<GaugePoint> liveThreads,
            List<GaugePoint> targetCpuCores,
            List<GaugePoint> loadGeneratorCpuCores,
            List<String> isolationNotes,
            Map<String, Object> environment,
            String specYaml,
            double measuredSeconds) {
        this(
                row,
                requests,
                liveThreads,
                targetCpuCores,
                loadGeneratorCpuCores,
                isolationNotes,
                environment,
                specYaml,
                measuredSeconds,
                RunDetails.NONE);
    }

    public ReportRun {
        details = details == null ? RunDetails.NONE : details;
        requests = List.copyOf(requests);
        liveThreads = List.copyOf(liveThreads);
        targetCpuCores = List.copyOf(targetCpuCores);
        loadGeneratorCpuCores = List.copyOf(loadGeneratorCpuCores);
        isolationNotes = List.copyOf(isolationNotes);
    }

    /** This run with another row, e.g. the same figures under a longer name. */
    public ReportRun withRow(RunRow newRow) {
        return new ReportRun(
                newRow,
                requests,
                liveThreads,
                targetCpuCores,
                loadGeneratorCpuCores,
                isolationNotes,
                environment,
                specYaml,
                measuredSeconds,
                details);
    }
}
