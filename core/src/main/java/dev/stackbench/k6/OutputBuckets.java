package dev.stackbench.k6;

/**
 * The latency buckets of stackbench's k6 output (hack/k6): one bucket per microsecond below {@value #EXACT_MICROS}
 * µs, above it each power of two split into {@value #SUB_BUCKETS} buckets, so a bucket is at most 1.6 % of its lower
 * bound wide.
 */
public final class OutputBuckets {

    public static final int SUB_BUCKETS = 64;
    public static final int EXACT_MICROS = 2 * SUB_BUCKETS;

    private OutputBuckets() {}

    /** The smallest latency of a bucket, in microseconds. */
    public static long lowerMicros(int bucket) {
        if (bucket < EXACT_MICROS) {
            return bucket;
        }
        int shift = bucket / SUB_BUCKETS - 1;
        return (long) (bucket % SUB_BUCKETS + SUB_BUCKETS) << shift;
    }

    /** A bucket's latency as read: its own value below {@value #EXACT_MICROS} µs, else the middle of its range. */
    public static double middleMicros(int bucket) {
        if (bucket < EXACT_MICROS) {
            return bucket;
        }
        return (lowerMicros(bucket) + lowerMicros(bucket + 1)) / 2.0;
    }
}
