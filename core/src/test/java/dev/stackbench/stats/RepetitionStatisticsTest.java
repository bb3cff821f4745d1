package dev.stackbench.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.stackbench.stats.RepetitionStatistics.Direction;
import dev.stackbench.stats.RepetitionStatistics.Shift;
import dev.stackbench.stats.RepetitionStatistics.Spread;
import dev.stackbench.stats.RepetitionStatistics.Verdict;
import org.junit.jupiter.api.Test;

class RepetitionStatisticsTest {

    /**
     * The two-sample example of R's {@code wilcox.test} documentation (Hollander and Wolfe, Nonparametric Statistical
     * Methods, 1973, p. 69): permeability of the placental membrane at term (x) and at 12-26 weeks (y). R prints
     * {@code W = 35, p-value = 0.1272} for the one-sided test, so the exact two-sided p-value is 0.2544. The
     * Hodges-Lehmann estimate (0.305) and the exact 95 % interval [-0.15, 0.76] were computed independently with
     * SciPy 1.17.1 ({@code scipy.stats.mannwhitneyu(method='exact')}, inverted over the pairwise differences).
     */
    private static final double[] TERM = {0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46};

    private static final double[] EARLY = {1.15, 0.88, 0.90, 0.74, 1.21};

    @Test
    void matchesThePublishedMannWhitneyExampleAndIndependentlyComputedShiftInterval() {
        Shift shift = RepetitionStatistics.shift(TERM, EARLY, 0.95, Direction.HIGHER_IS_BETTER);

        assertThat(shift.pValue()).isCloseTo(0.2544122544, within(1e-9));
        assertThat(shift.shift()).isCloseTo(0.305, within(1e-12));
        assertThat(shift.lower()).isCloseTo(-0.15, within(1e-12));
        assertThat(shift.upper()).isCloseTo(0.76, within(1e-12));
        assertThat(shift.ties()).isFalse();
        // Not significant at 95 %: no verdict, whatever the direction of the estimate.
        assertThat(shift.verdict()).isEqualTo(Verdict.NO_SIGNIFICANT_DIFFERENCE);
    }

    @Test
    void aClearDifferenceGetsAVerdictInTheMetricsOwnDirection() {
        // Ten repetitions of two stacks' requests per second (values like the README demo's). SciPy 1.17.1:
        // exact two-sided p = 1.0825088e-05, shift 28.4, 95 % interval [28.1, 28.65].
        double[] fast = {60.1, 59.8, 60.3, 60.0, 59.9, 60.2, 60.4, 59.7, 60.05, 60.15};
        double[] slow = {31.4, 32.0, 31.5, 31.3, 32.2, 31.9, 31.6, 31.8, 31.45, 31.7};

        Shift rps = RepetitionStatistics.shift(fast, slow, 0.95, Direction.HIGHER_IS_BETTER);
        Shift asLatency = RepetitionStatistics.shift(fast, slow, 0.95, Direction.LOWER_IS_BETTER);

        assertThat(rps.pValue()).isCloseTo(1.082508822e-05, within(1e-13));
        assertThat(rps.shift()).isCloseTo(28.4, within(1e-9));
        assertThat(rps.lower()).isCloseTo(28.1, within(1e-9));
        assertThat(rps.upper()).isCloseTo(28.65, within(1e-9));
        assertThat(rps.relativeDifference()).isCloseTo((60.075 - 31.65) / 31.65, within(1e-12));
        assertThat(rps.verdict()).isEqualTo(Verdict.BETTER);
        assertThat(asLatency.verdict()).isEqualTo(Verdict.WORSE);
    }

    @Test
    void theMediansIntervalComesFromOrderStatisticsAndNeedsSixValuesAt95Percent() {
        Spread ten = RepetitionStatistics.spread(new double[] {7, 3, 10, 1, 5, 9, 2, 8, 6, 4}, 0.95);
        // Binomial(10, 1/2): P(B <= 1) = 11/1024, so [x(2), x(9)] covers the median with 1 - 22/1024.
        assertThat(ten.median()).isEqualTo(5.5);
        assertThat(ten.lower()).isEqualTo(2.0);
        assertThat(ten.upper()).isEqualTo(9.0);
        assertThat(ten.achievedConfidence()).isCloseTo(1 - 22.0 / 1024, within(1e-12));

        Spread six = RepetitionStatistics.spread(new double[] {4, 6, 1, 3, 2, 5}, 0.95);
        assertThat(six.lower()).isEqualTo(1.0);
        assertThat(six.upper()).isEqualTo(6.0);
        assertThat(six.achievedConfidence()).isCloseTo(1 - 2.0 / 64, within(1e-12));

        // Five values: even [x(1), x(5)] misses the median with 2/32 > 5 %.
        Spread five = RepetitionStatistics.spread(new double[] {1, 2, 3, 4, 5}, 0.95);
        assertThat(five.median()).isEqualTo(3.0);
        assertThat(five.lower()).isNull();
        assertThat(five.achievedConfidence()).isNull();
    }

    @Test
    void theCoefficientOfVariationUsesTheSampleStandardDeviation() {
        // Mean 5, sample variance 32/7.
        Spread spread = RepetitionStatistics.spread(new double[] {2, 4, 4, 4, 5, 5, 7, 9}, 0.95);

        assertThat(spread.cv()).isCloseTo(Math.sqrt(32.0 / 7) / 5, within(1e-12));
        assertThat(RepetitionStatistics.spread(new double[] {3}, 0.95).cv()).isNaN();
    }

    @Test
    void refusesWhatCannotBeSummarisedSayingWhy() {
        assertThatThrownBy(() -> RepetitionStatistics.spread(new double[0], 0.95))
                .hasMessageContaining("no values");
        assertThatThrownBy(() -> RepetitionStatistics.spread(new double[] {1, Double.NaN}, 0.95))
                .hasMessageContaining("NaN");
        assertThatThrownBy(() -> RepetitionStatistics.spread(new double[] {1, 2}, 1.5))
                .hasMessageContaining("between 0.5 and 1");
    }

    @Test
    void threeRunsOfEachCanNeverBeSignificantAt95PercentFourCan() {
        // Exact: 2 / C(6, 3) = 0.1 and 2 / C(8, 4) = 0.0286.
        assertThat(RepetitionStatistics.smallestPValue(3, 3)).isCloseTo(0.1, within(1e-12));
        assertThat(RepetitionStatistics.smallestPValue(4, 4)).isCloseTo(2.0 / 70, within(1e-12));
    }
}
