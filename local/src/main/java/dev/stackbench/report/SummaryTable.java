package dev.stackbench.report;

import dev.stackbench.api.status.CapacityResult;
import dev.stackbench.api.status.LimitedBy;
import dev.stackbench.api.status.StepResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The comparison table printed at the end of a local run: the columns of {@code kubectl get benchmarkruns}
 * (VARIANT, PHASE, RPS, P95, ERRORS, THREADS, CAPACITY) first, then the figures only a full summary has. Under the
 * row of a sweep or a capacity search come its steps, one line each, and what the capacity search found.
 */
public final class SummaryTable {

    /** A column: header and how to render a row's cell. */
    private record Column(String header, Function<RunRow, String> cell, boolean numeric) {}

    private static final List<Column> COLUMNS = List.of(
            new Column("NAME", RunRow::name, false),
            new Column("VARIANT", RunRow::variant, false),
            new Column("PHASE", RunRow::phase, false),
            new Column("RPS", row -> number(row.rps(), 1), true),
            new Column("P95(ms)", row -> number(row.p95Ms(), 1), true),
            new Column("ERRORS", row -> percent(row.errorRate()), true),
            new Column(
                    "THREADS",
                    row -> row.peakThreads() == null ? "-" : row.peakThreads().toString(),
                    true),
            new Column("CAPACITY", SummaryTable::capacity, true),
            new Column("LIMITED BY", row -> limitedBy(row.limitedBy()), false),
            new Column("P50(ms)", row -> number(row.p50Ms(), 1), true),
            new Column("P99(ms)", row -> number(row.p99Ms(), 1), true),
            new Column("REQUESTS", row -> Long.toString(row.requests()), true),
            new Column("DROPPED", SummaryTable::dropped, true),
            new Column("CPU", row -> number(row.avgCpuCores(), 2), true),
            new Column("K6 CPU", row -> number(row.loadGeneratorCpuCores(), 2), true),
            new Column("LITTLE-CAP", row -> number(row.littleLawRps(), 1), true),
            new Column("RPS/CAP", SummaryTable::ofCap, true));

    /**
     * A field of a step's line: a fixed label, the value (padded to the widest of its column) and a unit.
     *
     * @param numeric whether the value is right-aligned
     */
    private record StepField(String label, Function<StepResult, String> value, String unit, boolean numeric) {}

    private static final List<StepField> STEP_FIELDS = List.of(
            new StepField(
                    "step ",
                    step -> step.getStep() == null ? "-" : step.getStep().toString(),
                    "",
                    true),
            new StepField("", SummaryTable::level, "", true),
            new StepField("", step -> number(step.getRps(), 1), " rps", true),
            new StepField("p95 ", step -> number(step.getP95Ms(), 1), " ms", true),
            new StepField("err ", step -> percent(step.getErrorRate()), "", true),
            new StepField(
                    "dropped ",
                    step -> step.getDroppedIterations() == null
                            ? "-"
                            : step.getDroppedIterations().toString(),
                    "",
                    true),
            new StepField(
                    "threads ",
                    step -> step.getPeakThreads() == null
                            ? "-"
                            : step.getPeakThreads().toString(),
                    "",
                    true),
            new StepField("cpu ", step -> number(step.getTargetCpuCores(), 2), "", true),
            new StepField("k6 ", step -> number(step.getGeneratorCpuCores(), 2), "", true),
            new StepField("cap ", step -> number(step.getLittleLawRps(), 1), "", true),
            new StepField("limited by ", step -> limitedBy(step.getLimitedBy()), "", false),
            new StepField(
                    "",
                    step -> step.getOutcome() == null ? "-" : step.getOutcome().name(),
                    "",
                    false));

    /** Marks the step whose figures the run's row shows. */
    static final String KEPT = "(kept)";

    private SummaryTable() {}

    /** The limiting resource alone; its evidence is a detail line under the table. */
    static String limitedBy(LimitedBy verdict) {
        return verdict == null || verdict.getResource() == null ? "-" : verdict.getResource();
    }

    /** The table, then one line per warning, loudest first (a saturated load generator invalidates a row). */
    public static String render(List<RunRow> rows) {
        List<List<String>> cells = new ArrayList<>();
        cells.add(COLUMNS.stream().map(Column::header).toList());
        for (RunRow row : rows) {
            cells.add(COLUMNS.stream().map(column -> column.cell().apply(row)).toList());
        }
        int[] widths = new int[COLUMNS.size()];
        for (List<String> line : cells) {
            for (int i = 0; i < line.size(); i++) {
                widths[i] = Math.max(widths[i], line.get(i).length());
            }
        }
        int[] stepWidths = stepWidths(rows);
        StringBuilder table = new StringBuilder();
        for (int lineIndex = 0; lineIndex < cells.size(); lineIndex++) {
            List<String> line = cells.get(lineIndex);
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < line.size(); i++) {
                String cell = line.get(i);
                boolean header = line == cells.get(0);
                String padded = COLUMNS.get(i).numeric() && !header
                        ? " ".repeat(widths[i] - cell.length()) + cell
                        : cell + " ".repeat(widths[i] - cell.length());
                text.append(padded).append(i + 1 < line.size() ? "  " : "");
            }
            table.append(text.toString().stripTrailing()).append('\n');
            if (lineIndex > 0) {
                RunRow row = rows.get(lineIndex - 1);
                for (StepResult step : row.steps()) {
                    table.append(stepLine(step, row.keptStep(), stepWidths)).append('\n');
                }
                if (row.capacity() != null) {
                    table.append("  ").append(capacityLine(row.capacity())).append('\n');
                }
            }
        }
        for (RunRow row : rows) {
            if (row.loadGeneratorAlarm() != null) {
                String alarm = row.loadGeneratorAlarm().toUpperCase(Locale.ROOT);
                table.append("!! ")
                        .append(row.name())
                        .append(": ")
                        .append(alarm)
                        .append('\n');
            }
        }
        for (RunRow row : rows) {
            for (String detail : row.details()) {
                table.append("   ")
                        .append(row.name())
                        .append(": ")
                        .append(detail)
                        .append('\n');
            }
        }
        for (RunRow row : rows) {
            for (String warning : row.warnings()) {
                table.append("warning: ")
                        .append(row.name())
                        .append(": ")
                        .append(warning)
                        .append('\n');
            }
        }
        return table.toString();
    }

    private static int[] stepWidths(List<RunRow> rows) {
        int[] widths = new int[STEP_FIELDS.size()];
        for (RunRow row : rows) {
            for (StepResult step : row.steps()) {
                for (int i = 0; i < widths.length; i++) {
                    widths[i] = Math.max(
                            widths[i], STEP_FIELDS.get(i).value().apply(step).length());
                }
            }
        }
        return widths;
    }

    /** One step, e.g. {@code   step 2  200/s  199.8 rps  p95 12.3 ms  ...  Passed  (kept)  every threshold held}. */
    private static String stepLine(StepResult step, Integer keptStep, int[] widths) {
        StringBuilder line = new StringBuilder("  ");
        for (int i = 0; i < STEP_FIELDS.size(); i++) {
            StepField field = STEP_FIELDS.get(i);
            String value = field.value().apply(step);
            String padding = " ".repeat(widths[i] - value.length());
            line.append(field.label())
                    .append(field.numeric() ? padding + value : value + padding)
                    .append(field.unit())
                    .append("  ");
        }
        boolean kept = keptStep != null && keptStep.equals(step.getStep());
        line.append(kept ? KEPT : " ".repeat(KEPT.length()));
        if (step.getReason() != null) {
            line.append("  ").append(step.getReason());
        }
        return line.toString().stripTrailing();
    }

    /** A step's offered load with its unit: {@code 200/s} (iterations per second) or {@code 50 VUs}. */
    static String level(StepResult step) {
        return level(step.getLevel(), step.getUnit());
    }

    static String level(Integer level, String unit) {
        if (level == null) {
            return "-";
        }
        if (unit == null) {
            return level.toString();
        }
        return "iterations/s".equals(unit) ? level + "/s" : level + " " + unit;
    }

    /**
     * What a capacity search found, e.g. {@code capacity 340/s  in [340/s, 360/s)  limited by Target: ...}; a bound
     * the search did not find is '-'.
     */
    static String capacityLine(CapacityResult capacity) {
        StringBuilder line = new StringBuilder("capacity ")
                .append(level(capacity.getRate(), "iterations/s"))
                .append("  in [")
                .append(level(capacity.getLowerBound(), "iterations/s"))
                .append(", ")
                .append(level(capacity.getUpperBound(), "iterations/s"))
                .append(")  limited by ")
                .append(
                        capacity.getLimitedBy() == null
                                ? "-"
                                : capacity.getLimitedBy().name());
        if (capacity.getMessage() != null) {
            line.append(": ").append(capacity.getMessage());
        }
        return line.toString();
    }

    private static String capacity(RunRow row) {
        return row.capacity() == null || row.capacity().getRate() == null
                ? "-"
                : row.capacity().getRate().toString();
    }

    private static String dropped(RunRow row) {
        String count = Long.toString(row.droppedIterations());
        return row.loadGeneratorAlarm() != null ? count + " !!" : count;
    }

    private static String ofCap(RunRow row) {
        if (row.littleLawRps() == null || row.rps() == null || row.littleLawRps() <= 0) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.0f%%", 100 * row.rps() / row.littleLawRps());
    }

    static String number(Double value, int decimals) {
        if (value == null || value.isNaN()) {
            return "-";
        }
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    static String percent(Double fraction) {
        if (fraction == null || fraction.isNaN()) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.2f%%", 100 * fraction);
    }
}
