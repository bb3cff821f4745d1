package dev.stackbench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * Per-second throughput, errors and latency percentiles of one scenario, built from k6's counts.
 * Seconds are counted from the scenario's first sample, so runs started at different times line up in a plot.
 */
public final class RequestTimeline {

    /** Latencies are kept in microseconds, up to 10 minutes, with 3 significant digits. */
    private static final long HIGHEST_MICROS = 600_000_000L;

    private final TreeMap<Long, Bucket> bucketsByEpochSecond = new TreeMap<>();

    /** One point of the timeline; latencies in milliseconds, NaN for a second with no completed request. */
    public record Point(
            long second, long requests, long failed, long dropped, double p50Ms, double p95Ms, double p99Ms) {}

    public synchronized void recordRequest(long epochSecond, double durationMs) {
        Bucket bucket = bucket(epochSecond);
        bucket.requests++;
        long micros = Math.max(0, Math.min(HIGHEST_MICROS, Math.round(durationMs * 1000)));
        bucket.latencyMicros.recordValue(micros);
    }

    /** Requests counted in a second whose latencies are recorded apart ({@link #recordLatency}), or not at all. */
    public synchronized void recordRequests(long epochSecond, long count) {
        bucket(epochSecond).requests += count;
    }

    /** {@code count} latencies of about {@code durationMs} in a second, without counting requests. */
    public synchronized void recordLatency(long epochSecond, double durationMs, long count) {
        long micros = Math.max(0, Math.min(HIGHEST_MICROS, Math.round(durationMs * 1000)));
        bucket(epochSecond).latencyMicros.recordValueWithCount(micros, count);
    }

    public synchronized void recordFailed(long epochSecond, long count) {
        bucket(epochSecond).failed += count;
    }

    public synchronized void recordFailed(long epochSecond, boolean failed) {
        if (failed) {
            bucket(epochSecond).failed++;
        }
    }

    public synchronized void recordDropped(long epochSecond, long count) {
        bucket(epochSecond).dropped += count;
    }

    public synchronized boolean isEmpty() {
        return bucketsByEpochSecond.isEmpty();
    }

    /** The first second with samples, as a Unix time; -1 while empty. */
    public synchronized long firstEpochSecond() {
        return bucketsByEpochSecond.isEmpty() ? -1 : bucketsByEpochSecond.firstKey();
    }

    /** Requests counted in the given second. */
    public synchronized long requestsAt(long epochSecond) {
        Bucket bucket = bucketsByEpochSecond.get(epochSecond);
        return bucket == null ? 0 : bucket.requests;
    }

    public synchronized long totalRequests() {
        return bucketsByEpochSecond.values().stream()
                .mapToLong(bucket -> bucket.requests)
                .sum();
    }

    public synchronized long totalFailed() {
        return bucketsByEpochSecond.values().stream()
                .mapToLong(bucket -> bucket.failed)
                .sum();
    }

    public synchronized long totalDropped() {
        return bucketsByEpochSecond.values().stream()
                .mapToLong(bucket -> bucket.dropped)
                .sum();
    }

    /** Every second from the first to the last sample, including empty ones (a stall shows as zero). */
    public synchronized List<Point> points() {
        List<Point> points = new ArrayList<>();
        if (bucketsByEpochSecond.isEmpty()) {
            return points;
        }
        long first = bucketsByEpochSecond.firstKey();
        for (long second = first; second <= bucketsByEpochSecond.lastKey(); second++) {
            Bucket bucket = bucketsByEpochSecond.get(second);
            if (bucket == null) {
                points.add(new Point(second - first, 0, 0, 0, Double.NaN, Double.NaN, Double.NaN));
            } else {
                points.add(new Point(
                        second - first,
                        bucket.requests,
                        bucket.failed,
                        bucket.dropped,
                        percentileMs(bucket, 50),
                        percentileMs(bucket, 95),
                        percentileMs(bucket, 99)));
            }
        }
        return points;
    }

    /** Latency percentiles over every recorded request, in milliseconds. */
    public synchronized Map<String, Double> overallPercentilesMs() {
        Histogram all = new Histogram(HIGHEST_MICROS, 3);
        bucketsByEpochSecond.values().forEach(bucket -> all.add(bucket.latencyMicros));
        Map<String, Double> percentiles = new TreeMap<>();
        if (all.getTotalCount() > 0) {
            for (double p : new double[] {50, 90, 95, 99}) {
                percentiles.put("p" + (int) p, all.getValueAtPercentile(p) / 1000.0);
            }
            percentiles.put("max", all.getMaxValue() / 1000.0);
        }
        return percentiles;
    }

    /**
     * The distribution of every recorded latency at {@link LatencyPercentile#SPECTRUM}; empty when nothing was
     * recorded.
     */
    public synchronized List<LatencyPercentile> percentileSpectrum() {
        Histogram all = new Histogram(HIGHEST_MICROS, 3);
        bucketsByEpochSecond.values().forEach(bucket -> all.add(bucket.latencyMicros));
        List<LatencyPercentile> spectrum = new ArrayList<>();
        if (all.getTotalCount() > 0) {
            for (double percentile : LatencyPercentile.SPECTRUM) {
                double micros = percentile >= 100 ? all.getMaxValue() : all.getValueAtPercentile(percentile);
                spectrum.add(new LatencyPercentile(percentile, micros / 1000.0));
            }
        }
        return spectrum;
    }

    private static double percentileMs(Bucket bucket, double percentile) {
        return bucket.latencyMicros.getTotalCount() == 0
                ? Double.NaN
                : bucket.latencyMicros.getValueAtPercentile(percentile) / 1000.0;
    }

    private Bucket bucket(long epochSecond) {
        return bucketsByEpochSecond.computeIfAbsent(epochSecond, second -> new Bucket());
    }

    private static final class Bucket {
        private long requests;
        private long failed;
        private long dropped;
        private final Histogram latencyMicros = new Histogram(HIGHEST_MICROS, 3);
    }
}
