package dev.stackbench.k6;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Cumulative counts of one running k6, as its REST API gives them ({@code GET /v1/metrics}): requests, failed
 * requests and dropped iterations of the whole test and of the measure scenario (its tagged sub-metrics), and the
 * measure scenario's latency buckets of the generated script. Local mode follows its k6 with them; on a cluster the
 * operator adds up those of the runners for a run's live progress.
 */
public record K6ApiCounts(
        long requests,
        long failed,
        long dropped,
        long measureRequests,
        long measureFailed,
        long measureDropped,
        long[] measureBuckets) {

    public static final K6ApiCounts ZERO = new K6ApiCounts(0, 0, 0, 0, 0, 0, new long[LatencyBuckets.COUNT]);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MEASURE = "{scenario:" + K6Env.MEASURE_SCENARIO + "}";

    /** Parses a {@code /v1/metrics} answer. */
    public static K6ApiCounts parse(String body) throws IOException {
        Map<String, JsonNode> samples = new HashMap<>();
        for (JsonNode metric : JSON.readTree(body).path("data")) {
            samples.put(metric.path("id").asText(), metric.path("attributes").path("sample"));
        }
        long[] buckets = new long[LatencyBuckets.COUNT];
        samples.forEach((name, sample) -> {
            int index = LatencyBuckets.indexOf(name);
            if (index >= 0) {
                buckets[index] = sample.path("count").asLong();
            }
        });
        long requests = count(samples, "http_reqs");
        long measureRequests = count(samples, "http_reqs" + MEASURE);
        return new K6ApiCounts(
                requests,
                failures(samples.get("http_req_failed"), requests),
                count(samples, "dropped_iterations"),
                measureRequests,
                failures(samples.get("http_req_failed" + MEASURE), measureRequests),
                count(samples, "dropped_iterations" + MEASURE),
                buckets);
    }

    /** The counts of two k6 processes together (the runners of one test). */
    public K6ApiCounts plus(K6ApiCounts other) {
        long[] buckets = measureBuckets.clone();
        for (int i = 0; i < buckets.length && i < other.measureBuckets.length; i++) {
            buckets[i] += other.measureBuckets[i];
        }
        return new K6ApiCounts(
                requests + other.requests,
                failed + other.failed,
                dropped + other.dropped,
                measureRequests + other.measureRequests,
                measureFailed + other.measureFailed,
                measureDropped + other.measureDropped,
                buckets);
    }

    private static long count(Map<String, JsonNode> samples, String metric) {
        JsonNode sample = samples.get(metric);
        return sample == null ? 0 : sample.path("count").asLong();
    }

    /** k6's API gives a rate metric's share only; it counts one sample per request, as http_reqs does. */
    private static long failures(JsonNode sample, long requests) {
        return sample == null ? 0 : Math.round(sample.path("rate").asDouble() * requests);
    }
}
