package dev.stackbench.k6;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stackbench.api.status.IntendedLatency;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The latencies from the intended starts of one arrival-rate scenario, as stackbench's k6 output (hack/k6) writes
 * them when k6 stops: one line {"intended":{"SCENARIO":{"served":{BUCKET:N},"droppedAtLeast":{...},
 * "beyondWindowAtLeast":{...},"cutOffAtLeast":{...},"lag":{...}}}} per k6 instance, whose histograms add up across
 * runners.
 *
 * <p>Served iterations count with their latency from the intended start; dropped ones, and the ones k6 cut off at the
 * scenario's end, with a lower bound of it. A percentile is a lower bound when any such iteration ranks at or below
 * it: raising their values (to what they would really have been) could only raise it.
 */
public final class IntendedStarts {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final TreeMap<Integer, Long> served = new TreeMap<>();
    private final TreeMap<Integer, Long> dropped = new TreeMap<>();
    private final TreeMap<Integer, Long> beyond = new TreeMap<>();
    private final TreeMap<Integer, Long> cutOff = new TreeMap<>();
    private final TreeMap<Integer, Long> lag = new TreeMap<>();
    private boolean incomplete;
    private int instances;

    private IntendedStarts() {}

    /** The scenario's intended starts in the lines of one or more k6 instances' output (other lines are skipped). */
    public static IntendedStarts read(Stream<String> lines, String scenario) {
        IntendedStarts starts = new IntendedStarts();
        lines.filter(line -> line.startsWith("{\"intended\"")).forEach(line -> starts.add(line, scenario));
        return starts;
    }

    private void add(String line, String scenario) {
        JsonNode node;
        try {
            node = JSON.readTree(line);
        } catch (JsonProcessingException e) {
            return;
        }
        JsonNode counts = node.path("intended").path(scenario);
        if (!counts.isObject()) {
            return;
        }
        instances++;
        addAll(counts.path("served"), served);
        addAll(counts.path("droppedAtLeast"), dropped);
        addAll(counts.path("beyondWindowAtLeast"), beyond);
        addAll(counts.path("cutOffAtLeast"), cutOff);
        addAll(counts.path("lag"), lag);
        incomplete |= counts.path("incomplete").asBoolean(false)
                || counts.path("unmatched").asLong(0) > 0;
    }

    private static void addAll(JsonNode buckets, Map<Integer, Long> into) {
        for (Iterator<Map.Entry<String, JsonNode>> it = buckets.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> bucket = it.next();
            try {
                into.merge(Integer.parseInt(bucket.getKey()), bucket.getValue().asLong(), Long::sum);
            } catch (NumberFormatException e) {
                // Not a bucket: skipped.
            }
        }
    }

    /** Whether any k6 instance wrote the scenario's intended starts. */
    public boolean isEmpty() {
        return total(served) + total(dropped) + total(beyond) + total(cutOff) == 0;
    }

    /** The status figures; empty when no instance wrote any. */
    public Optional<IntendedLatency> summary() {
        if (isEmpty()) {
            return Optional.empty();
        }
        long servedCount = total(served);
        long droppedCount = total(dropped) + total(beyond);
        long cutOffCount = total(cutOff);
        long all = servedCount + droppedCount + cutOffCount;
        TreeMap<Integer, Long> bounds = new TreeMap<>(dropped);
        beyond.forEach((bucket, n) -> bounds.merge(bucket, n, Long::sum));
        cutOff.forEach((bucket, n) -> bounds.merge(bucket, n, Long::sum));
        TreeMap<Integer, Long> everything = new TreeMap<>(served);
        bounds.forEach((bucket, n) -> everything.merge(bucket, n, Long::sum));
        IntendedLatency latency = new IntendedLatency();
        latency.setIntended(all);
        latency.setServed(servedCount);
        latency.setDropped(droppedCount);
        latency.setBeyondWindow(total(beyond));
        latency.setCutOff(cutOffCount > 0 ? cutOffCount : null);
        List<String> lowerBounds = new ArrayList<>();
        int lowestBound = bounds.isEmpty() ? Integer.MAX_VALUE : bounds.firstKey();
        for (double p : new double[] {0.50, 0.90, 0.95, 0.99, 1.0}) {
            int bucket = percentileBucket(everything, all, p);
            double ms = round(OutputBuckets.middleMicros(bucket) / 1000.0);
            String name = p == 1.0 ? "max" : "p" + Math.round(p * 100);
            switch (name) {
                case "p50" -> latency.setP50(ms);
                case "p90" -> latency.setP90(ms);
                case "p95" -> latency.setP95(ms);
                case "p99" -> latency.setP99(ms);
                default -> latency.setMax(ms);
            }
            if (bucket >= lowestBound) {
                lowerBounds.add(name);
            }
        }
        latency.setLowerBounds(lowerBounds.isEmpty() ? null : lowerBounds);
        long lagCount = total(lag);
        if (lagCount > 0) {
            latency.setScheduleLagP99Ms(
                    round(OutputBuckets.middleMicros(percentileBucket(lag, lagCount, 0.99)) / 1000.0));
            latency.setScheduleLagMaxMs(round(OutputBuckets.middleMicros(lag.lastKey()) / 1000.0));
        }
        latency.setNote(note(latency));
        return Optional.of(latency);
    }

    private String note(IntendedLatency latency) {
        List<String> parts = new ArrayList<>();
        if (latency.getDropped() > 0) {
            parts.add(String.format(
                    Locale.ROOT,
                    "%d of %d intended iterations (%.1f %%) were dropped and never sent; their latency counts as a"
                            + " lower bound (until a VU was free again)%s",
                    latency.getDropped(),
                    latency.getIntended(),
                    100.0 * latency.getDropped() / latency.getIntended(),
                    latency.getBeyondWindow() > 0
                            ? ", " + latency.getBeyondWindow() + " of them beyond the measured window"
                            : ""));
            if (latency.getLowerBounds() != null) {
                parts.add(String.join(", ", latency.getLowerBounds()) + " from the intended start "
                        + (latency.getLowerBounds().size() == 1 ? "is a lower bound" : "are lower bounds"));
            }
        } else if (latency.getCutOff() == null) {
            parts.add("no intended iteration was dropped: every caller is measured from its intended start");
        }
        if (latency.getCutOff() != null) {
            parts.add(String.format(
                    Locale.ROOT,
                    "%d of %d intended iterations (%.1f %%) were cut off: k6 interrupted them at the scenario's end"
                            + " (graceful stop) before they were answered; their latency counts as a lower bound"
                            + " (until k6's last answer)",
                    latency.getCutOff(),
                    latency.getIntended(),
                    100.0 * latency.getCutOff() / latency.getIntended()));
            if (latency.getDropped() == 0 && latency.getLowerBounds() != null) {
                parts.add(String.join(", ", latency.getLowerBounds()) + " from the intended start "
                        + (latency.getLowerBounds().size() == 1 ? "is a lower bound" : "are lower bounds"));
            }
        }
        if (incomplete) {
            parts.add("some ticks could not be matched to the schedule (more iterations than the output keeps, or"
                    + " ticks beyond it): the figures cover the matched ones");
        }
        return String.join("; ", parts);
    }

    /** The bucket holding the p-th percentile (nearest rank) of a histogram of {@code count} values. */
    private static int percentileBucket(TreeMap<Integer, Long> histogram, long count, double p) {
        long rank = Math.max(1, (long) Math.ceil(p * count));
        long seen = 0;
        for (Map.Entry<Integer, Long> bucket : histogram.entrySet()) {
            seen += bucket.getValue();
            if (seen >= rank) {
                return bucket.getKey();
            }
        }
        return histogram.lastKey();
    }

    private static long total(Map<Integer, Long> histogram) {
        return histogram.values().stream().mapToLong(Long::longValue).sum();
    }

    private static double round(double ms) {
        return Math.round(ms * 1000) / 1000.0;
    }

    /** How many k6 instances wrote the scenario. */
    public int instances() {
        return instances;
    }
}
