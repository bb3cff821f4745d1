package dev.stackbench.stats;

import dev.stackbench.api.status.IntendedLatency;
import dev.stackbench.api.status.LatencySummary;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.stats.RepetitionStatistics.Direction;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** A figure of a run's summary that a comparison can compare, with the direction in which it is better. */
public enum ComparisonMetric {
    RPS("rps", Direction.HIGHER_IS_BETTER, RunSummary::getRps),
    P50("p50", Direction.LOWER_IS_BETTER, summary -> latency(summary, LatencySummary::getP50)),
    P90("p90", Direction.LOWER_IS_BETTER, summary -> latency(summary, LatencySummary::getP90)),
    P95("p95", Direction.LOWER_IS_BETTER, summary -> latency(summary, LatencySummary::getP95)),
    P99("p99", Direction.LOWER_IS_BETTER, summary -> latency(summary, LatencySummary::getP99)),
    MAX("max", Direction.LOWER_IS_BETTER, summary -> latency(summary, LatencySummary::getMax)),
    /** The 95th percentile latency from the intended start (arrival-rate executors), dropped iterations included. */
    P95_INTENDED("p95Intended", Direction.LOWER_IS_BETTER, summary -> intended(summary, IntendedLatency::getP95)),
    /** The 99th percentile latency from the intended start. */
    P99_INTENDED("p99Intended", Direction.LOWER_IS_BETTER, summary -> intended(summary, IntendedLatency::getP99)),
    ERROR_RATE("errorRate", Direction.LOWER_IS_BETTER, RunSummary::getErrorRate),
    /** The rate a capacity search found (runs whose spec has workload.capacity). */
    CAPACITY(
            "capacity",
            Direction.HIGHER_IS_BETTER,
            summary ->
                    summary.getCapacity() == null ? null : summary.getCapacity().doubleValue());

    /** What a comparison compares unless its spec says otherwise. */
    public static final List<ComparisonMetric> DEFAULTS = List.of(RPS, P50, P95, P99, ERROR_RATE);

    private final String value;
    private final Direction direction;
    private final Function<RunSummary, Double> figure;

    ComparisonMetric(String value, Direction direction, Function<RunSummary, Double> figure) {
        this.value = value;
        this.direction = direction;
        this.figure = figure;
    }

    /** The name in YAML and in the status. */
    public String value() {
        return value;
    }

    public Direction direction() {
        return direction;
    }

    /** The run's figure, if its summary has it. */
    public Optional<Double> of(RunSummary summary) {
        return summary == null ? Optional.empty() : Optional.ofNullable(figure.apply(summary));
    }

    /** The unit the figure is shown in. */
    public String unit() {
        return switch (this) {
            case RPS -> "req/s";
            case CAPACITY -> "it/s";
            case ERROR_RATE -> "";
            default -> "ms";
        };
    }

    public static ComparisonMetric fromValue(String value) {
        return Arrays.stream(values())
                .filter(metric -> metric.value.equals(value))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown metric '" + value + "': use one of "
                        + String.join(
                                ", ",
                                Arrays.stream(values())
                                        .map(ComparisonMetric::value)
                                        .toList())));
    }

    @Override
    public String toString() {
        return value;
    }

    private static Double latency(RunSummary summary, Function<LatencySummary, Double> percentile) {
        return summary.getLatencyMs() == null ? null : percentile.apply(summary.getLatencyMs());
    }

    private static Double intended(RunSummary summary, Function<IntendedLatency, Double> percentile) {
        return summary.getIntendedLatencyMs() == null ? null : percentile.apply(summary.getIntendedLatencyMs());
    }
}
