package dev.stackbench.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.commons.statistics.descriptive.Mean;
import org.apache.commons.statistics.descriptive.Median;
import org.apache.commons.statistics.descriptive.StandardDeviation;
import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.apache.commons.statistics.inference.MannWhitneyUTest;

/**
 * What repetitions of runs say about one metric: for a variant, its median with a distribution-free confidence
 * interval from order statistics and its coefficient of variation; for a contender against the baseline, the
 * Mann-Whitney U test, the Hodges-Lehmann estimate of the shift with its confidence interval, and a verdict that is
 * given only when the difference is significant.
 *
 * <p>Every test statistic, p-value and distribution comes from Apache Commons Statistics. The shift's interval is
 * the set of shifts the library's two-sided test does not reject at the chosen level (inverting the test), so it is
 * exactly as exact as the library's p-values: exact for small samples without ties.
 */
public final class RepetitionStatistics {

    private RepetitionStatistics() {}

    /** Which way a metric is better: more requests per second, fewer milliseconds or errors. */
    public enum Direction {
        HIGHER_IS_BETTER,
        LOWER_IS_BETTER
    }

    public enum Verdict {
        BETTER("better"),
        WORSE("worse"),
        NO_SIGNIFICANT_DIFFERENCE("no significant difference");

        private final String text;

        Verdict(String text) {
            this.text = text;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    /**
     * One variant's repetitions of one metric.
     *
     * @param lower lower end of the median's interval (the k-th smallest value); null when n is too small for the
     *     confidence asked (fewer than 6 values at 95 %)
     * @param achievedConfidence the interval's actual coverage (order statistics give discrete levels, at least the
     *     one asked); null without an interval
     * @param cv coefficient of variation: sample standard deviation / mean; NaN with fewer than 2 values or a mean of 0
     */
    public record Spread(int n, double median, Double lower, Double upper, Double achievedConfidence, double cv) {}

    /**
     * A contender against the baseline.
     *
     * @param pValue two-sided Mann-Whitney U test p-value
     * @param shift Hodges-Lehmann estimate of contender minus baseline: the median of all pairwise differences
     * @param lower lower end of the shift's interval; null when the samples are too small to reject any shift
     * @param relativeDifference (median of contender - median of baseline) / median of baseline; NaN when the
     *     baseline's median is 0
     * @param ties whether the samples hold tied values (then the p-value is the normal approximation's)
     */
    public record Shift(
            double pValue,
            double shift,
            Double lower,
            Double upper,
            double relativeDifference,
            boolean ties,
            Verdict verdict) {}

    /** Median, its interval at {@code confidence} and the CV of the values (NaN values are not allowed). */
    public static Spread spread(double[] values, double confidence) {
        requireValues(values, "values");
        requireConfidence(confidence);
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        double median = Median.withDefaults().evaluate(sorted.clone());
        // The interval [x(k), x(n+1-k)] misses the median with probability 2 P(B <= k-1), B ~ Binomial(n, 1/2):
        // the largest k that keeps that within 1 - confidence.
        BinomialDistribution binomial = BinomialDistribution.of(n, 0.5);
        double alpha = 1 - confidence;
        int k = 0;
        while (k + 1 <= n / 2 && 2 * binomial.cumulativeProbability(k) <= alpha) {
            k++;
        }
        Double lower = null;
        Double upper = null;
        Double achieved = null;
        if (k >= 1) {
            lower = sorted[k - 1];
            upper = sorted[n - k];
            achieved = 1 - 2 * binomial.cumulativeProbability(k - 1);
        }
        double cv = Double.NaN;
        if (n >= 2) {
            double mean = Mean.of(values).getAsDouble();
            if (mean != 0) {
                cv = StandardDeviation.of(values).getAsDouble() / Math.abs(mean);
            }
        }
        return new Spread(n, median, lower, upper, achieved, cv);
    }

    /** The contender against the baseline at {@code confidence}, with the verdict for a metric of this direction. */
    public static Shift shift(double[] contender, double[] baseline, double confidence, Direction direction) {
        requireValues(contender, "contender");
        requireValues(baseline, "baseline");
        requireConfidence(confidence);
        Objects.requireNonNull(direction, "direction");
        double alpha = 1 - confidence;
        MannWhitneyUTest test = MannWhitneyUTest.withDefaults();
        MannWhitneyUTest.Result result = test.test(contender, baseline);

        double[] differences = new double[contender.length * baseline.length];
        int i = 0;
        for (double c : contender) {
            for (double b : baseline) {
                differences[i++] = c - b;
            }
        }
        double estimate = Median.withDefaults().evaluate(differences.clone());

        // The test's p-value only changes where a shift makes a contender value equal a baseline value, i.e. at the
        // pairwise differences: test one shift in each gap between them (and beyond both ends).
        double[] distinct = Arrays.stream(differences).sorted().distinct().toArray();
        List<Double> gaps = new ArrayList<>();
        gaps.add(distinct[0] - 1);
        for (int j = 0; j + 1 < distinct.length; j++) {
            gaps.add((distinct[j] + distinct[j + 1]) / 2);
        }
        gaps.add(distinct[distinct.length - 1] + 1);
        int firstAccepted = -1;
        int lastAccepted = -1;
        for (int j = 0; j < gaps.size(); j++) {
            double p = test.withMu(gaps.get(j)).test(contender, baseline).getPValue();
            if (p > alpha) {
                if (firstAccepted < 0) {
                    firstAccepted = j;
                }
                lastAccepted = j;
            }
        }
        Double lower = firstAccepted > 0 ? distinct[firstAccepted - 1] : null;
        Double upper = lastAccepted >= 0 && lastAccepted < distinct.length ? distinct[lastAccepted] : null;
        if (firstAccepted < 0) {
            // No shift at all is accepted: only possible with ties at a gap's edge; the estimate is all we have.
            lower = estimate;
            upper = estimate;
        }

        double baselineMedian = Median.withDefaults().evaluate(baseline.clone());
        double contenderMedian = Median.withDefaults().evaluate(contender.clone());
        double relative = baselineMedian == 0 ? Double.NaN : (contenderMedian - baselineMedian) / baselineMedian;

        Verdict verdict = Verdict.NO_SIGNIFICANT_DIFFERENCE;
        if (result.getPValue() <= alpha && estimate != 0) {
            boolean higher = estimate > 0;
            verdict = higher == (direction == Direction.HIGHER_IS_BETTER) ? Verdict.BETTER : Verdict.WORSE;
        }
        return new Shift(result.getPValue(), estimate, lower, upper, relative, result.hasTiedValues(), verdict);
    }

    /**
     * The smallest two-sided p-value the Mann-Whitney U test can give for samples of these sizes (every value of one
     * above every value of the other): when it exceeds 1 - confidence, no difference can be significant.
     */
    public static double smallestPValue(int n, int m) {
        double[] low = new double[n];
        double[] high = new double[m];
        for (int i = 0; i < n; i++) {
            low[i] = i;
        }
        for (int j = 0; j < m; j++) {
            high[j] = n + j;
        }
        return MannWhitneyUTest.withDefaults().test(high, low).getPValue();
    }

    private static void requireValues(double[] values, String what) {
        if (values == null || values.length == 0) {
            throw new IllegalArgumentException(what + ": no values to summarise");
        }
        for (double value : values) {
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException(what + ": " + value + " is not a number a run can report");
            }
        }
    }

    private static void requireConfidence(double confidence) {
        if (!(confidence > 0.5 && confidence < 1)) {
            throw new IllegalArgumentException("confidence " + confidence + " must lie between 0.5 and 1, e.g. 0.95");
        }
    }
}
