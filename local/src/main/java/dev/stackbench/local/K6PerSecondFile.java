package dev.stackbench.local;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stackbench.k6.OutputBuckets;
import dev.stackbench.report.RequestTimeline;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Reads what k6's stackbench output ({@code --out stackbench=FILE}, built from hack/k6) wrote: one JSON line per
 * second of the samples' own time stamps, {@code {"second":S,"scenarios":{"measure":{"requests":N,"failed":N,
 * "dropped":N,"latency":{"BUCKET":N}}}}}, into one {@link RequestTimeline} per scenario. A second may have more than
 * one line (samples that reached the output after its line was written); they add up. A line cut short by a killed k6
 * is skipped.
 *
 * <p>Latency buckets are log-linear over microseconds: below {@value #EXACT_MICROS} µs a bucket per microsecond, above
 * it {@value #SUB_BUCKETS} buckets per power of two, so a bucket is at most 1/{@value #SUB_BUCKETS} (1.6 %) of its
 * lower bound wide; a latency is read as its bucket's middle.
 */
final class K6PerSecondFile {

    private static final ObjectMapper JSON = new ObjectMapper();

    private K6PerSecondFile() {}

    /** The timelines by scenario name; empty when the file is missing or holds no complete line. */
    static Map<String, RequestTimeline> read(Path file) {
        Map<String, RequestTimeline> timelines = new HashMap<>();
        if (!Files.isRegularFile(file)) {
            return timelines;
        }
        try (var lines = Files.lines(file, StandardCharsets.UTF_8)) {
            lines.forEach(line -> addLine(line, timelines));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read k6's per-second file " + file, e);
        }
        return timelines;
    }

    /**
     * Adds one line's counts to the timelines.
     *
     * @return the line's second, or -1 for a line that holds none (cut short, or not a second's)
     */
    static long addLine(String line, Map<String, RequestTimeline> timelines) {
        JsonNode node;
        try {
            node = JSON.readTree(line);
        } catch (JsonProcessingException e) {
            return -1;
        }
        if (node == null || !node.path("second").canConvertToLong()) {
            return -1;
        }
        long second = node.path("second").asLong();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.path("scenarios").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> scenario = it.next();
            RequestTimeline timeline = timelines.computeIfAbsent(scenario.getKey(), name -> new RequestTimeline());
            JsonNode counts = scenario.getValue();
            timeline.recordRequests(second, counts.path("requests").asLong());
            timeline.recordFailed(second, counts.path("failed").asLong());
            timeline.recordDropped(second, counts.path("dropped").asLong());
            for (Iterator<Map.Entry<String, JsonNode>> buckets =
                            counts.path("latency").fields();
                    buckets.hasNext(); ) {
                Map.Entry<String, JsonNode> bucket = buckets.next();
                int index = Integer.parseInt(bucket.getKey());
                timeline.recordLatency(
                        second,
                        OutputBuckets.middleMicros(index) / 1000.0,
                        bucket.getValue().asLong());
            }
        }
        return second;
    }
}
