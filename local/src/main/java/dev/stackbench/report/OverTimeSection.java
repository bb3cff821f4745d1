package dev.stackbench.report;

import java.util.List;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The report's charts over time (throughput, latency, errors, the target's threads and CPU, k6's CPU) and each run's
 * latency distribution: interactive, with a static image beside each for a reader without JavaScript.
 */
final class OverTimeSection {

    private OverTimeSection() {}

    static void append(StringBuilder html, List<ReportRun> runs, InteractiveCharts charts) {
        html.append("<h2>Over time</h2>\n");
        requestChart(
                html,
                charts,
                "Throughput (completed requests per second)",
                "requests/s",
                runs,
                true,
                point -> point.requests());
        requestChart(html, charts, "p95 latency per second", "latency (ms)", runs, false, RequestTimeline.Point::p95Ms);
        for (ReportRun run : runs) {
            if (!run.requests().isEmpty()) {
                charts.add(html, InteractiveCharts.latencyPercentiles(run));
            }
            HtmlReport.image(html, Charts.latencyPercentiles(run));
        }
        if (runs.stream().anyMatch(run -> !run.details().spectrum().isEmpty())) {
            html.append("<h2>Latency distribution</h2>\n<p>Each run's latencies over the measured window by"
                    + " percentile, on a scale that gives p90, p99, p99.9 and p99.99 equal room (HdrHistogram's"
                    + " percentile spectrum).</p>\n");
            charts.add(html, InteractiveCharts.spectrum(runs));
            appendSpectrumTable(html, runs);
        }
        html.append("<h2>Target and load generator</h2>\n");
        gaugeChart(html, charts, "Target live JVM threads", "threads", runs, ReportRun::liveThreads);
        gaugeChart(html, charts, "Target CPU use", "cores", runs, ReportRun::targetCpuCores);
        gaugeChart(html, charts, "Load generator (k6) CPU use", "cores", runs, ReportRun::loadGeneratorCpuCores);
        requestChart(html, charts, "Errors per second", "failed requests/s", runs, true, point -> point.failed());
    }

    /**
     * A chart of the runs' per-second request figures: interactive (with the warmup, shaded, when it has the figure)
     * and as a static image for a reader without JavaScript.
     */
    private static void requestChart(
            StringBuilder html,
            InteractiveCharts charts,
            String title,
            String unit,
            List<ReportRun> runs,
            boolean warmupToo,
            ToDoubleFunction<RequestTimeline.Point> y) {
        charts.add(
                html,
                InteractiveCharts.perRun(
                        title + (warmupToo ? " (warmup shaded)" : ""),
                        unit,
                        runs,
                        warmupToo ? InteractiveCharts::withWarmup : ReportRun::requests,
                        RequestTimeline.Point::second,
                        y));
        HtmlReport.image(html, Charts.perRun(title, unit, runs, ReportRun::requests, RequestTimeline.Point::second, y));
    }

    private static void gaugeChart(
            StringBuilder html,
            InteractiveCharts charts,
            String title,
            String unit,
            List<ReportRun> runs,
            Function<ReportRun, List<GaugePoint>> points) {
        charts.add(html, InteractiveCharts.perRun(title, unit, runs, points, GaugePoint::second, GaugePoint::value));
        HtmlReport.image(html, Charts.perRun(title, unit, runs, points, GaugePoint::second, GaugePoint::value));
    }

    /** The spectrum's main percentiles as a table, for a reader without JavaScript and for copying figures. */
    private static void appendSpectrumTable(StringBuilder html, List<ReportRun> runs) {
        List<Double> shown = List.of(50.0, 90.0, 99.0, 99.9, 99.99, 100.0);
        html.append("<table><tr><th>run</th>");
        shown.forEach(p -> html.append("<th>")
                .append(p == 100.0 ? "max" : "p" + SummaryTable.number(p, p % 1 == 0 ? 0 : 2))
                .append(" ms</th>"));
        html.append("</tr>\n");
        for (ReportRun run : runs) {
            if (run.details().spectrum().isEmpty()) {
                continue;
            }
            html.append("<tr><td>").append(HtmlReport.escape(run.row().name())).append("</td>");
            for (double p : shown) {
                Double value = run.details().spectrum().stream()
                        .filter(point -> point.percentile() == p)
                        .map(LatencyPercentile::latencyMs)
                        .findFirst()
                        .orElse(null);
                html.append("<td class=\"n\">")
                        .append(SummaryTable.number(value, 1))
                        .append("</td>");
            }
            html.append("</tr>\n");
        }
        html.append("</table>\n");
    }
}
