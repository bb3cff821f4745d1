package dev.stackbench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One interactive chart of the report as the page's script draws it with uPlot: a shared x axis and one value per x
 * for each series (null where a series has none), written into the page as JSON.
 *
 * @param id the element the chart is drawn into
 * @param xLog a log x axis whose values are 1 / (1 - percentile), labelled as percentiles (the latency spectrum)
 * @param shadeBelow x values below this are shaded (the warmup before the measured window), or null
 * @param marks x values marked with a dashed vertical line (where a measured window was planned to end)
 * @param categories names of the x positions 1, 2, ... for a chart over variants, or null
 * @param intervals vertical bars drawn over the series (a median's confidence interval)
 */
record ChartSpec(
        String id,
        String title,
        String xLabel,
        String yLabel,
        boolean xLog,
        Double shadeBelow,
        List<Double> marks,
        List<String> categories,
        List<Double> x,
        List<Series> series,
        List<Interval> intervals) {

    /**
     * One series: its values at the chart's x, a colour index shared by everything of one run, and how it is drawn.
     *
     * @param points drawn as points without a line (repetitions, a median, a sweep's steps)
     * @param hollow points drawn outlined (runs left out, steps that did not pass)
     */
    record Series(String label, List<Double> values, int color, boolean dash, boolean points, boolean hollow) {

        static Series line(String label, int color) {
            return new Series(label, List.of(), color, false, false, false);
        }

        Series dashed() {
            return new Series(label, values, color, true, points, hollow);
        }

        Series asPoints(boolean outlined) {
            return new Series(label, values, color, dash, true, outlined);
        }

        Series with(List<Double> aligned) {
            return new Series(label, aligned, color, dash, points, hollow);
        }
    }

    /** A vertical bar at x from lower to upper. */
    record Interval(double x, double lower, double upper, int color) {}

    /** A chart of series given as x to y maps, aligned on the union of their x values. */
    static ChartSpec aligned(
            String id,
            String title,
            String xLabel,
            String yLabel,
            boolean xLog,
            Double shadeBelow,
            List<Double> marks,
            List<String> categories,
            List<Map.Entry<Series, Map<Double, Double>>> series,
            List<Interval> intervals) {
        TreeMap<Double, Integer> xs = new TreeMap<>();
        series.forEach(entry -> entry.getValue().keySet().forEach(x -> xs.put(x, 0)));
        List<Double> x = new ArrayList<>(xs.keySet());
        List<Series> aligned = new ArrayList<>();
        for (Map.Entry<Series, Map<Double, Double>> entry : series) {
            if (entry.getValue().values().stream().noneMatch(value -> value != null && Double.isFinite(value))) {
                // A series with nothing to draw (a variant with no valid run) would only clutter the legend.
                continue;
            }
            List<Double> values = new ArrayList<>(x.size());
            for (Double at : x) {
                Double value = entry.getValue().get(at);
                values.add(value == null || value.isNaN() || value.isInfinite() ? null : value);
            }
            aligned.add(entry.getKey().with(values));
        }
        return new ChartSpec(id, title, xLabel, yLabel, xLog, shadeBelow, marks, categories, x, aligned, intervals);
    }
}
