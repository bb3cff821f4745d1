package dev.stackbench.local;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stackbench.k6.OutputBuckets;
import dev.stackbench.report.RunDetails;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * Requests, failures and latency of each request name (k6's {@code name} tag) of one scenario, summed over the
 * seconds of k6's stackbench output ({@link K6PerSecondFile}), written as requests-by-name.csv and read back by the
 * report.
 */
final class RequestNameTotals {

    static final String HEADER = "name,requests,failed,error_rate,p50_ms,p95_ms,p99_ms,max_ms";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long HIGHEST_MICROS = 600_000_000L;

    private final Map<String, Totals> byName = new TreeMap<>();

    private static final class Totals {
        private long requests;
        private long failed;
        private final Histogram latencyMicros = new Histogram(HIGHEST_MICROS, 3);
    }

    private RequestNameTotals() {}

    /** The names of {@code scenario} in k6's per-second file; empty when it has none (or no file). */
    static RequestNameTotals read(Path perSecondFile, String scenario) {
        RequestNameTotals totals = new RequestNameTotals();
        if (!Files.isRegularFile(perSecondFile)) {
            return totals;
        }
        try (var lines = Files.lines(perSecondFile, StandardCharsets.UTF_8)) {
            lines.forEach(line -> totals.add(line, scenario));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read k6's per-second file " + perSecondFile, e);
        }
        return totals;
    }

    private void add(String line, String scenario) {
        JsonNode node;
        try {
            node = JSON.readTree(line);
        } catch (JsonProcessingException e) {
            return;
        }
        if (node == null) {
            return;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it =
                        node.path("scenarios").path(scenario).path("names").fields();
                it.hasNext(); ) {
            Map.Entry<String, JsonNode> name = it.next();
            Totals totals = byName.computeIfAbsent(name.getKey(), n -> new Totals());
            JsonNode counts = name.getValue();
            totals.requests += counts.path("requests").asLong();
            totals.failed += counts.path("failed").asLong();
            for (Iterator<Map.Entry<String, JsonNode>> buckets =
                            counts.path("latency").fields();
                    buckets.hasNext(); ) {
                Map.Entry<String, JsonNode> bucket = buckets.next();
                long micros = Math.round(OutputBuckets.middleMicros(Integer.parseInt(bucket.getKey())));
                totals.latencyMicros.recordValueWithCount(
                        Math.min(HIGHEST_MICROS, micros), bucket.getValue().asLong());
            }
        }
    }

    boolean isEmpty() {
        return byName.isEmpty();
    }

    /** Writes requests-by-name.csv; nothing when there are no names. */
    void write(Path file) throws IOException {
        if (byName.isEmpty()) {
            return;
        }
        StringBuilder csv = new StringBuilder(HEADER).append('\n');
        byName.forEach((name, totals) -> {
            Histogram h = totals.latencyMicros;
            boolean any = h.getTotalCount() > 0;
            csv.append(quote(name))
                    .append(String.format(
                            Locale.ROOT,
                            ",%d,%d,%.6f,%s,%s,%s,%s%n",
                            totals.requests,
                            totals.failed,
                            totals.requests == 0 ? 0.0 : totals.failed / (double) totals.requests,
                            any ? ms(h.getValueAtPercentile(50)) : "",
                            any ? ms(h.getValueAtPercentile(95)) : "",
                            any ? ms(h.getValueAtPercentile(99)) : "",
                            any ? ms(h.getMaxValue()) : ""));
        });
        Files.writeString(file, csv);
    }

    /** The report's rows of a requests-by-name.csv; empty when the file is missing. */
    static List<RunDetails.RequestNameFigures> readCsv(Path file) {
        List<RunDetails.RequestNameFigures> rows = new ArrayList<>();
        if (!Files.isRegularFile(file)) {
            return rows;
        }
        for (Map<String, String> row : CsvTable.read(file)) {
            rows.add(new RunDetails.RequestNameFigures(
                    row.get("name"),
                    (long) CsvTable.number(row, "requests"),
                    orNull(CsvTable.number(row, "p50_ms")),
                    orNull(CsvTable.number(row, "p95_ms")),
                    orNull(CsvTable.number(row, "p99_ms")),
                    orNull(CsvTable.number(row, "max_ms")),
                    orNull(CsvTable.number(row, "error_rate"))));
        }
        return rows;
    }

    private static Double orNull(double value) {
        return Double.isNaN(value) ? null : value;
    }

    private static String ms(long micros) {
        return String.format(Locale.ROOT, "%.3f", micros / 1000.0);
    }

    /** A name as one field of the plain CSV the results use (no quoting): a comma in it becomes a semicolon. */
    private static String quote(String name) {
        return name.replace(',', ';').replace('\n', ' ');
    }
}
