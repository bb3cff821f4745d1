package dev.stackbench.results;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The CPU counters of a run's pods as the kubelet's cAdvisor endpoint reports them, kept per container as they change,
 * and summarised over a window: the CPU a pod used, in cores, and the share of its CFS periods in which the quota (its
 * CPU limit) stopped it.
 *
 * <p>The kubelet refreshes these counters on its housekeeping interval (10-20 s by default, up to 30 s for an idle container) and
 * stamps each sample with the time it took it. Figures are computed between those stamps, never between the times
 * the counters were asked for, and from the readings taken inside the window when there are two of them, so that
 * time outside the window (warmup, the idle seconds after the load) does not dilute them.
 */
public final class PodCpuCounters {

    static final String USAGE = "container_cpu_usage_seconds_total";
    static final String PERIODS = "container_cpu_cfs_periods_total";
    static final String THROTTLED = "container_cpu_cfs_throttled_periods_total";

    /** One container's counters at one instant. */
    record Reading(double usageSeconds, double periods, double throttledPeriods) {}

    /**
     * What one pod used between two readings.
     *
     * @param from the first reading used
     * @param to the last reading used
     * @param insideWindow whether both readings lie inside the window asked for; false when the window held fewer
     *     than two, and readings around it were used
     * @param cores average CPU used, in cores
     * @param throttledRatio throttled CFS periods over all CFS periods; null when the pod ran no CFS period (no limit)
     */
    public record Usage(
            String pod, Instant from, Instant to, boolean insideWindow, double cores, Double throttledRatio) {

        public double seconds() {
            return Duration.between(from, to).toMillis() / 1000.0;
        }
    }

    /** By pod, then by container: the readings in time order. */
    private final Map<String, Map<String, TreeMap<Instant, Reading>>> pods = new LinkedHashMap<>();

    /**
     * A pod whose counters are wanted: its name, namespace and UID, and its containers' names by container ID (the
     * ID without the runtime prefix, as in {@code containerd://ID}).
     */
    public record PodRef(String namespace, String name, String uid, Map<String, String> containersById) {

        public PodRef {
            containersById = Map.copyOf(containersById);
        }
    }

    /**
     * Adds the samples of one scrape of a node's {@code /metrics/cadvisor} that belong to the given pods. A series is
     * a pod's container by its namespace, pod and container labels when the kubelet could set them, else by its
     * cgroup path (the {@code id} label), which holds the pod's UID and the container's ID: a kubelet whose cAdvisor
     * cannot reach the container runtime (a runtime socket other than the default) reports bare cgroups. Per-pod
     * totals and the sandbox's own container are left out: a pod's figures are its containers' sums. Samples
     * without a time stamp are taken as read at {@code scrapedAt}.
     */
    public synchronized void add(Collection<PodRef> wanted, String cadvisorText, Instant scrapedAt) {
        Map<String, Map<String, Map<Instant, double[]>>> found = new LinkedHashMap<>();
        for (PrometheusScrape.Sample sample :
                PrometheusTextParser.parse(cadvisorText).samples()) {
            int index =
                    switch (sample.name()) {
                        case USAGE -> 0;
                        case PERIODS -> 1;
                        case THROTTLED -> 2;
                        default -> -1;
                    };
            // The kubelet reports usage as one series with cpu="total"; per-CPU series would count it twice.
            if (index < 0
                    || (index == 0
                            && sample.label("cpu") != null
                            && !sample.label("cpu").equals("total"))) {
                continue;
            }
            Optional<String[]> podAndContainer = identify(sample, wanted);
            if (podAndContainer.isEmpty()) {
                continue;
            }
            Instant at = sample.timestampMs() == null ? scrapedAt : Instant.ofEpochMilli(sample.timestampMs());
            double[] values = found.computeIfAbsent(podAndContainer.get()[0], p -> new LinkedHashMap<>())
                    .computeIfAbsent(podAndContainer.get()[1], c -> new LinkedHashMap<>())
                    .computeIfAbsent(at, t -> new double[] {Double.NaN, 0, 0});
            values[index] = sample.value();
        }
        found.forEach((pod, containers) -> containers.forEach((container, readings) -> readings.forEach((at, v) -> {
            if (!Double.isNaN(v[0])) {
                pods.computeIfAbsent(pod, p -> new LinkedHashMap<>())
                        .computeIfAbsent(container, c -> new TreeMap<>())
                        .put(at, new Reading(v[0], v[1], v[2]));
            }
        })));
    }

    /** The pod and container a series belongs to, if it is a container of a wanted pod. */
    private static Optional<String[]> identify(PrometheusScrape.Sample sample, Collection<PodRef> wanted) {
        String pod = sample.label("pod");
        String container = sample.label("container");
        if (pod != null && !pod.isEmpty()) {
            if (container == null || container.isEmpty() || container.equals("POD")) {
                return Optional.empty();
            }
            for (PodRef ref : wanted) {
                if (ref.name().equals(pod) && ref.namespace().equals(sample.label("namespace"))) {
                    return Optional.of(new String[] {ref.name(), container});
                }
            }
            return Optional.empty();
        }
        String id = sample.label("id");
        if (id == null) {
            return Optional.empty();
        }
        String[] path = id.split("/");
        if (path.length < 2) {
            return Optional.empty(); // the root cgroup "/"
        }
        String leaf = path[path.length - 1];
        // cgroupfs: .../pod<uid>/<id>; systemd: ...-pod<uid with _>.slice/cri-containerd-<id>.scope
        String containerId = leaf.replaceFirst("^[a-z-]*-(?=[0-9a-f]{64})", "").replaceFirst("\\.scope$", "");
        String parent = path[path.length - 2];
        for (PodRef ref : wanted) {
            boolean podMatches = parent.equals("pod" + ref.uid())
                    || parent.endsWith("pod" + ref.uid().replace('-', '_') + ".slice");
            if (podMatches && ref.containersById().containsKey(containerId)) {
                return Optional.of(
                        new String[] {ref.name(), ref.containersById().get(containerId)});
            }
        }
        return Optional.empty();
    }

    /**
     * Every reading as text, one line per pod, container and time ({@code epochMillis pod container usageSeconds
     * periods throttledPeriods}), so that readings survive the process that took them ({@link #load}).
     */
    public synchronized String journal() {
        StringBuilder text = new StringBuilder();
        pods.forEach((pod, containers) ->
                containers.forEach((container, readings) -> readings.forEach((at, r) -> text.append(at.toEpochMilli())
                        .append(' ')
                        .append(pod)
                        .append(' ')
                        .append(container)
                        .append(' ')
                        .append(r.usageSeconds())
                        .append(' ')
                        .append(r.periods())
                        .append(' ')
                        .append(r.throttledPeriods())
                        .append('\n'))));
        return text.toString();
    }

    /** Adds the readings of a {@link #journal()}; a line that does not parse is skipped. */
    public synchronized int load(String journal) {
        int loaded = 0;
        for (String line : journal.split("\n")) {
            String[] f = line.trim().split(" ");
            if (f.length != 6) {
                continue;
            }
            try {
                pods.computeIfAbsent(f[1], p -> new LinkedHashMap<>())
                        .computeIfAbsent(f[2], c -> new TreeMap<>())
                        .put(
                                Instant.ofEpochMilli(Long.parseLong(f[0])),
                                new Reading(
                                        Double.parseDouble(f[3]), Double.parseDouble(f[4]), Double.parseDouble(f[5])));
                loaded++;
            } catch (NumberFormatException e) {
                // a damaged line: the others still count
            }
        }
        return loaded;
    }

    /**
     * How many distinct readings of the pod's counters there are (the most over its containers; a figure needs two);
     * 0 for a pod never seen.
     */
    public synchronized int readings(String pod) {
        Map<String, TreeMap<Instant, Reading>> containers = pods.get(pod);
        if (containers == null || containers.isEmpty()) {
            return 0;
        }
        return containers.values().stream().mapToInt(TreeMap::size).max().orElse(0);
    }

    /** The pods with readings, in the order first seen. */
    public synchronized List<String> pods() {
        return List.copyOf(pods.keySet());
    }

    /**
     * What the pod used over the window [from, to]: between the first and the last reading inside it when there are
     * two, else between the readings closest around it. Empty when the pod has fewer than two readings in all.
     */
    public synchronized Optional<Usage> usage(String pod, Instant from, Instant to) {
        Map<String, TreeMap<Instant, Reading>> containers = pods.get(pod);
        if (containers == null) {
            return Optional.empty();
        }
        double cores = 0;
        double periods = 0;
        double throttled = 0;
        Instant first = null;
        Instant last = null;
        boolean inside = true;
        boolean any = false;
        for (TreeMap<Instant, Reading> readings : containers.values()) {
            Optional<Map.Entry<Instant, Reading>[]> span = span(readings, from, to);
            if (span.isEmpty()) {
                continue;
            }
            Map.Entry<Instant, Reading> start = span.get()[0];
            Map.Entry<Instant, Reading> end = span.get()[1];
            double seconds = Duration.between(start.getKey(), end.getKey()).toMillis() / 1000.0;
            // A counter that went down belongs to a restarted container: its difference means nothing.
            double used = end.getValue().usageSeconds() - start.getValue().usageSeconds();
            if (used < 0) {
                continue;
            }
            any = true;
            cores += used / seconds;
            periods += Math.max(0, end.getValue().periods() - start.getValue().periods());
            throttled += Math.max(
                    0, end.getValue().throttledPeriods() - start.getValue().throttledPeriods());
            inside &= !start.getKey().isBefore(from) && !end.getKey().isAfter(to);
            first = first == null || start.getKey().isBefore(first) ? start.getKey() : first;
            last = last == null || end.getKey().isAfter(last) ? end.getKey() : last;
        }
        if (!any) {
            return Optional.empty();
        }
        return Optional.of(new Usage(pod, first, last, inside, cores, periods > 0 ? throttled / periods : null));
    }

    @SuppressWarnings("unchecked")
    private static Optional<Map.Entry<Instant, Reading>[]> span(
            TreeMap<Instant, Reading> readings, Instant from, Instant to) {
        var within = readings.subMap(from, true, to, true);
        if (within.size() >= 2) {
            return Optional.of(new Map.Entry[] {within.firstEntry(), within.lastEntry()});
        }
        Map.Entry<Instant, Reading> start = readings.floorEntry(from);
        if (start == null) {
            start = readings.ceilingEntry(from);
        }
        Map.Entry<Instant, Reading> end = readings.ceilingEntry(to);
        if (end == null) {
            end = readings.floorEntry(to);
        }
        if (start == null || end == null || !end.getKey().isAfter(start.getKey())) {
            return Optional.empty();
        }
        return Optional.of(new Map.Entry[] {start, end});
    }

    /** Every pod's usage over the window, in the order the pods were first seen. */
    public synchronized List<Usage> usages(Instant from, Instant to) {
        List<Usage> usages = new ArrayList<>();
        for (String pod : pods.keySet()) {
            usage(pod, from, to).ifPresent(usages::add);
        }
        return usages;
    }
}
