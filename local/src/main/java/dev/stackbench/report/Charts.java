package dev.stackbench.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** Line charts over time, rendered by XChart to PNG and returned as data URIs for a self-contained page. */
final class Charts {

    private static final int WIDTH = 900;
    private static final int HEIGHT = 380;

    private Charts() {}

    /** A chart with one line per run, e.g. throughput of every variant over time. */
    static <T> String perRun(
            String title,
            String yAxis,
            List<ReportRun> runs,
            Function<ReportRun, List<T>> points,
            ToDoubleFunction<T> x,
            ToDoubleFunction<T> y) {
        XYChart chart = newChart(title, yAxis);
        for (ReportRun run : runs) {
            List<T> series = points.apply(run);
            if (!series.isEmpty()) {
                addLine(chart, run.row().name(), series, x, y);
            }
        }
        markWindowEnds(chart, runs);
        return chart.getSeriesCollection().isEmpty() ? null : toDataUri(chart);
    }

    /** A vertical line where each measured window was planned to end; later points are requests still in flight. */
    private static void markWindowEnds(XYChart chart, List<ReportRun> runs) {
        runs.stream()
                .mapToDouble(ReportRun::measuredSeconds)
                .filter(seconds -> !Double.isNaN(seconds))
                .distinct()
                .forEach(seconds -> chart.addAnnotation(new AnnotationLine(seconds, true, false)));
    }

    /** Latency percentiles of one run over time. */
    static String latencyPercentiles(ReportRun run) {
        List<RequestTimeline.Point> points = run.requests();
        if (points.isEmpty()) {
            return null;
        }
        XYChart chart = newChart("Latency over time: " + run.row().name(), "latency (ms)");
        addLine(chart, "p50", points, RequestTimeline.Point::second, RequestTimeline.Point::p50Ms);
        addLine(chart, "p95", points, RequestTimeline.Point::second, RequestTimeline.Point::p95Ms);
        addLine(chart, "p99", points, RequestTimeline.Point::second, RequestTimeline.Point::p99Ms);
        markWindowEnds(chart, List.of(run));
        return toDataUri(chart);
    }

    /**
     * One metric of a comparison: each variant at its own x position, every repetition a point (runs left out of the
     * statistics as crosses), the median as a diamond and its confidence interval as a vertical bar.
     */
    static String comparison(String metric, String unit, List<ComparisonPoints> variants) {
        XYChart chart = new XYChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title(metric + ": every repetition, median and its interval")
                .xAxisTitle("variant (1 = baseline): " + String.join(", ", numbered(variants)))
                .yAxisTitle(unit)
                .build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        chart.getStyler().setAntiAlias(true);
        chart.getStyler().setXAxisDecimalPattern("0");
        for (int i = 0; i < variants.size(); i++) {
            ComparisonPoints variant = variants.get(i);
            double x = i + 1;
            scatter(chart, variant.name() + " runs", x, variant.values(), SeriesMarkers.CIRCLE);
            scatter(chart, variant.name() + " left out", x, variant.excluded(), SeriesMarkers.CROSS);
            if (variant.lower() != null && variant.upper() != null) {
                XYSeries interval = chart.addSeries(
                        uniqueName(chart, variant.name() + " interval"),
                        new double[] {x - 0.2, x - 0.2},
                        new double[] {variant.lower(), variant.upper()});
                interval.setMarker(SeriesMarkers.NONE);
            }
            if (variant.median() != null) {
                XYSeries median = chart.addSeries(
                        uniqueName(chart, variant.name() + " median"),
                        new double[] {x - 0.2},
                        new double[] {variant.median()});
                median.setMarker(SeriesMarkers.DIAMOND);
                median.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            }
        }
        return chart.getSeriesCollection().isEmpty() ? null : toDataUri(chart);
    }

    /** What {@link #comparison} draws of one variant. */
    record ComparisonPoints(
            String name, double[] values, double[] excluded, Double median, Double lower, Double upper) {}

    private static List<String> numbered(List<ComparisonPoints> variants) {
        List<String> names = new java.util.ArrayList<>();
        for (int i = 0; i < variants.size(); i++) {
            names.add((i + 1) + " " + variants.get(i).name());
        }
        return names;
    }

    /** Points spread a little around x, in run order, so equal values stay visible. */
    private static void scatter(
            XYChart chart, String name, double x, double[] values, org.knowm.xchart.style.markers.Marker marker) {
        if (values.length == 0) {
            return;
        }
        double[] xs = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            xs[i] = x + 0.05 + 0.25 * i / Math.max(1, values.length - 1);
        }
        XYSeries series = chart.addSeries(uniqueName(chart, name), xs, values);
        series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        series.setMarker(marker);
    }

    private static XYChart newChart(String title, String yAxis) {
        XYChart chart = new XYChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title(title)
                .xAxisTitle("seconds into the measured window (vertical line: its planned end; points after it are"
                        + " requests that were still in flight)")
                .yAxisTitle(yAxis)
                .build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        chart.getStyler().setAntiAlias(true);
        return chart;
    }

    private static <T> void addLine(
            XYChart chart, String name, List<T> points, ToDoubleFunction<T> x, ToDoubleFunction<T> y) {
        double[] xs = points.stream().mapToDouble(x).toArray();
        double[] ys = points.stream().mapToDouble(y).toArray();
        // A second with no completed request has no latency; XChart draws NaN as a gap.
        XYSeries series = chart.addSeries(uniqueName(chart, name), xs, ys);
        series.setMarker(SeriesMarkers.NONE);
    }

    private static String uniqueName(XYChart chart, String name) {
        String unique = name;
        for (int i = 2; chart.getSeries(unique) != null; i++) {
            unique = name + " (" + i + ")";
        }
        return unique;
    }

    private static String toDataUri(XYChart chart) {
        try {
            byte[] png = BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
            return "data:image/png;base64," + Base64.getEncoder().encodeToString(png);
        } catch (IOException e) {
            throw new UncheckedIOException("could not render the chart '" + chart.getTitle() + "'", e);
        }
    }
}
