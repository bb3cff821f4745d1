package dev.stackbench.results;

import dev.stackbench.api.status.TargetSummary;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * Collects scrapes of the target during a run and summarises the measured window: peaks of gauges, and counters
 * (CPU time, GC pauses, CFS throttling) as the difference between the window's first and last scrape. It also keeps
 * each scrape's request counters for the {@link ServerSideCheck}, which reads them around the window's edges, so feed
 * it the scrapes before and after the window too.
 *
 * <p>Scrapes are kept per instance (pod): each counter difference is taken within one instance, never between two.
 * With several instances the target's figures combine them as the target as a whole had them: CPU cores, GC pauses
 * and their time add up; peaks of gauges (threads, heap, pool connections) are the highest sum of the instances'
 * values at one moment, each instance counted with its latest scrape at that moment.
 */
public final class TargetMetrics {

    private record Throttling(Instant at, long periods, long throttledPeriods) {}

    /** The instance name of scrapes added without one: a single target. */
    public static final String SINGLE_INSTANCE = "target";

    private record InstanceSample(String instance, TargetSample sample, ServerRequests requests) {}

    /**
     * A pool counts as at its peak at this share of the peak or more: a pool of 200 with 196 busy threads is as full
     * as one can tell from a scrape that lands between two requests.
     */
    static final double AT_PEAK = 0.95;

    private final List<InstanceSample> samples = new ArrayList<>();
    private final List<ServerRequests> serverRequests = new ArrayList<>();
    private final List<Throttling> throttling = new ArrayList<>();

    /** How many scrapes of each instance {@link #samples} holds, so {@link #thin} costs nothing under its bound. */
    private final Map<String, Integer> scrapesPerInstance = new java.util.HashMap<>();

    /** Adds one scrape of the single target instance, taken at {@code at}; returns its figures for plotting. */
    public TargetSample add(Instant at, PrometheusScrape scrape) {
        return add(at, SINGLE_INSTANCE, scrape);
    }

    public TargetSample add(Instant at, String prometheusText) {
        return add(at, PrometheusTextParser.parse(prometheusText));
    }

    /** Adds one scrape of one of several target instances (pods), taken at {@code at}. */
    public synchronized TargetSample add(Instant at, String instance, PrometheusScrape scrape) {
        TargetSample sample = TargetSample.of(at, scrape);
        ServerRequests requests = ServerRequests.of(at, instance, scrape);
        samples.add(new InstanceSample(instance, sample, requests));
        scrapesPerInstance.merge(instance, 1, Integer::sum);
        serverRequests.add(requests);
        return sample;
    }

    public TargetSample add(Instant at, String instance, String prometheusText) {
        return add(at, instance, PrometheusTextParser.parse(prometheusText));
    }

    /**
     * Every scrape as text, one line per scrape, so that they survive the process that took them ({@link #load}): the
     * figures of the summary and the request counter always; the request histogram only for scrapes within
     * {@code bucketsFrom}..{@code bucketsTo} and for each instance's latest scrape, because the server-side check reads
     * buckets at the window's edges only (which keeps the text small for long runs). Null bounds keep every histogram.
     */
    public synchronized String journal(Instant bucketsFrom, Instant bucketsTo) {
        Map<String, InstanceSample> latest = new LinkedHashMap<>();
        samples.forEach(entry -> latest.put(entry.instance(), entry));
        StringBuilder text = new StringBuilder();
        for (InstanceSample entry : samples) {
            TargetSample s = entry.sample();
            ServerRequests r = entry.requests();
            boolean buckets = latest.get(entry.instance()) == entry
                    || bucketsFrom == null
                    || bucketsTo == null
                    || (!s.at().isBefore(bucketsFrom) && !s.at().isAfter(bucketsTo));
            text.append(s.at().toEpochMilli()).append('\t').append(entry.instance());
            for (double value : new double[] {
                s.liveThreads(),
                s.heapUsedMiB(),
                s.cpuSecondsTotal(),
                s.cpuUsage(),
                s.availableCpus(),
                s.gcPauseSecondsTotal(),
                s.gcPauses(),
                s.dbPoolActive(),
                s.dbPoolPending()
            }) {
                text.append('\t').append(value);
            }
            text.append('\t').append(r != null && r.timerPresent());
            text.append('\t').append(r == null ? Double.NaN : r.completed());
            text.append('\t');
            if (r != null && buckets) {
                text.append('b');
                r.buckets()
                        .forEach((le, count) ->
                                text.append(' ').append(le).append('=').append(count));
            }
            // Added last, so a journal written before the pool gauge existed still loads; the machine's ticks after it.
            text.append('\t').append(s.poolThreads());
            text.append('\t').append(s.hostStealTicks());
            text.append('\t').append(s.hostTicks());
            text.append('\n');
        }
        return text.toString();
    }

    /**
     * Adds the scrapes of a {@link #journal}. A scrape whose histogram was left out of the journal still counts for
     * the figures and the request counter, but is not offered to the server-side check, which needs the histogram at
     * the scrapes it reads. Returns the number of scrapes loaded; a line that does not parse is skipped.
     */
    public synchronized int load(String journal) {
        int loaded = 0;
        for (String line : journal.split("\n")) {
            String[] f = line.split("\t", -1);
            if (f.length != 14 && f.length != 15 && f.length != 17) {
                continue;
            }
            try {
                Instant at = Instant.ofEpochMilli(Long.parseLong(f[0]));
                double[] v = new double[9];
                for (int i = 0; i < 9; i++) {
                    v[i] = Double.parseDouble(f[2 + i]);
                }
                double poolThreads = f.length >= 15 ? Double.parseDouble(f[14]) : Double.NaN;
                double hostStealTicks = f.length == 17 ? Double.parseDouble(f[15]) : Double.NaN;
                double hostTicks = f.length == 17 ? Double.parseDouble(f[16]) : Double.NaN;
                TargetSample sample = new TargetSample(
                        at,
                        v[0],
                        v[1],
                        v[2],
                        v[3],
                        v[4],
                        v[5],
                        v[6],
                        v[7],
                        v[8],
                        poolThreads,
                        hostStealTicks,
                        hostTicks);
                ServerRequests requests = null;
                if (f[13].startsWith("b")) {
                    java.util.TreeMap<Double, Double> buckets = new java.util.TreeMap<>();
                    for (String bucket : f[13].substring(1).trim().split(" ")) {
                        if (!bucket.isEmpty()) {
                            String[] pair = bucket.split("=");
                            buckets.put(Double.parseDouble(pair[0]), Double.parseDouble(pair[1]));
                        }
                    }
                    requests = new ServerRequests(
                            at, f[1], Boolean.parseBoolean(f[11]), Double.parseDouble(f[12]), buckets);
                    serverRequests.add(requests);
                }
                samples.add(new InstanceSample(f[1], sample, requests));
                scrapesPerInstance.merge(f[1], 1, Integer::sum);
                loaded++;
            } catch (RuntimeException e) {
                // a damaged line: the others still count
            }
        }
        samples.sort(java.util.Comparator.comparing(entry -> entry.sample().at()));
        serverRequests.sort(java.util.Comparator.comparing(ServerRequests::at));
        return loaded;
    }

    /**
     * Keeps at most about {@code maxPerInstance} scrapes of each instance, so that a long run's scrapes take bounded
     * memory: an instance with more loses every second scrape, evenly over the run, except its first and last and
     * those {@code keep} accepts (the scrapes around the measured window's edges, whose counters and request
     * histograms the figures are differences of). A scrape left out hands its gauges' peaks (threads, heap, pool
     * connections) to the next scrape kept of its instance, so the peaks survive. Returns how many were left out.
     */
    public synchronized int thin(int maxPerInstance, Predicate<Instant> keep) {
        if (scrapesPerInstance.values().stream().allMatch(count -> count <= maxPerInstance)) {
            return 0;
        }
        Map<String, List<Integer>> positions = new LinkedHashMap<>();
        for (int i = 0; i < samples.size(); i++) {
            positions
                    .computeIfAbsent(samples.get(i).instance(), k -> new ArrayList<>())
                    .add(i);
        }
        Set<InstanceSample> left = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (List<Integer> instance : positions.values()) {
            if (instance.size() <= maxPerInstance) {
                continue;
            }
            TargetSample peaks = null;
            boolean leaveOut = true;
            for (int n = 1; n < instance.size(); n++) {
                int at = instance.get(n);
                InstanceSample entry = samples.get(at);
                boolean last = n == instance.size() - 1;
                if (!last && !keep.test(entry.sample().at()) && leaveOut) {
                    left.add(entry);
                    peaks = peaks == null ? entry.sample() : withPeaks(entry.sample(), peaks);
                } else if (peaks != null) {
                    samples.set(
                            at,
                            new InstanceSample(entry.instance(), withPeaks(entry.sample(), peaks), entry.requests()));
                    peaks = null;
                }
                leaveOut = last || keep.test(entry.sample().at()) || !leaveOut;
            }
        }
        samples.removeIf(left::contains);
        Set<ServerRequests> leftRequests = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        left.forEach(entry -> leftRequests.add(entry.requests()));
        serverRequests.removeIf(leftRequests::contains);
        scrapesPerInstance.clear();
        samples.forEach(entry -> scrapesPerInstance.merge(entry.instance(), 1, Integer::sum));
        return left.size();
    }

    /** The scrape with each gauge at the higher of its own value and {@code other}'s; its counters stay its own. */
    private static TargetSample withPeaks(TargetSample sample, TargetSample other) {
        return new TargetSample(
                sample.at(),
                higher(sample.liveThreads(), other.liveThreads()),
                higher(sample.heapUsedMiB(), other.heapUsedMiB()),
                sample.cpuSecondsTotal(),
                sample.cpuUsage(),
                sample.availableCpus(),
                sample.gcPauseSecondsTotal(),
                sample.gcPauses(),
                higher(sample.dbPoolActive(), other.dbPoolActive()),
                higher(sample.dbPoolPending(), other.dbPoolPending()),
                higher(sample.poolThreads(), other.poolThreads()),
                sample.hostStealTicks(),
                sample.hostTicks());
    }

    private static double higher(double a, double b) {
        return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.max(a, b);
    }

    /**
     * Adds a reading of the target's CFS counters (cgroup cpu.stat nr_periods / nr_throttled, or cAdvisor's
     * container_cpu_cfs_periods_total / container_cpu_cfs_throttled_periods_total).
     */
    public synchronized void addThrottling(Instant at, long periods, long throttledPeriods) {
        throttling.add(new Throttling(at, periods, throttledPeriods));
    }

    public synchronized List<TargetSample> samples() {
        return samples.stream().map(InstanceSample::sample).toList();
    }

    /** The request counters of every scrape, for {@link ServerSideCheck}. */
    public synchronized List<ServerRequests> serverRequests() {
        return List.copyOf(serverRequests);
    }

    /** Summary over every scrape. */
    public synchronized TargetSummary summary() {
        return summary(Instant.MIN, Instant.MAX);
    }

    /** Summary over the scrapes taken in [from, to], the measured window: the instances combined. */
    public synchronized TargetSummary summary(Instant from, Instant to) {
        Map<String, List<TargetSample>> byInstance = windowByInstance(from, to);
        if (byInstance.size() <= 1) {
            TargetSummary summary = byInstance.isEmpty()
                    ? new TargetSummary().withSamples(0)
                    : instanceSummary(byInstance.values().iterator().next());
            addThrottling(summary, from, to);
            return summary;
        }
        List<TargetSummary> instances =
                byInstance.values().stream().map(TargetMetrics::instanceSummary).toList();
        TargetSummary summary = new TargetSummary()
                .withSamples(
                        instances.stream().mapToInt(TargetSummary::getSamples).sum());
        peakOfSum(byInstance, TargetSample::liveThreads)
                .ifPresent(peak -> summary.setPeakThreads((int) Math.round(peak)));
        peakOfSum(byInstance, TargetSample::heapUsedMiB).ifPresent(peak -> summary.setPeakHeapMiB(round(peak, 1)));
        peakOfSum(byInstance, TargetSample::dbPoolActive).ifPresent(summary::setPeakDbPoolActive);
        peakOfSum(byInstance, TargetSample::dbPoolPending).ifPresent(summary::setPeakDbPoolPending);
        peakOfSum(byInstance, TargetSample::poolThreads)
                .ifPresent(peak -> summary.setPeakPoolThreads((int) Math.round(peak)));
        summary.setPoolAtPeakShare(sampleWeighted(instances, TargetSummary::getPoolAtPeakShare));
        summary.setDbPoolPendingShare(sampleWeighted(instances, TargetSummary::getDbPoolPendingShare));
        if (instances.stream().allMatch(i -> i.getAvgCpuCores() != null)) {
            summary.setAvgCpuCores(round(
                    instances.stream()
                            .mapToDouble(TargetSummary::getAvgCpuCores)
                            .sum(),
                    3));
        }
        if (instances.stream().allMatch(i -> i.getGcPauseMs() != null)) {
            summary.setGcPauseMs(round(
                    instances.stream().mapToDouble(TargetSummary::getGcPauseMs).sum(), 1));
            summary.setGcPauses(
                    instances.stream().mapToLong(TargetSummary::getGcPauses).sum());
        }
        addThrottling(summary, from, to);
        return summary;
    }

    /**
     * The share (0..1) of the CPU time of the target's machine that its hypervisor took over [from, to]: per instance
     * the difference of its steal ticks over the difference of all its ticks between its first and last scrape in the
     * window, the highest over the instances (the replica whose node lost most); empty when no instance has two such
     * scrapes (a target that does not publish the machine's ticks).
     */
    public synchronized Optional<Double> hostSteal(Instant from, Instant to) {
        OptionalDouble worst = windowByInstance(from, to).values().stream()
                .map(window -> window.stream()
                        .filter(s -> !Double.isNaN(s.hostStealTicks()) && !Double.isNaN(s.hostTicks()))
                        .toList())
                .filter(window -> window.size() >= 2)
                .mapToDouble(window -> {
                    TargetSample first = window.getFirst();
                    TargetSample last = window.getLast();
                    double all = last.hostTicks() - first.hostTicks();
                    return all > 0 ? Math.max(0, last.hostStealTicks() - first.hostStealTicks()) / all : Double.NaN;
                })
                .filter(share -> !Double.isNaN(share))
                .max();
        return worst.isPresent() ? Optional.of(Math.min(1, worst.getAsDouble())) : Optional.empty();
    }

    /**
     * How much of [from, to] the scrapes span: from the first to the last scrape taken in it, over all instances.
     * A scraper that started late (an operator restarted in the window) or stopped early covers less than the window,
     * and the figures describe only that part.
     */
    public synchronized Duration covered(Instant from, Instant to) {
        List<Instant> inWindow = samples.stream()
                .map(entry -> entry.sample().at())
                .filter(at -> !at.isBefore(from) && !at.isAfter(to))
                .sorted()
                .toList();
        return inWindow.size() < 2 ? Duration.ZERO : Duration.between(inWindow.getFirst(), inWindow.getLast());
    }

    /** Each instance's own figures over [from, to], by instance name, in the order they were first scraped. */
    public synchronized Map<String, TargetSummary> perInstance(Instant from, Instant to) {
        Map<String, TargetSummary> result = new LinkedHashMap<>();
        windowByInstance(from, to).forEach((instance, window) -> result.put(instance, instanceSummary(window)));
        return result;
    }

    private Map<String, List<TargetSample>> windowByInstance(Instant from, Instant to) {
        Map<String, List<TargetSample>> byInstance = new LinkedHashMap<>();
        for (InstanceSample entry : samples) {
            TargetSample sample = entry.sample();
            if (!sample.at().isBefore(from) && !sample.at().isAfter(to)) {
                byInstance
                        .computeIfAbsent(entry.instance(), i -> new ArrayList<>())
                        .add(sample);
            }
        }
        return byInstance;
    }

    /** One instance's figures: peaks, and counters as differences between its own first and last scrape. */
    private static TargetSummary instanceSummary(List<TargetSample> window) {
        TargetSummary summary = new TargetSummary().withSamples(window.size());
        if (window.isEmpty()) {
            return summary;
        }
        TargetSample first = window.get(0);
        TargetSample last = window.get(window.size() - 1);
        double seconds = Duration.between(first.at(), last.at()).toNanos() / 1e9;

        max(window, TargetSample::liveThreads).ifPresent(peak -> summary.setPeakThreads((int) Math.round(peak)));
        max(window, TargetSample::heapUsedMiB).ifPresent(peak -> summary.setPeakHeapMiB(round(peak, 1)));
        max(window, TargetSample::dbPoolActive).ifPresent(summary::setPeakDbPoolActive);
        max(window, TargetSample::dbPoolPending).ifPresent(summary::setPeakDbPoolPending);
        max(window, TargetSample::poolThreads).ifPresent(peak -> summary.setPeakPoolThreads((int) Math.round(peak)));
        max(window, TargetSample::poolThreads)
                .ifPresent(peak -> summary.setPoolAtPeakShare(
                        share(window, TargetSample::poolThreads, value -> value >= AT_PEAK * peak)));
        if (max(window, TargetSample::dbPoolPending).isPresent()) {
            summary.setDbPoolPendingShare(share(window, TargetSample::dbPoolPending, value -> value > 0));
        }

        if (seconds > 0 && !Double.isNaN(first.cpuSecondsTotal()) && !Double.isNaN(last.cpuSecondsTotal())) {
            summary.setAvgCpuCores(round((last.cpuSecondsTotal() - first.cpuSecondsTotal()) / seconds, 3));
        } else {
            // process_cpu_usage is a share of all CPUs the JVM sees; times that count gives cores in use.
            OptionalDouble cores = window.stream()
                    .filter(sample -> !Double.isNaN(sample.cpuUsage()) && !Double.isNaN(sample.availableCpus()))
                    .mapToDouble(sample -> sample.cpuUsage() * sample.availableCpus())
                    .average();
            cores.ifPresent(value -> summary.setAvgCpuCores(round(value, 3)));
        }
        if (window.size() > 1
                && !Double.isNaN(first.gcPauseSecondsTotal())
                && !Double.isNaN(last.gcPauseSecondsTotal())) {
            summary.setGcPauseMs(round((last.gcPauseSecondsTotal() - first.gcPauseSecondsTotal()) * 1000, 1));
            summary.setGcPauses(Math.round(last.gcPauses() - first.gcPauses()));
        }
        return summary;
    }

    /**
     * The highest sum over instances of a gauge at one moment: at each scrape time, every instance counts with its
     * latest scrape at or before it (an instance not scraped yet counts nothing).
     */
    private static OptionalDouble peakOfSum(
            Map<String, List<TargetSample>> byInstance, ToDoubleFunction<TargetSample> field) {
        List<Instant> moments = byInstance.values().stream()
                .flatMap(List::stream)
                .map(TargetSample::at)
                .distinct()
                .sorted()
                .toList();
        OptionalDouble peak = OptionalDouble.empty();
        for (Instant moment : moments) {
            double sum = 0;
            boolean any = false;
            for (List<TargetSample> window : byInstance.values()) {
                TargetSample latest = null;
                for (TargetSample sample : window) {
                    if (!sample.at().isAfter(moment)) {
                        latest = sample;
                    }
                }
                if (latest != null && !Double.isNaN(field.applyAsDouble(latest))) {
                    sum += field.applyAsDouble(latest);
                    any = true;
                }
            }
            if (any && (peak.isEmpty() || sum > peak.getAsDouble())) {
                peak = OptionalDouble.of(sum);
            }
        }
        return peak;
    }

    private void addThrottling(TargetSummary summary, Instant from, Instant to) {
        List<Throttling> throttled = throttling.stream()
                .filter(reading -> !reading.at().isBefore(from) && !reading.at().isAfter(to))
                .toList();
        if (throttled.size() > 1) {
            Throttling start = throttled.get(0);
            Throttling end = throttled.get(throttled.size() - 1);
            long periods = end.periods() - start.periods();
            if (periods > 0) {
                summary.setCpuThrottledRatio(
                        round((end.throttledPeriods() - start.throttledPeriods()) / (double) periods, 4));
            }
        }
    }

    /**
     * The share of the scrapes, among those that have the gauge, whose value passes {@code test}; a figure read at one
     * moment says little, the share of the window it held says whether it held for most of the window.
     */
    private static double share(
            List<TargetSample> window, ToDoubleFunction<TargetSample> field, java.util.function.DoublePredicate test) {
        double[] values = window.stream()
                .mapToDouble(field)
                .filter(value -> !Double.isNaN(value))
                .toArray();
        long passing = java.util.Arrays.stream(values).filter(test).count();
        return values.length == 0 ? Double.NaN : round(passing / (double) values.length, 3);
    }

    /** The instances' shares weighted by their scrapes; null when no instance has the share. */
    private static Double sampleWeighted(
            List<TargetSummary> instances, java.util.function.Function<TargetSummary, Double> field) {
        double weighted = 0;
        int samples = 0;
        for (TargetSummary instance : instances) {
            Double value = field.apply(instance);
            if (value != null && !value.isNaN()) {
                weighted += value * instance.getSamples();
                samples += instance.getSamples();
            }
        }
        return samples == 0 ? null : round(weighted / samples, 3);
    }

    private static OptionalDouble max(List<TargetSample> window, ToDoubleFunction<TargetSample> field) {
        return window.stream()
                .mapToDouble(field)
                .filter(value -> !Double.isNaN(value))
                .max();
    }

    static double round(double value, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }
}
