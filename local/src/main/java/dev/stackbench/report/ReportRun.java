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
        double measuredSeconds) {

    public ReportRun {
        requests = List.copyOf(requests);
        liveThreads = List.copyOf(liveThreads);
        targetCpuCores = List.copyOf(targetCpuCores);
        loadGeneratorCpuCores = List.copyOf(loadGeneratorCpuCores);
        isolationNotes = List.copyOf(isolationNotes);
    }
}
