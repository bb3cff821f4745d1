package dev.stackbench.report;

import java.util.List;

/**
 * One point of a latency distribution: {@code percentile} percent of the requests took at most {@code latencyMs}.
 * A run's points, from the median to the far tail, are the HdrHistogram percentile spectrum the report plots.
 */
public record LatencyPercentile(double percentile, double latencyMs) {

    /** The percentiles a run's spectrum is written at: dense in the tail, where runs differ most. */
    public static final List<Double> SPECTRUM = List.of(
            0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 75.0, 80.0, 85.0, 90.0, 92.5, 95.0, 96.0, 97.0, 97.5, 98.0,
            98.5, 99.0, 99.25, 99.5, 99.75, 99.9, 99.95, 99.99, 99.995, 99.999, 100.0);
}
