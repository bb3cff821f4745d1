package dev.stackbench.local;

import dev.stackbench.report.RequestTimeline;
import dev.stackbench.results.TimedScrape;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What local mode observed during the measured window of one run, beside the k6 summary.
 *
 * @param k6ExitCode 0, or 99 when a threshold failed, or another k6 error code
 * @param measure per-second requests of the measured scenario, from k6's per-request output
 * @param ticks the once-a-second samples (CPU from /proc, Prometheus scrape) inside the measured window
 * @param poolThreads size of the variant's request thread pool as configured for this run
 * @param runScrapes every answered scrape of the run, warmup and the one after the load included: the server-side
 *     check reads the target's request counters in the scrapes just before and just after the window's edges
 */
public record RunObservation(
        int k6ExitCode,
        RequestTimeline measure,
        List<MetricsSampler.Tick> ticks,
        Instant windowStart,
        Instant windowEnd,
        int poolThreads,
        List<TimedScrape> runScrapes) {

    public RunObservation {
        ticks = List.copyOf(ticks);
        runScrapes = List.copyOf(runScrapes);
    }

    /** The Prometheus texts scraped inside the window, in order (failed scrapes left out). */
    public List<MetricsSampler.Tick> scrapes() {
        return ticks.stream().filter(tick -> tick.scrape() != null).toList();
    }

    /** The average busy share of the CPUs k6 ran on during the window, or NaN when it was not measured. */
    public double averageGeneratorCpusBusy() {
        return averageBusy(MetricsSampler.Tick::generatorCpusBusy);
    }

    /** The average busy share of the CPUs the target ran on during the window, by every process; NaN if not measured. */
    public double averageTargetCpusBusy() {
        return averageBusy(MetricsSampler.Tick::targetCpusBusy);
    }

    /**
     * The share of the machine's CPU time its hypervisor took during the window (the ticks' steal, each over about a
     * second); empty when it was not measured.
     */
    public java.util.Optional<Double> hostSteal() {
        double share = averageBusy(MetricsSampler.Tick::hostSteal);
        return Double.isNaN(share) ? java.util.Optional.empty() : java.util.Optional.of(share);
    }

    private double averageBusy(java.util.function.ToDoubleFunction<MetricsSampler.Tick> share) {
        return ticks.stream()
                .mapToDouble(share)
                .filter(busy -> !Double.isNaN(busy))
                .average()
                .orElse(Double.NaN);
    }

    public double averageTargetCores() {
        return ticks.stream()
                .mapToDouble(MetricsSampler.Tick::targetCores)
                .average()
                .orElse(Double.NaN);
    }

    public double averageLoadGeneratorCores() {
        return ticks.stream()
                .mapToDouble(MetricsSampler.Tick::loadGeneratorCores)
                .average()
                .orElse(0);
    }

    public double secondsIntoWindow(Instant at) {
        return Duration.between(windowStart, at).toMillis() / 1000.0;
    }
}
