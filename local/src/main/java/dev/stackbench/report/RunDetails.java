package dev.stackbench.report;

import dev.stackbench.api.status.TimelineEntry;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What the report shows of a run beyond its figures over the measured window, all read from its results directory.
 *
 * @param directory the run's results directory, which the report links its raw files from; null when unknown
 * @param files the raw files in it worth opening (CSV, logs, the status), relative to {@code directory}
 * @param warmup the warmup's requests per second, seconds counted back from the measured window (negative)
 * @param spectrum the measured window's latency distribution (HdrHistogram percentile spectrum)
 * @param provenance what made the results: stackbench build, k6, machine, JDK
 * @param statusCodes responses per HTTP status over the measured window ("0": no response)
 * @param checks k6 checks by name: passes and fails
 * @param requestNames latency and errors per request name, where k6's summary has them
 */
public record RunDetails(
        Path directory,
        List<String> files,
        List<RequestTimeline.Point> warmup,
        List<LatencyPercentile> spectrum,
        Map<String, Object> provenance,
        Map<String, Long> statusCodes,
        List<CheckCount> checks,
        List<RequestNameFigures> requestNames,
        List<TimelineEntry> timeline) {

    /** Nothing beyond the figures: a report built in memory by a caller that has no results directory. */
    public static final RunDetails NONE =
            new RunDetails(null, List.of(), List.of(), List.of(), Map.of(), Map.of(), List.of(), List.of(), List.of());

    public RunDetails {
        files = List.copyOf(files);
        warmup = List.copyOf(warmup);
        spectrum = List.copyOf(spectrum);
        checks = List.copyOf(checks);
        requestNames = List.copyOf(requestNames);
        timeline = timeline == null ? List.of() : List.copyOf(timeline);
    }

    /** A k6 check over the whole run: how often it held and how often not. */
    public record CheckCount(String name, long passes, long fails) {}

    /** One request name's figures over the measured window; null where k6 did not record them. */
    public record RequestNameFigures(
            String name, Long requests, Double p50Ms, Double p95Ms, Double p99Ms, Double maxMs, Double errorRate) {}
}
