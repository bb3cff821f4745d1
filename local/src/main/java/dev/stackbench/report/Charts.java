package dev.stackbench.report;

import dev.stackbench.api.status.StepOutcome;
import dev.stackbench.api.status.StepResult;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Line charts over time and against a sweep's offered load, rendered by XChart to PNG and returned as data URIs for a
 * self-contained page.
 */
final class Charts {

    private static final int WIDTH = 900;
    private static final int HEIGHT = 380;

    static {
        // PNGs are encoded in memory. ImageIO's default file cache registers a JVM shutdown hook with the first
        // encoding, which fails while a SIGTERM's shutdown is under way: the very moment the report of the runs
        // that finished must still be written.
        ImageIO.setUseCache(false);
    }

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

    /** Says on the x axis of a chart against offered load how a step's marker shows its outcome. */
    static final String OUTCOME_KEY =
            "filled: passed; hollow circle: failed, square: broken, triangle: k6 could not deliver the load";

    /** The units of the offered load the runs' steps are in (iterations/s, VUs), in order of appearance. */
    static List<String> stepUnits(List<ReportRun> runs) {
        Set<String> units = new LinkedHashSet<>();
        for (ReportRun run : runs) {
            for (StepResult step : run.row().steps()) {
                if (step.getLevel() != null) {
                    units.add(step.getUnit() == null ? "" : step.getUnit());
                }
            }
        }
        return List.copyOf(units);
    }

    /**
     * Throughput against offered load for the runs' steps in {@code unit}: one line per run, each step a marker that
     * shows its outcome, and where steps have a Little's-law cap, that cap as a dashed line in the run's colour.
     *
     * @return the chart, or null when no step in this unit has a throughput
     */
    static XYChart throughputAgainstLoad(List<ReportRun> runs, String unit) {
        XYChart chart = stepChart("Throughput against offered load", "throughput (requests/s)", unit);
        for (int i = 0; i < runs.size(); i++) {
            Color color = runColor(chart, i);
            List<StepResult> steps = stepsIn(runs.get(i), unit);
            String label = label(runs.get(i).row());
            addStepSeries(chart, label, color, steps, StepResult::getRps);
            List<StepResult> capped = steps.stream()
                    .filter(step -> step.getLittleLawRps() != null)
                    .toList();
            if (!capped.isEmpty()) {
                XYSeries cap = chart.addSeries(
                        uniqueName(chart, label + ": Little's-law cap"),
                        capped.stream().mapToDouble(StepResult::getLevel).toArray(),
                        capped.stream().mapToDouble(StepResult::getLittleLawRps).toArray());
                cap.setLineStyle(SeriesLines.DASH_DASH);
                cap.setLineColor(color);
                cap.setMarkerColor(color);
                // A single step's cap is a point, not a line.
                cap.setMarker(capped.size() == 1 ? SeriesMarkers.PLUS : SeriesMarkers.NONE);
            }
        }
        return chart.getSeriesCollection().isEmpty() ? null : chart;
    }

    /**
     * p95 latency against offered load for the runs' steps in {@code unit}, one line per run.
     *
     * @return the chart, or null when no step in this unit has a p95
     */
    static XYChart latencyAgainstLoad(List<ReportRun> runs, String unit) {
        XYChart chart = stepChart("p95 latency against offered load", "p95 latency (ms)", unit);
        for (int i = 0; i < runs.size(); i++) {
            addStepSeries(
                    chart,
                    label(runs.get(i).row()),
                    runColor(chart, i),
                    stepsIn(runs.get(i), unit),
                    StepResult::getP95Ms);
        }
        return chart.getSeriesCollection().isEmpty() ? null : chart;
    }

    static String toPng(XYChart chart) {
        return chart == null ? null : toDataUri(chart);
    }

    /** What names a run in a legend: its name, and its variant when the name does not say it. */
    static String label(RunRow row) {
        return row.variant() == null || row.name().contains(row.variant())
                ? row.name()
                : row.name() + " (" + row.variant() + ")";
    }

    /** The run's steps in {@code unit} that have a level, by level. */
    private static List<StepResult> stepsIn(ReportRun run, String unit) {
        return run.row().steps().stream()
                .filter(step -> step.getLevel() != null)
                .filter(step -> Objects.equals(unit, step.getUnit() == null ? "" : step.getUnit()))
                .sorted(Comparator.comparingInt(StepResult::getLevel))
                .toList();
    }

    /**
     * A run's line through its steps' values (steps without the value are left out, never drawn as 0), and its steps'
     * markers by outcome, which the legend does not repeat.
     */
    private static void addStepSeries(
            XYChart chart, String label, Color color, List<StepResult> steps, Function<StepResult, Double> value) {
        List<StepResult> measured =
                steps.stream().filter(step -> value.apply(step) != null).toList();
        if (measured.isEmpty()) {
            return;
        }
        XYSeries line = chart.addSeries(
                uniqueName(chart, label),
                measured.stream().mapToDouble(StepResult::getLevel).toArray(),
                measured.stream().mapToDouble(step -> value.apply(step)).toArray());
        line.setMarker(SeriesMarkers.NONE);
        line.setLineColor(color);
        line.setMarkerColor(color);
        for (StepOutcome outcome : outcomes(measured)) {
            List<StepResult> these = measured.stream()
                    .filter(step -> step.getOutcome() == outcome)
                    .toList();
            XYSeries points = chart.addSeries(
                    uniqueName(chart, label + ": " + (outcome == null ? "no outcome" : outcome.name())),
                    these.stream().mapToDouble(StepResult::getLevel).toArray(),
                    these.stream().mapToDouble(step -> value.apply(step)).toArray());
            points.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            points.setMarker(marker(outcome));
            points.setMarkerColor(color);
            points.setShowInLegend(false);
        }
    }

    private static List<StepOutcome> outcomes(List<StepResult> steps) {
        List<StepOutcome> outcomes = new ArrayList<>();
        steps.forEach(step -> {
            if (!outcomes.contains(step.getOutcome())) {
                outcomes.add(step.getOutcome());
            }
        });
        return outcomes;
    }

    /** Filled for a step that passed; hollow for one that did not, or that k6 could not load. */
    static Marker marker(StepOutcome outcome) {
        if (outcome == null) {
            return SeriesMarkers.CROSS;
        }
        return switch (outcome) {
            case Passed -> SeriesMarkers.CIRCLE;
            case Failed -> new Hollow(Hollow.Shape.CIRCLE);
            case Broken -> new Hollow(Hollow.Shape.SQUARE);
            case GeneratorLimited -> new Hollow(Hollow.Shape.TRIANGLE);
        };
    }

    /** An outlined marker. */
    static final class Hollow extends Marker {

        enum Shape {
            CIRCLE,
            SQUARE,
            TRIANGLE
        }

        private final Shape shape;

        Hollow(Shape shape) {
            this.shape = shape;
        }

        Shape shape() {
            return shape;
        }

        @Override
        public void paint(Graphics2D graphics, double x, double y, int size) {
            double half = size / 2.0;
            java.awt.Shape outline =
                    switch (shape) {
                        case CIRCLE -> new Ellipse2D.Double(x - half, y - half, size, size);
                        case SQUARE -> new Rectangle2D.Double(x - half, y - half, size, size);
                        case TRIANGLE -> {
                            Path2D.Double triangle = new Path2D.Double();
                            triangle.moveTo(x, y - half);
                            triangle.lineTo(x + half, y + half);
                            triangle.lineTo(x - half, y + half);
                            triangle.closePath();
                            yield triangle;
                        }
                    };
            graphics.setStroke(new BasicStroke(1.5f));
            graphics.draw(outline);
        }
    }

    /** The same colour for a run in every chart against offered load, whatever runs a chart leaves out. */
    private static Color runColor(XYChart chart, int run) {
        Color[] colors = chart.getStyler().getSeriesColors();
        return colors[run % colors.length];
    }

    private static XYChart stepChart(String title, String yAxis, String unit) {
        XYChart chart = new XYChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title(title + (unit.isEmpty() ? "" : " (" + unit + ")"))
                .xAxisTitle("offered load" + (unit.isEmpty() ? "" : " (" + unit + ")") + "; " + OUTCOME_KEY)
                .yAxisTitle(yAxis)
                .build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setAntiAlias(true);
        chart.getStyler().setMarkerSize(9);
        return chart;
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
