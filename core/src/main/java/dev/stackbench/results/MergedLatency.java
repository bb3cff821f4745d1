package dev.stackbench.results;

import dev.stackbench.k6.LatencyBuckets;
import java.util.List;

/** Latency bucket counts of several runners added together; percentiles are read as bucket upper bounds. */
public final class MergedLatency {

    private final long[] counts = new long[LatencyBuckets.COUNT];
    private long total;

    public MergedLatency(List<long[]> bucketCounts) {
        for (long[] runner : bucketCounts) {
            for (int i = 0; i < Math.min(runner.length, counts.length); i++) {
                counts[i] += runner[i];
                total += runner[i];
            }
        }
    }

    public long total() {
        return total;
    }

    /**
     * The upper bound of the bucket holding the p-th percentile (0 < p <= 100): at least the true value and at most
     * one bucket width ({@link LatencyBuckets#GROWTH}) above it. NaN when nothing was counted.
     */
    public double percentileUpperBoundMs(double p) {
        if (total == 0) {
            return Double.NaN;
        }
        long rank = Math.max(1, (long) Math.ceil(p / 100.0 * total));
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return LatencyBuckets.upperBoundMs(i);
            }
        }
        return LatencyBuckets.upperBoundMs(counts.length - 1);
    }
}
