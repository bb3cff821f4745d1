package dev.stackbench.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The plain CSV files a run writes (a header line, comma-separated numbers, no quoting), read row by row as maps from
 * column name to text, so that readers name the columns they need and columns added later change nothing.
 */
final class CsvTable {

    private CsvTable() {}

    /** Every row of {@code file}; none when the file does not exist (a run that did not get that far). */
    static List<Map<String, String>> read(Path file) {
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + file + ": " + e.getMessage(), e);
        }
        List<Map<String, String>> rows = new ArrayList<>();
        if (lines.isEmpty()) {
            return rows;
        }
        String[] header = lines.getFirst().split(",", -1);
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            String[] cells = line.split(",", -1);
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < header.length && i < cells.length; i++) {
                row.put(header[i].trim(), cells[i].trim());
            }
            rows.add(row);
        }
        return rows;
    }

    /** The column's number, NaN when the row lacks the column, the cell is empty or is no number. */
    static double number(Map<String, String> row, String column) {
        String text = row.get(column);
        if (text == null || text.isEmpty()) {
            return Double.NaN;
        }
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }
}
