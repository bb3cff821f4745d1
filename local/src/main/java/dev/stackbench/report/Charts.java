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
