package dev.stackbench.k6;

import java.util.Locale;

/**
 * Fixed, log-spaced latency buckets shared by the generated k6 script and the aggregation. k6 cannot merge percentiles
 * of several runners, but bucket counts add up exactly, so each measured request is counted in one bucket and the
 * combined percentiles come from the summed counts (accurate to one bucket, {@value #GROWTH}x wide).
 *
 * <p>Bucket {@code i} holds latencies in [{@code MIN_MS * GROWTH^i}, {@code MIN_MS * GROWTH^(i+1)}); faster requests
 * fall into bucket 0 and slower ones into the last bucket.
 */
public final class LatencyBuckets {

    public static final double MIN_MS = 0.1;
    public static final double MAX_MS = 120_000;
    /** Relative width of a bucket: a value is known to within 4 %. */
    public static final double GROWTH = 1.04;

    public static final int COUNT = (int) Math.ceil(Math.log(MAX_MS / MIN_MS) / Math.log(GROWTH));
    /**
     * The k6 Counter the script adds each measured request to, tagged {@link #TAG} with its bucket index in four
     * digits; bucket i is the sub-metric {@code stackbench_latency_bucket{bucket:000i}}.
     */
    public static final String METRIC = "stackbench_latency_bucket";

    public static final String TAG = "bucket";

    private static final String SUB_METRIC_PREFIX = METRIC + "{" + TAG + ":";

    private LatencyBuckets() {}

    /** The sub-metric counting bucket i, e.g. stackbench_latency_bucket{bucket:0123}. */
    public static String metricName(int index) {
        return SUB_METRIC_PREFIX + String.format(Locale.ROOT, "%04d", index) + "}";
    }

    /** Bucket index of a (sub-)metric name, or -1 when it is not a bucket's sub-metric. */
    public static int indexOf(String metricName) {
        if (!metricName.startsWith(SUB_METRIC_PREFIX) || !metricName.endsWith("}")) {
            return -1;
        }
        try {
            int index = Integer.parseInt(metricName.substring(SUB_METRIC_PREFIX.length(), metricName.length() - 1));
            return index >= 0 && index < COUNT ? index : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The same formula the script uses. */
    public static int bucketOf(double latencyMs) {
        if (!(latencyMs > MIN_MS)) {
            return 0;
        }
        int index = (int) Math.floor(Math.log(latencyMs / MIN_MS) / Math.log(GROWTH));
        return Math.min(COUNT - 1, Math.max(0, index));
    }

    public static double lowerBoundMs(int index) {
        return index == 0 ? 0 : MIN_MS * Math.pow(GROWTH, index);
    }

    /** Upper bound of a bucket; the last bucket also holds everything slower than {@link #MAX_MS}. */
    public static double upperBoundMs(int index) {
        return index == COUNT - 1 ? Double.POSITIVE_INFINITY : MIN_MS * Math.pow(GROWTH, index + 1);
    }
}
