package dev.stackbench.local;

import dev.stackbench.api.status.VerificationResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The verification of one or more variants as a plain-text table: per variant the requests and their statuses, the
 * work measured per request (statements, rows read and written, upstream calls) beside the scenario's, and the
 * verdict, with what differed below.
 */
public final class VerificationTable {

    /** One variant's verification. */
    public record Row(String name, VerificationResult result) {}

    private static final String[] HEADER = {
        "run",
        "scenario",
        "requests",
        "statuses",
        "checks failed",
        "statements/req",
        "rows read/req",
        "rows written/req",
        "upstream calls/req",
        "expected (stmts/read/written/calls)",
        "verdict"
    };

    private VerificationTable() {}

    public static String render(List<Row> rows) {
        List<String[]> lines = new ArrayList<>();
        lines.add(HEADER);
        for (Row row : rows) {
            VerificationResult result = row.result();
            VerificationResult.WorkPerRequest measured = result.getMeasured();
            VerificationResult.WorkPerRequest expected = result.getExpected();
            lines.add(new String[] {
                row.name(),
                result.getScenario(),
                String.valueOf(result.getRequests()),
                String.valueOf(result.getStatusCodes()),
                String.valueOf(result.getChecksFailed()),
                number(measured.getStatements()),
                number(measured.getRowsRead()),
                number(measured.getRowsWritten()),
                number(measured.getUpstreamCalls()),
                expected == null
                        ? "not derivable"
                        : number(expected.getStatements()) + " / " + number(expected.getRowsRead()) + " / "
                                + number(expected.getRowsWritten()) + " / " + number(expected.getUpstreamCalls()),
                result.getVerdict()
            });
        }
        int[] widths = new int[HEADER.length];
        for (String[] line : lines) {
            for (int column = 0; column < line.length; column++) {
                widths[column] = Math.max(widths[column], line[column].length());
            }
        }
        StringBuilder text = new StringBuilder();
        for (String[] line : lines) {
            StringBuilder row = new StringBuilder();
            for (int column = 0; column < line.length; column++) {
                row.append(column == 0 ? "" : "  ").append(String.format("%-" + widths[column] + "s", line[column]));
            }
            text.append(row.toString().stripTrailing()).append(System.lineSeparator());
        }
        for (Row row : rows) {
            text.append(row.name())
                    .append(": ")
                    .append(row.result().getMessage())
                    .append(System.lineSeparator());
        }
        return text.toString().stripTrailing();
    }

    private static String number(Double value) {
        if (value == null) {
            return "-";
        }
        return value == Math.rint(value)
                ? String.valueOf(value.longValue())
                : String.format(Locale.ROOT, "%.3f", value).replaceAll("0+$", "");
    }
}
