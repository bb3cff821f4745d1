package dev.stackbench.k6;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
     * Buckets per k6 Counter. k6 matches every sample against each sub-metric of its counter, so one counter with all
     * {@link #COUNT} buckets as sub-metrics would cost every request hundreds of comparisons; groups of about the
     * square root of the count keep both those and the counters every VU makes few.
     */
    public static final int GROUP_SIZE = (int) Math.ceil(Math.sqrt(COUNT));

    public static final int GROUPS = (COUNT + GROUP_SIZE - 1) / GROUP_SIZE;

    /**
     * Prefix of the k6 Counters the script adds each measured request to: group g is {@code
     * stackbench_latency_bucket_<g in two digits>}, tagged {@link #TAG} with the bucket index in four digits, so bucket
     * i is the sub-metric {@code stackbench_latency_bucket_<i / GROUP_SIZE>{bucket:<i>}}, e.g. {@code
     * stackbench_latency_bucket_06{bucket:0123}}.
     */
    public static final String METRIC = "stackbench_latency_bucket";

    public static final String TAG = "bucket";

    private static final Pattern SUB_METRIC = Pattern.compile("^" + METRIC + "_(\\d{2})\\{" + TAG + ":(\\d{4})}$");

    private LatencyBuckets() {}

    /** The counter of a group of buckets, e.g. stackbench_latency_bucket_06. */
    public static String groupMetric(int group) {
        return METRIC + "_" + String.format(Locale.ROOT, "%02d", group);
    }

    /** The sub-metric counting bucket i, e.g. stackbench_latency_bucket_06{bucket:0123}. */
    public static String metricName(int index) {
        return groupMetric(index / GROUP_SIZE) + "{" + TAG + ":" + String.format(Locale.ROOT, "%04d", index) + "}";
    }

    /** Bucket index of a (sub-)metric name, or -1 when it is not a bucket's sub-metric. */
    public static int indexOf(String metricName) {
        Matcher matcher = SUB_METRIC.matcher(metricName);
        if (!matcher.matches()) {
            return -1;
        }
        int index = Integer.parseInt(matcher.group(2));
        return index < COUNT && Integer.parseInt(matcher.group(1)) == index / GROUP_SIZE ? index : -1;
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
