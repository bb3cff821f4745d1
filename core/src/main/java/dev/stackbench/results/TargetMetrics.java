package dev.stackbench.results;

import dev.stackbench.api.TargetSummary;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;

/**
 * Collects scrapes of the target during a run and summarises the measured window: peaks of gauges, and counters
 * (CPU time, GC pauses, CFS throttling) as the difference between the window's first and last scrape. It also keeps
 * each scrape's request counters for the {@link ServerSideCheck}, which reads them around the window's edges, so feed
 * it the scrapes before and after the window too.
 */
public final class TargetMetrics {

    private record Throttling(Instant at, long periods, long throttledPeriods) {}

    /** The instance name of scrapes added without one: a single target. */
    public static final String SINGLE_INSTANCE = "target";

    private final List<TargetSample> samples = new ArrayList<>();
    private final List<ServerRequests> serverRequests = new ArrayList<>();
    private final List<Throttling> throttling = new ArrayList<>();

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
        samples.add(sample);
        serverRequests.add(ServerRequests.of(at, instance, scrape));
        return sample;
    }

    public TargetSample add(Instant at, String instance, String prometheusText) {
        return add(at, instance, PrometheusTextParser.parse(prometheusText));
    }

    /**
     * Adds a reading of the target's CFS counters (cgroup cpu.stat nr_periods / nr_throttled, or cAdvisor's
     * container_cpu_cfs_periods_total / container_cpu_cfs_throttled_periods_total).
     */
    public synchronized void addThrottling(Instant at, long periods, long throttledPeriods) {
        throttling.add(new Throttling(at, periods, throttledPeriods));
    }

    public synchronized List<TargetSample> samples() {
        return List.copyOf(samples);
    }

    /** The request counters of every scrape, for {@link ServerSideCheck}. */
    public synchronized List<ServerRequests> serverRequests() {
        return List.copyOf(serverRequests);
    }

    /** Summary over every scrape. */
    public synchronized TargetSummary summary() {
        return summary(Instant.MIN, Instant.MAX);
    }

    /** Summary over the scrapes taken in [from, to], the measured window. */
    public synchronized TargetSummary summary(Instant from, Instant to) {
        List<TargetSample> window = samples.stream()
                .filter(sample -> !sample.at().isBefore(from) && !sample.at().isAfter(to))
                .toList();
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
        return summary;
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
