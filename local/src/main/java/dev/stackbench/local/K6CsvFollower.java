package dev.stackbench.local;

import dev.stackbench.report.RequestTimeline;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Follows the CSV file k6 writes with {@code --out csv=FILE} while the test runs, turning its per-request
 * samples into one {@link RequestTimeline} per scenario. Used for the live progress line and, at the end, for
 * the plots over time; reading incrementally means a long run's file is read once.
 */
public final class K6CsvFollower {

    private final Path csv;
    private final Map<String, RequestTimeline> timelines = new ConcurrentHashMap<>();
    private Map<String, Integer> columns;
    private long offset;
    private final StringBuilder partialLine = new StringBuilder();

    public K6CsvFollower(Path csv) {
        this.csv = csv;
    }

    /** The timeline of one scenario (e.g. "measure"); empty if k6 has not reported it yet. */
    public RequestTimeline timeline(String scenario) {
        return timelines.computeIfAbsent(scenario, name -> new RequestTimeline());
    }

    /** Reads whatever k6 has appended since the last call. Only complete lines are consumed. */
    public synchronized void poll() throws IOException {
        if (!Files.exists(csv)) {
            return;
        }
        try (RandomAccessFile file = new RandomAccessFile(csv.toFile(), "r")) {
            long length = file.length();
            if (length <= offset) {
                return;
            }
            file.seek(offset);
            byte[] chunk = new byte[(int) Math.min(length - offset, 8 * 1024 * 1024)];
            file.readFully(chunk);
            offset += chunk.length;
            partialLine.append(new String(chunk, StandardCharsets.UTF_8));
        }
        int lineStart = 0;
        for (int newline = partialLine.indexOf("\n"); newline >= 0; newline = partialLine.indexOf("\n", lineStart)) {
            accept(partialLine.substring(lineStart, newline));
            lineStart = newline + 1;
        }
        partialLine.delete(0, lineStart);
    }

    private void accept(String line) {
        if (line.isBlank()) {
            return;
        }
        // URLs and error messages may be quoted and contain commas.
        List<String> fields = CsvLine.split(line);
        if (columns == null) {
            columns = new HashMap<>();
            for (int i = 0; i < fields.size(); i++) {
                columns.put(fields.get(i), i);
            }
            return;
        }
        String metric = field(fields, "metric_name");
        if (metric == null) {
            return;
        }
        String scenario = field(fields, "scenario");
        if (scenario == null || scenario.isEmpty()) {
            return;
        }
        long second;
        double value;
        try {
            second = Long.parseLong(field(fields, "timestamp"));
            value = Double.parseDouble(field(fields, "metric_value"));
        } catch (RuntimeException notASample) {
            return;
        }
        switch (metric) {
            case "http_req_duration" -> timeline(scenario).recordRequest(second, value);
            case "http_req_failed" -> timeline(scenario).recordFailed(second, value >= 1);
            case "dropped_iterations" -> timeline(scenario).recordDropped(second, Math.round(value));
            default -> {
                // Other k6 metrics are in the summary; the timeline needs only these.
            }
        }
    }

    private String field(List<String> fields, String column) {
        Integer index = columns.get(column);
        return index == null || index >= fields.size() ? null : fields.get(index);
    }
}
