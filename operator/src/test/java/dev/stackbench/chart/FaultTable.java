package dev.stackbench.chart;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The faults an end-to-end class injected and what came of each, as a Markdown table for whoever asks whether a fault
 * at any moment loses results or holds the node pools: the fault, the phase the run was in when it struck (as the
 * run's status said right after), what was expected, what was observed, and how long until things went on.
 */
final class FaultTable {

    /** One fault injected; {@code observed} is filled in once the run it struck has ended and was checked. */
    static final class Row {
        private final String fault;
        private final String run;
        private final String phase;
        private final String expected;
        private String observed = "(the run was not followed to its end)";
        private String recovery = "";

        Row(String fault, String run, String phase, String expected) {
            this.fault = fault;
            this.run = run;
            this.phase = phase;
            this.expected = expected;
        }

        String phase() {
            return phase;
        }

        Row observed(String text) {
            this.observed = text;
            return this;
        }

        Row recovery(String text) {
            this.recovery = text;
            return this;
        }
    }

    private final List<Row> rows = new ArrayList<>();
    private final Map<String, String> details = new LinkedHashMap<>();

    Row add(String fault, String run, String phase, String expected) {
        Row row = new Row(fault, run, phase, expected);
        rows.add(row);
        return row;
    }

    List<Row> of(String run) {
        return rows.stream().filter(r -> r.run.equals(run)).toList();
    }

    /** What the rows of a run leave out (its message, warnings, events), written below the table. */
    void details(String run, String text) {
        details.put(run, text);
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    /** Writes the table, with a heading line that says where it comes from. */
    void write(Path file, String heading) {
        StringBuilder text = new StringBuilder("# ")
                .append(heading)
                .append("\n\n")
                .append("| fault | run | phase at injection | expected | observed | time to recover |\n")
                .append("|---|---|---|---|---|---|\n");
        for (Row row : rows) {
            text.append("| ")
                    .append(String.join(
                            " | ",
                            cell(row.fault),
                            cell(row.run),
                            cell(row.phase),
                            cell(row.expected),
                            cell(row.observed),
                            cell(row.recovery)))
                    .append(" |\n");
        }
        if (!details.isEmpty()) {
            text.append("\n## The runs\n\n");
            details.forEach((run, about) ->
                    text.append("- ").append(run).append(": ").append(about).append('\n'));
        }
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the fault table to " + file, e);
        }
        System.err.print(text);
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
