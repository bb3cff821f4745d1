package dev.stackbench.report;

import dev.stackbench.api.comparison.BenchmarkComparisonStatus;
import dev.stackbench.api.comparison.ComparisonRunRecord;
import dev.stackbench.api.comparison.MetricSpread;
import dev.stackbench.api.comparison.VariantStatistics;
import dev.stackbench.api.status.TimelineEntry;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One self-contained HTML page comparing the runs of an invocation: the summary table, loud warnings, plots
 * over the measured window (PNG data URIs, so the file can be mailed or attached as a CI artifact) and the
 * environment and spec of each run.
 */
public final class HtmlReport {

    private HtmlReport() {}

    public static String render(String title, Instant generatedAt, List<ReportRun> runs) {
        return render(title, generatedAt, runs, null, null);
    }

    /**
     * The page of a comparison: its statistics table and, per metric, every repetition of every variant with the
     * median and its interval, before the runs themselves.
     *
     * @param comparison the comparison's status, or null for plain runs
     * @param statistics the comparison's table as printed, or null
     */
    public static String render(
            String title,
            Instant generatedAt,
            List<ReportRun> runs,
            BenchmarkComparisonStatus comparison,
            String statistics) {
        return render(title, generatedAt, runs, comparison, statistics, null);
    }

    /**
     * The page, with its links to each run's raw files relative to the directory the page is written into.
     *
     * @param reportDir where the page is written, or null to link the files by their absolute paths
     */
    public static String render(
            String title,
            Instant generatedAt,
            List<ReportRun> runs,
            BenchmarkComparisonStatus comparison,
            String statistics,
            Path reportDir) {
        InteractiveCharts charts = new InteractiveCharts();
        StringBuilder html = new StringBuilder();
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>")
                .append(escape(title))
                .append("</title>\n<style>\n")
                .append("body{font-family:system-ui,sans-serif;margin:2em;max-width:1100px;color:#222}\n")
                .append("table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:4px 8px}\n")
                .append("td.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#f3f3f3}\n")
                .append(".alarm{background:#fdd;border:2px solid #c00;padding:0.8em;font-weight:bold}\n")
                .append(".warn{background:#fff6d5;border:1px solid #d9b400;padding:0.5em}\n")
                .append("pre{background:#f7f7f7;padding:0.8em;overflow:auto}img{max-width:100%}\n")
                .append("tr.kept td{font-weight:bold;background:#eef5ff}\n")
                .append("p.hint{color:#555;font-size:0.9em}\n")
                .append("</style></head><body>\n");
        html.append("<h1>")
                .append(escape(title))
                .append("</h1>\n<p>Generated ")
                .append(generatedAt)
                .append(". Every figure covers the measured window only; warmup is excluded (shaded grey where"
                        + " a chart shows it).</p>\n<p class=\"hint\">Charts: drag across one to zoom in,"
                        + " double-click to zoom out; the legend shows the values under the cursor, a click on an"
                        + " entry hides or shows its series.</p>\n");
        if (comparison != null) {
            appendComparison(html, comparison, statistics, charts);
        }
        appendAlarms(html, runs);
        appendTable(html, runs);
        StepsSection.append(html, runs, charts);
        OverTimeSection.append(html, runs, charts);
        ErrorsSection.append(html, runs);
        for (ReportRun run : runs) {
            appendRunDetails(html, run, reportDir);
        }
        charts.appendScripts(html);
        html.append("</body></html>\n");
        return html.toString();
    }

    private static void appendComparison(
            StringBuilder html, BenchmarkComparisonStatus comparison, String statistics, InteractiveCharts charts) {
        html.append("<h2>Comparison</h2>\n<p><b>")
                .append(escape(comparison.getVerdict()))
                .append("</b> (")
                .append(escape(comparison.getProgress()))
                .append(", seed ")
                .append(comparison.getSeed())
                .append("; shared between repetitions: ")
                .append(escape(comparison.getShared()))
                .append(")</p>\n");
        if (comparison.getWarnings() != null) {
            comparison.getWarnings().forEach(warning -> html.append("<p class=\"warn\">")
                    .append(escape(warning))
                    .append("</p>\n"));
        }
        if (statistics != null) {
            html.append("<pre>").append(escape(statistics)).append("</pre>\n");
        }
        List<String> metrics =
                comparison.getVariants() == null || comparison.getVariants().isEmpty()
                        ? List.of()
                        : comparison.getVariants().getFirst().getMetrics().stream()
                                .map(MetricSpread::getMetric)
                                .toList();
        for (String metric : metrics) {
            List<Charts.ComparisonPoints> points = new ArrayList<>();
            for (VariantStatistics variant : comparison.getVariants()) {
                MetricSpread spread = variant.getMetrics().stream()
                        .filter(candidate -> metric.equals(candidate.getMetric()))
                        .findFirst()
                        .orElse(null);
                List<Double> counted = new ArrayList<>();
                List<Double> leftOut = new ArrayList<>();
                for (ComparisonRunRecord record : comparison.getRuns()) {
                    Double value = record.getFigures() == null
                            ? null
                            : record.getFigures().get(metric);
                    if (!variant.getName().equals(record.getVariant()) || value == null) {
                        continue;
                    }
                    (Boolean.FALSE.equals(record.getCounted()) ? leftOut : counted).add(value);
                }
                points.add(new Charts.ComparisonPoints(
                        variant.getName(),
                        counted.stream().mapToDouble(Double::doubleValue).toArray(),
                        leftOut.stream().mapToDouble(Double::doubleValue).toArray(),
                        spread == null ? null : spread.getMedian(),
                        spread == null ? null : spread.getLower(),
                        spread == null ? null : spread.getUpper()));
            }
            charts.add(html, InteractiveCharts.comparison(metric, unit(metric), points));
            image(html, Charts.comparison(metric, unit(metric), points));
        }
    }

    private static String unit(String metric) {
        return switch (metric) {
            case "rps" -> "requests/s";
            case "errorRate" -> "share of failed requests";
            default -> "latency (ms)";
        };
    }

    private static void appendAlarms(StringBuilder html, List<ReportRun> runs) {
        for (ReportRun run : runs) {
            RunRow row = run.row();
            if (row.loadGeneratorAlarm() != null) {
                html.append("<p class=\"alarm\">")
                        .append(escape(row.name()))
                        .append(": ")
                        .append(escape(row.loadGeneratorAlarm()))
                        .append("</p>\n");
            }
            for (String detail : row.details()) {
                html.append("<p>")
                        .append(escape(row.name()))
                        .append(": ")
                        .append(escape(detail))
                        .append("</p>\n");
            }
            for (String warning : row.warnings()) {
                html.append("<p class=\"warn\">")
                        .append(escape(row.name()))
                        .append(": ")
                        .append(escape(warning))
                        .append("</p>\n");
            }
        }
    }

    private static void appendTable(StringBuilder html, List<ReportRun> runs) {
        boolean capacities = runs.stream().anyMatch(run -> run.row().capacity() != null);
        html.append("<h2>Summary</h2>\n<table><tr>");
        List<String> headers = new ArrayList<>(List.of(
                "run",
                "variant",
                "phase",
                "RPS",
                "p50 ms",
                "p95 ms",
                "p99 ms",
                "max ms",
                "errors",
                "requests",
                "dropped",
                "peak threads",
                "target CPU",
                "k6 CPU",
                "Little's-law cap",
                "RPS / cap",
                "thresholds"));
        if (capacities) {
            headers.add("capacity (iterations/s)");
        }
        headers.add("limited by");
        for (String header : headers) {
            html.append("<th>").append(escape(header)).append("</th>");
        }
        html.append("</tr>\n");
        for (ReportRun run : runs) {
            RunRow row = run.row();
            html.append("<tr><td>")
                    .append(escape(row.name()))
                    .append("</td><td>")
                    .append(escape(row.variant()))
                    .append("</td><td>")
                    .append(escape(row.phase()))
                    .append("</td>");
            List<String> numbers = new ArrayList<>(List.of(
                    SummaryTable.number(row.rps(), 1),
                    SummaryTable.number(row.p50Ms(), 1),
                    SummaryTable.number(row.p95Ms(), 1),
                    SummaryTable.number(row.p99Ms(), 1),
                    SummaryTable.number(row.maxMs(), 1),
                    SummaryTable.percent(row.errorRate()),
                    Long.toString(row.requests()),
                    row.droppedIterations() + (row.loadGeneratorAlarm() != null ? " (!!)" : ""),
                    row.peakThreads() == null ? "-" : row.peakThreads().toString(),
                    SummaryTable.number(row.avgCpuCores(), 2),
                    SummaryTable.number(row.loadGeneratorCpuCores(), 2),
                    SummaryTable.number(row.littleLawRps(), 1),
                    row.littleLawRps() == null || row.rps() == null
                            ? "-"
                            : String.format(Locale.ROOT, "%.0f%%", 100 * row.rps() / row.littleLawRps()),
                    row.thresholdsPassed() == null ? "-" : row.thresholdsPassed() ? "passed" : "FAILED"));
            if (capacities) {
                numbers.add(
                        row.capacity() == null || row.capacity().getRate() == null
                                ? "-"
                                : row.capacity().getRate().toString());
            }
            for (String number : numbers) {
                html.append("<td class=\"n\">").append(escape(number)).append("</td>");
            }
            // The resource in the cell, its evidence on hover and in the lines under the table.
            html.append("<td title=\"")
                    .append(escape(
                            row.limitedBy() == null ? "" : row.limitedBy().describe()))
                    .append("\">")
                    .append(escape(SummaryTable.limitedBy(row.limitedBy())))
                    .append("</td>");
            html.append("</tr>\n");
        }
        html.append("</table>\n<p>Little's-law cap: pool threads / nominal time a request holds a thread; only for "
                + "variants whose pool threads block on the scenario's work.</p>\n");
    }

    private static void appendRunDetails(StringBuilder html, ReportRun run, Path reportDir) {
        html.append("<h2>").append(escape(run.row().name())).append("</h2>\n");
        if (!run.isolationNotes().isEmpty()) {
            html.append("<h3>Isolation on this machine</h3>\n<ul>");
            run.isolationNotes()
                    .forEach(note -> html.append("<li>").append(escape(note)).append("</li>"));
            html.append("</ul>\n");
        }
        html.append("<h3>Environment</h3>\n<table>");
        for (Map.Entry<String, Object> entry : run.environment().entrySet()) {
            html.append("<tr><th>")
                    .append(escape(entry.getKey()))
                    .append("</th><td>")
                    .append(escape(String.valueOf(entry.getValue())))
                    .append("</td></tr>");
        }
        html.append("</table>\n");
        if (!run.details().provenance().isEmpty()) {
            html.append("<h3>Provenance</h3>\n<table>");
            run.details().provenance().forEach((key, value) -> html.append("<tr><th>")
                    .append(escape(key))
                    .append("</th><td>")
                    .append(escape(String.valueOf(value)))
                    .append("</td></tr>"));
            html.append("</table>\n");
        }
        timeline(html, run);
        html.append("<details><summary>BenchmarkRun</summary><pre>")
                .append(escape(run.specYaml()))
                .append("</pre></details>\n");
        RunDetails details = run.details();
        if (details.directory() != null && !details.files().isEmpty()) {
            html.append("<p>Raw files: ");
            for (int i = 0; i < details.files().size(); i++) {
                Path file = details.directory().resolve(details.files().get(i)).toAbsolutePath();
                String href = reportDir == null
                        ? file.toUri().toString()
                        : reportDir.toAbsolutePath().relativize(file).toString().replace('\\', '/');
                html.append(i == 0 ? "" : ", ")
                        .append("<a href=\"")
                        .append(escape(href))
                        .append("\">")
                        .append(escape(details.files().get(i)))
                        .append("</a>");
            }
            html.append("</p>\n");
        }
    }

    /** A static chart for a reader without JavaScript: the interactive chart beside it draws the same data. */
    static void image(StringBuilder html, String dataUri) {
        if (dataUri != null) {
            html.append("<noscript><p><img alt=\"chart\" src=\"")
                    .append(dataUri)
                    .append("\"></p></noscript>\n");
        }
    }

    static String escape(String text) {
        if (text == null) {
            return "";
        }
        return text.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\"", "&quot;");
    }

    /**
     * Where the run's time went: its events and pods' milestones, and the overhead around the load (from the run's
     * creation to its result, less the warmup and the measured window).
     */
    private static void timeline(StringBuilder html, ReportRun run) {
        List<TimelineEntry> timeline = run.details().timeline();
        if (timeline.isEmpty()) {
            return;
        }
        html.append("<h3>Timeline</h3>\n");
        Optional<TimelineEntry> succeeded = timeline.stream()
                .filter(entry -> "RunSucceeded".equals(entry.getWhat()))
                .findFirst();
        Optional<Double> load = loadSeconds(run);
        if (succeeded.isPresent() && succeeded.get().getSeconds() != null && load.isPresent()) {
            html.append(String.format(
                    Locale.ROOT,
                    "<p>Created to succeeded: %.1f s, of which %.0f s warmup and measured window: %.1f s around the"
                            + " load.</p>\n",
                    succeeded.get().getSeconds(),
                    load.get(),
                    succeeded.get().getSeconds() - load.get()));
        }
        html.append("<details><summary>").append(timeline.size()).append(" moments</summary><table>");
        html.append("<tr><th>s</th><th>what</th><th>at</th></tr>");
        for (TimelineEntry entry : timeline) {
            html.append("<tr><td>")
                    .append(entry.getSeconds() == null ? "" : String.format(Locale.ROOT, "%.1f", entry.getSeconds()))
                    .append("</td><td>")
                    .append(escape(entry.getWhat()))
                    .append("</td><td>")
                    .append(escape(entry.getAt()))
                    .append("</td></tr>");
        }
        html.append("</table></details>\n");
    }

    /** The warmup and the measured window of a run with one load level, in seconds. */
    private static Optional<Double> loadSeconds(ReportRun run) {
        try {
            var workload = dev.stackbench.api.BenchmarkRuns.yamlMapper()
                    .readValue(run.specYaml(), dev.stackbench.api.run.BenchmarkRun.class)
                    .getSpec()
                    .getWorkload();
            if (workload.isStepped()) {
                // Each step has its own warmup and window: no one figure to take off.
                return Optional.empty();
            }
            return Optional.of(dev.stackbench.api.Durations.seconds(dev.stackbench.api.Durations.parse(
                            workload.getWarmup() == null ? "0s" : workload.getWarmup()))
                    + dev.stackbench.api.Durations.seconds(dev.stackbench.api.Durations.parse(workload.getDuration())));
        } catch (Exception e) {
            return Optional.empty();
        }
    }
}
