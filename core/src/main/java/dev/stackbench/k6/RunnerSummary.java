package dev.stackbench.k6;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stackbench.api.status.LatencySummary;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * What one k6 runner measured in the measure scenario (warmup excluded).
 *
 * @param latencyMs request duration statistics as k6 computed them for this runner (exact for this runner)
 * @param latencyBuckets count of measured requests per {@link LatencyBuckets} bucket, for merging runners
 * @param windowCompletions responses completed inside the measured window, from any scenario (-1 when the script
 *     did not record them, e.g. a custom module that never calls record)
 * @param windowFromWarmup of those, the responses to warmup requests (a backlog the target was still working off)
 * @param thresholds per k6 threshold key (e.g. http_req_duration{scenario:measure}): expression -> passed
 * @param k6Summary the complete k6 handleSummary data, for anything not extracted here
 * @param loadStartedAt when this runner's scenarios started (the summary's end time less k6's test run duration),
 *     so the measured window is loadStartedAt + warmupSeconds for measuredSeconds; null for summaries that do not
 *     say when they ended
 * @param statusCodes measured requests per HTTP status ({@link K6Metrics#COUNTED_STATUSES}; "0" is no response),
 *     statuses without a request left out
 * @param burst when the measured burst began and ended; null unless the executor sends a burst
 * @param lock scenario lock's group counts and lock waits; null for other scenarios
 */
public record RunnerSummary(
        String runnerId,
        String variant,
        String scenario,
        double warmupSeconds,
        double measuredSeconds,
        int requestsPerIteration,
        long requests,
        long failedRequests,
        long iterations,
        long droppedIterations,
        long windowCompletions,
        long windowFromWarmup,
        long checksPassed,
        long checksFailed,
        LatencySummary latencyMs,
        long[] latencyBuckets,
        Map<String, Map<String, Boolean>> thresholds,
        JsonNode k6Summary,
        Instant loadStartedAt,
        Map<String, Long> statusCodes,
        BurstTimes burst,
        LockCounts lock) {

    public RunnerSummary {
        statusCodes = statusCodes == null ? Map.of() : Map.copyOf(statusCodes);
    }

    /** The measured window of this runner, when the summary says when the load started. */
    public Optional<Instant> measuredWindowStart() {
        return Optional.ofNullable(loadStartedAt).map(start -> start.plusMillis(Math.round(warmupSeconds * 1000)));
    }

    /** Completions per second inside the measured window; falls back to measured requests when not recorded. */
    public double requestsPerSecond() {
        long completed = windowCompletions >= 0 ? windowCompletions : requests;
        return measuredSeconds > 0 ? completed / measuredSeconds : 0;
    }

    public long bucketedRequests() {
        long total = 0;
        for (long count : latencyBuckets) {
            total += count;
        }
        return total;
    }
}
