package dev.stackbench.api.comparison;

import java.util.List;

/**
 * Default values of a BenchmarkComparison spec: the CRD schema carries them as {@code default:} and
 * {@link #apply(BenchmarkComparisonSpec)} fills them in Java, so local mode and the operator see the same spec.
 */
public final class ComparisonDefaults {

    public static final int REPETITIONS = 10;
    public static final String REPETITIONS_TEXT = "10";
    /** The fewest repetitions that let a rank test of 3 against 3 runs say anything. */
    public static final long MIN_REPETITIONS = 3;
    /** Below this many valid runs no 95 % confidence interval of a median exists. */
    public static final int REPETITIONS_FOR_95_INTERVAL = 6;

    public static final String ORDER = "interleaved";
    public static final double CONFIDENCE = 0.95;
    public static final String CONFIDENCE_TEXT = "0.95";
    public static final List<String> METRICS = List.of("rps", "p50", "p95", "p99", "errorRate");

    private ComparisonDefaults() {}

    /** Fills every unset field that has a default, in place (not the seed: it is chosen when the comparison starts). */
    public static BenchmarkComparisonSpec apply(BenchmarkComparisonSpec spec) {
        if (spec == null) {
            return null;
        }
        if (spec.getRepetitions() == null) {
            spec.setRepetitions(REPETITIONS);
        }
        if (spec.getOrder() == null) {
            spec.setOrder(ComparisonOrder.INTERLEAVED);
        }
        if (spec.getMetrics() == null || spec.getMetrics().isEmpty()) {
            spec.setMetrics(METRICS);
        }
        if (spec.getConfidence() == null) {
            spec.setConfidence(CONFIDENCE);
        }
        if (spec.getIncludeFlaggedRuns() == null) {
            spec.setIncludeFlaggedRuns(false);
        }
        return spec;
    }
}
