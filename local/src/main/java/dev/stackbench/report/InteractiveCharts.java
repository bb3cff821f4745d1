package dev.stackbench.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stackbench.api.status.StepOutcome;
import dev.stackbench.api.status.StepResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The report's interactive charts: each one a placeholder in the page where it belongs, and at the end of the page
 * their data as JSON with uPlot (from its WebJar) and the script that draws them, all inline, so that the one HTML
 * file works offline, zooms (drag across a chart, double-click to reset) and shows every series' value under the
 * cursor.
 */
final class InteractiveCharts {

    private static final String UPLOT = "/META-INF/resources/webjars/uplot/1.6.30/dist/";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<ChartSpec> charts = new ArrayList<>();

    /** Puts the chart's placeholder into the page here; nothing when the chart has no series with a value. */
    void add(StringBuilder html, ChartSpec chart) {
        boolean anyValue = chart.series().stream()
                .anyMatch(series -> series.values().stream().anyMatch(Objects::nonNull));
        if (!anyValue) {
            return;
        }
        String id = "chart-" + (charts.size() + 1);
        charts.add(new ChartSpec(
                id,
                chart.title(),
                chart.xLabel(),
                chart.yLabel(),
                chart.xLog(),
                chart.shadeBelow(),
                chart.marks(),
                chart.categories(),
                chart.x(),
                chart.series(),
                chart.intervals()));
        html.append("<div class=\"ichart\" id=\"").append(id).append("\"></div>\n");
    }

    int size() {
        return charts.size();
    }

    /** uPlot's style and script, the charts' data and the script that draws them, once at the end of the page. */
    void appendScripts(StringBuilder html) {
        html.append("<div id=\"chart-status\" hidden></div>\n");
        if (charts.isEmpty()) {
            return;
        }
        String data;
        try {
            data = JSON.writeValueAsString(charts);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("could not write the charts' data: " + e.getMessage(), e);
        }
        html.append("<style>")
                .append(resource(UPLOT + "uPlot.min.css"))
                .append("\n.ichart{margin:1em 0}</style>\n<script>/*\n")
                // uPlot's MIT licence travels with every copy of its code, so with every report.
                .append(resource(UPLOT.replace("dist/", "LICENSE")).replace("*/", "* /"))
                .append("\n*/\n")
                .append(resource(UPLOT + "uPlot.iife.min.js"))
                .append("</script>\n<script type=\"application/json\" id=\"stackbench-charts\">")
                // "</" inside a script element would end it early.
                .append(data.replace("</", "<\\/"))
                .append("</script>\n<script>")
                .append(resource("/dev/stackbench/report/charts.js"))
                .append("</script>\n");
    }

    private static String resource(String path) {
        try (InputStream in = InteractiveCharts.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException(path + " is not on the class path: the report needs uPlot from the"
                        + " org.webjars.npm:uplot jar and charts.js from the stackbench jar; rebuild with Maven");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + path, e);
        }
    }

    /** One line per run over seconds into the measured window; the warmup (negative seconds) is shaded. */
    static <T> ChartSpec perRun(
            String title,
            String yLabel,
            List<ReportRun> runs,
            Function<ReportRun, List<T>> points,
            ToDoubleFunction<T> x,
            ToDoubleFunction<T> y) {
        List<Map.Entry<ChartSpec.Series, Map<Double, Double>>> series = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            Map<Double, Double> values = new LinkedHashMap<>();
            for (T point : points.apply(runs.get(i))) {
                values.put(x.applyAsDouble(point), y.applyAsDouble(point));
            }
            if (!values.isEmpty()) {
                series.add(entry(ChartSpec.Series.line(Charts.label(runs.get(i).row()), i), values));
            }
        }
        return ChartSpec.aligned(
                null,
                title,
                "seconds into the measured window",
                yLabel,
                false,
                0.0,
                windowEnds(runs),
                null,
                series,
                List.of());
    }

    /** The warmup's points before the measured window's, for the charts that show both. */
    static List<RequestTimeline.Point> withWarmup(ReportRun run) {
        List<RequestTimeline.Point> points = new ArrayList<>(run.details().warmup());
        points.addAll(run.requests());
        return points;
    }

    /** p50, p95 and p99 of one run over time. */
    static ChartSpec latencyPercentiles(ReportRun run) {
        List<Map.Entry<ChartSpec.Series, Map<Double, Double>>> series = new ArrayList<>();
        series.add(entry(ChartSpec.Series.line("p50", 0), values(run.requests(), RequestTimeline.Point::p50Ms)));
        series.add(entry(ChartSpec.Series.line("p95", 1), values(run.requests(), RequestTimeline.Point::p95Ms)));
        series.add(entry(ChartSpec.Series.line("p99", 2), values(run.requests(), RequestTimeline.Point::p99Ms)));
        return ChartSpec.aligned(
                null,
                "Latency over time: " + run.row().name(),
                "seconds into the measured window",
                "latency (ms)",
                false,
                0.0,
                windowEnds(List.of(run)),
                null,
                series,
                List.of());
    }

    /**
     * Each run's latency distribution over the measured window as a percentile spectrum: x is 1 / (1 - p) on a log
     * scale, so p50, p90, p99, p99.9 and p99.99 are equally far apart and the tail is as readable as the median.
     */
    static ChartSpec spectrum(List<ReportRun> runs) {
        List<Map.Entry<ChartSpec.Series, Map<Double, Double>>> series = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            Map<Double, Double> values = new LinkedHashMap<>();
            for (LatencyPercentile point : runs.get(i).details().spectrum()) {
                if (point.percentile() < 100) {
                    values.put(100 / (100 - point.percentile()), point.latencyMs());
                }
            }
            if (!values.isEmpty()) {
                series.add(entry(ChartSpec.Series.line(Charts.label(runs.get(i).row()), i), values));
            }
        }
        return ChartSpec.aligned(
                null,
                "Latency by percentile (measured window)",
                "percentile",
                "latency (ms)",
                true,
                null,
                List.of(),
                null,
                series,
                List.of());
    }

    /** A sweep's throughput (with the Little's-law cap, dashed) or p95 against offered load, one line per run. */
    static ChartSpec againstLoad(List<ReportRun> runs, String unit, boolean throughput) {
        List<Map.Entry<ChartSpec.Series, Map<Double, Double>>> series = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            String label = Charts.label(runs.get(i).row());
            Map<Double, Double> passed = new LinkedHashMap<>();
            Map<Double, Double> notPassed = new LinkedHashMap<>();
            Map<Double, Double> line = new LinkedHashMap<>();
            Map<Double, Double> cap = new LinkedHashMap<>();
            for (StepResult step : runs.get(i).row().steps()) {
                if (step.getLevel() == null || !Objects.equals(unit, step.getUnit() == null ? "" : step.getUnit())) {
                    continue;
                }
                Double value = throughput ? step.getRps() : step.getP95Ms();
                double level = step.getLevel();
                if (value != null) {
                    line.put(level, value);
                    (step.getOutcome() == StepOutcome.Passed ? passed : notPassed).put(level, value);
                }
                if (throughput && step.getLittleLawRps() != null) {
                    cap.put(level, step.getLittleLawRps());
                }
            }
            if (line.isEmpty()) {
                continue;
            }
            series.add(entry(ChartSpec.Series.line(label, i), line));
            if (!passed.isEmpty()) {
                series.add(entry(ChartSpec.Series.line(label + ": passed", i).asPoints(false), passed));
            }
            if (!notPassed.isEmpty()) {
                series.add(
                        entry(ChartSpec.Series.line(label + ": did not pass", i).asPoints(true), notPassed));
            }
            if (!cap.isEmpty()) {
                series.add(entry(
                        ChartSpec.Series.line(label + ": Little's-law cap", i).dashed(), cap));
            }
        }
        String load = "offered load" + (unit.isEmpty() ? "" : " (" + unit + ")");
        return ChartSpec.aligned(
                null,
                (throughput ? "Throughput" : "p95 latency") + " against " + load,
                load,
                throughput ? "throughput (requests/s)" : "p95 latency (ms)",
                false,
                null,
                List.of(),
                null,
                series,
                List.of());
    }

    /**
     * One metric of a comparison: the variants side by side, every repetition a point (left out of the statistics:
     * hollow), the median a larger point with its confidence interval as a bar.
     */
    static ChartSpec comparison(String metric, String unit, List<Charts.ComparisonPoints> variants) {
        List<Map.Entry<ChartSpec.Series, Map<Double, Double>>> series = new ArrayList<>();
        List<ChartSpec.Interval> intervals = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < variants.size(); i++) {
            Charts.ComparisonPoints variant = variants.get(i);
            names.add(variant.name());
            double x = i + 1;
            series.add(entry(
                    ChartSpec.Series.line(variant.name() + " runs", i).asPoints(false), spread(x, variant.values())));
            if (variant.excluded().length > 0) {
                series.add(entry(
                        ChartSpec.Series.line(variant.name() + " left out", i).asPoints(true),
                        spread(x + 0.02, variant.excluded())));
            }
            if (variant.median() != null) {
                series.add(entry(
                        ChartSpec.Series.line(variant.name() + " median", i).asPoints(true),
                        Map.of(x - 0.2, variant.median())));
            }
            if (variant.lower() != null && variant.upper() != null) {
                intervals.add(new ChartSpec.Interval(x - 0.2, variant.lower(), variant.upper(), i));
            }
        }
        return ChartSpec.aligned(
                null,
                metric + ": every repetition, the median (hollow) and its interval (bar)",
                "variant",
                unit,
                false,
                null,
                List.of(),
                names,
                series,
                intervals);
    }

    /** Repetitions spread a little to the right of x, in run order, so equal values stay visible. */
    private static Map<Double, Double> spread(double x, double[] values) {
        Map<Double, Double> points = new LinkedHashMap<>();
        for (int i = 0; i < values.length; i++) {
            points.put(x + 0.05 + 0.25 * i / Math.max(1, values.length - 1), values[i]);
        }
        return points;
    }

    private static List<Double> windowEnds(List<ReportRun> runs) {
        return runs.stream()
                .map(ReportRun::measuredSeconds)
                .filter(seconds -> !Double.isNaN(seconds))
                .distinct()
                .toList();
    }

    private static Map<Double, Double> values(
            List<RequestTimeline.Point> points, ToDoubleFunction<RequestTimeline.Point> y) {
        Map<Double, Double> values = new LinkedHashMap<>();
        points.forEach(point -> values.put((double) point.second(), y.applyAsDouble(point)));
        return values;
    }

    private static Map.Entry<ChartSpec.Series, Map<Double, Double>> entry(
            ChartSpec.Series series, Map<Double, Double> values) {
        return new AbstractMap.SimpleImmutableEntry<>(series, values);
    }
}
