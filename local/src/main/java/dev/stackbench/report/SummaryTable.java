package dev.stackbench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The comparison table printed at the end of a local run: the columns of {@code kubectl get benchmarkruns}
 * (VARIANT, PHASE, RPS, P95, ERRORS, THREADS) first, then the figures only a full summary has.
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
            new Column("P50(ms)", row -> number(row.p50Ms(), 1), true),
            new Column("P99(ms)", row -> number(row.p99Ms(), 1), true),
            new Column("REQUESTS", row -> Long.toString(row.requests()), true),
            new Column("DROPPED", SummaryTable::dropped, true),
            new Column("CPU", row -> number(row.avgCpuCores(), 2), true),
            new Column("K6 CPU", row -> number(row.loadGeneratorCpuCores(), 2), true),
            new Column("LITTLE-CAP", row -> number(row.littleLawRps(), 1), true),
            new Column("RPS/CAP", SummaryTable::ofCap, true));

    private SummaryTable() {}

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
        StringBuilder table = new StringBuilder();
        for (List<String> line : cells) {
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
