package dev.stackbench.comparison;

import dev.stackbench.api.comparison.BenchmarkComparisonStatus;
import dev.stackbench.api.comparison.ContenderStatistics;
import dev.stackbench.api.comparison.MetricShift;
import dev.stackbench.api.comparison.MetricSpread;
import dev.stackbench.api.comparison.VariantStatistics;
import dev.stackbench.stats.ComparisonMetric;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A comparison's status as a text table, one row per metric and variant, in the manner of benchstat: the median with
 * its interval and CV over the valid runs, and for each contender the shift against the baseline with its interval,
 * the p-value and the verdict. The verdict line and the warnings follow.
 */
public final class ComparisonTable {

    private ComparisonTable() {}

    public static String render(BenchmarkComparisonStatus status, List<ComparisonMetric> metrics, double confidence) {
        List<String[]> rows = new ArrayList<>();
        String interval = String.format(Locale.ROOT, "%.0f%% CI", confidence * 100);
        rows.add(new String[] {
            "metric", "variant", "median", interval, "CV", "runs", "vs " + status.getBaseline(), "p", "verdict"
        });
        List<VariantStatistics> variants = status.getVariants() == null ? List.of() : status.getVariants();
        for (ComparisonMetric metric : metrics) {
            for (VariantStatistics variant : variants) {
                MetricSpread spread = spread(variant, metric).orElse(null);
                boolean baseline = variant.getName().equals(status.getBaseline());
                MetricShift shift = baseline
                        ? null
                        : shift(status, variant.getName(), metric).orElse(null);
                rows.add(new String[] {
                    metric.value(),
                    variant.getName(),
                    spread == null ? "-" : number(spread.getMedian()) + unit(metric),
                    spread == null || spread.getLower() == null
                            ? "-"
                            : "[" + number(spread.getLower()) + ", " + number(spread.getUpper()) + "]",
                    spread == null || spread.getCv() == null
                            ? "-"
                            : String.format(Locale.ROOT, "%.1f%%", spread.getCv() * 100),
                    variant.getValidRuns() + "/" + variant.getRuns(),
                    baseline ? "(baseline)" : shift == null ? "-" : delta(shift),
                    shift == null
                            ? ""
                            : shift.getPValue() == null ? "-" : String.format(Locale.ROOT, "%.2g", shift.getPValue()),
                    shift == null ? "" : shift.getVerdict()
                });
            }
        }
        StringBuilder text = new StringBuilder();
        int[] widths = new int[rows.getFirst().length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                line.append(String.format(Locale.ROOT, "%-" + widths[i] + "s", row[i]));
                if (i + 1 < row.length) {
                    line.append("  ");
                }
            }
            text.append(line.toString().stripTrailing()).append('\n');
        }
        if (status.getVerdict() != null) {
            text.append("verdict: ").append(status.getVerdict()).append('\n');
        }
        if (status.getWarnings() != null) {
            for (String warning : status.getWarnings()) {
                text.append("!! ").append(warning).append('\n');
            }
        }
        return text.toString();
    }

    private static Optional<MetricSpread> spread(VariantStatistics variant, ComparisonMetric metric) {
        return variant.getMetrics() == null
                ? Optional.empty()
                : variant.getMetrics().stream()
                        .filter(spread -> metric.value().equals(spread.getMetric()))
                        .findFirst();
    }

    private static Optional<MetricShift> shift(BenchmarkComparisonStatus status, String name, ComparisonMetric metric) {
        return status.getContenders() == null
                ? Optional.empty()
                : status.getContenders().stream()
                        .filter(contender -> contender.getName().equals(name))
                        .map(ContenderStatistics::getMetrics)
                        .filter(java.util.Objects::nonNull)
                        .flatMap(List::stream)
                        .filter(shift -> metric.value().equals(shift.getMetric()))
                        .findFirst();
    }

    /** The shift with its interval, and relative to the baseline's median: {@code +28.4 [+28.1, +28.65] (+90%)}. */
    private static String delta(MetricShift shift) {
        String range = shift.getLower() == null || shift.getUpper() == null
                ? ""
                : " [" + signed(shift.getLower()) + ", " + signed(shift.getUpper()) + "]";
        String relative = shift.getRelativeDifference() == null
                ? ""
                : String.format(Locale.ROOT, " (%+.0f%%)", shift.getRelativeDifference() * 100);
        return signed(shift.getShift()) + range + relative;
    }

    private static String signed(double value) {
        return (value > 0 ? "+" : "") + number(value);
    }

    private static String number(double value) {
        double magnitude = Math.abs(value);
        if (magnitude == 0) {
            return "0";
        }
        if (magnitude >= 100) {
            return String.format(Locale.ROOT, "%.0f", value);
        }
        if (magnitude >= 1) {
            return String.format(Locale.ROOT, "%.2f", value);
        }
        return String.format(Locale.ROOT, "%.3g", value);
    }

    private static String unit(ComparisonMetric metric) {
        return metric.unit().isEmpty() ? "" : " " + metric.unit();
    }
}
