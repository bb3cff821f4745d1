package dev.stackbench.stats;

import dev.stackbench.stats.ComparisonAnalysis.ContenderResult;
import dev.stackbench.stats.ComparisonAnalysis.Result;
import dev.stackbench.stats.ComparisonAnalysis.VariantResult;
import dev.stackbench.stats.RepetitionStatistics.Shift;
import dev.stackbench.stats.RepetitionStatistics.Spread;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A comparison as a text table, one row per metric and variant, in the manner of benchstat: the median with its
 * interval and CV over the valid runs, and for each contender the shift against the baseline with its interval, the
 * p-value and the verdict. The warnings follow the table.
 */
public final class ComparisonTable {

    private ComparisonTable() {}

    public static String render(Result result, List<ComparisonMetric> metrics, double confidence) {
        List<String[]> rows = new ArrayList<>();
        String interval = String.format(Locale.ROOT, "%.0f%% CI", confidence * 100);
        rows.add(new String[] {
            "metric", "variant", "median", interval, "CV", "runs", "vs " + result.baseline(), "p", "verdict"
        });
        for (ComparisonMetric metric : metrics) {
            for (VariantResult variant : result.variants()) {
                Spread spread = variant.spreads().get(metric);
                Shift shift = result.contenders().stream()
                        .filter(c -> c.contender().equals(variant.variant()))
                        .map(ContenderResult::shifts)
                        .map(shifts -> shifts.get(metric))
                        .findFirst()
                        .orElse(null);
                boolean baseline = variant.variant().equals(result.baseline());
                rows.add(new String[] {
                    metric.value(),
                    variant.variant(),
                    spread == null ? "-" : number(spread.median()) + unit(metric),
                    spread == null || spread.lower() == null
                            ? "-"
                            : "[" + number(spread.lower()) + ", " + number(spread.upper()) + "]",
                    spread == null || Double.isNaN(spread.cv())
                            ? "-"
                            : String.format(Locale.ROOT, "%.1f%%", spread.cv() * 100),
                    variant.validRuns() + "/" + variant.runs(),
                    baseline ? "(baseline)" : shift == null ? "-" : delta(shift),
                    baseline || shift == null ? "" : String.format(Locale.ROOT, "%.2g", shift.pValue()),
                    baseline || shift == null ? "" : shift.verdict().toString()
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
        text.append("verdict: ").append(result.verdict()).append('\n');
        for (String warning : result.warnings()) {
            text.append("!! ").append(warning).append('\n');
        }
        return text.toString();
    }

    /** The shift with its interval, and relative to the baseline's median: {@code +28.4 [+28.1, +28.65] (+90%)}. */
    private static String delta(Shift shift) {
        String range = shift.lower() == null || shift.upper() == null
                ? ""
                : " [" + signed(shift.lower()) + ", " + signed(shift.upper()) + "]";
        String relative = Double.isNaN(shift.relativeDifference())
                ? ""
                : String.format(Locale.ROOT, " (%+.0f%%)", shift.relativeDifference() * 100);
        return signed(shift.shift()) + range + relative;
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
