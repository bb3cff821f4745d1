package dev.stackbench.local;

import dev.stackbench.k6.K6Env;
import dev.stackbench.k6.K6Script;
import dev.stackbench.k6.K6SummaryParser;
import dev.stackbench.report.LatencyPercentile;
import dev.stackbench.report.RequestTimeline;
import dev.stackbench.results.ScrapeLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The measured window of one load as k6 saw it, with the target samples inside it, written beside the k6 summary as
 * the scrapes journal, timeline.csv and metrics.csv.
 */
final class WindowRecorder {

    /**
     * A load k6 has finished sending.
     *
     * @param started when k6 was told to start
     * @param measure the measure scenario's counts per second
     * @param warmup the warmup scenario's counts per second (empty without a warmup)
     * @param sampler the target samples of the whole load, and the one after it
     */
    record FinishedLoad(
            int exitCode, Instant started, RequestTimeline measure, RequestTimeline warmup, MetricsSampler sampler) {}

    private WindowRecorder() {}

    /** The measured window and the target samples inside it, with its files written into {@code files}. */
    static RunObservation observe(ResultsLayout.RunFiles files, K6Script script, FinishedLoad load, int poolThreads)
            throws IOException {
        RequestTimeline measure = load.measure();
        Instant windowStart;
        Instant windowEnd;
        Optional<Instant> measuredFrom = measuredWindowStart(files.k6Summary());
        if (measuredFrom.isPresent()) {
            // k6 says when its scenarios started, so the window is exact whatever the latency.
            windowStart = measuredFrom.get();
            windowEnd = windowStart.plus(script.measured());
        } else if (measure.isEmpty()) {
            windowStart = load.started().plus(script.warmup());
            windowEnd = Instant.now();
        } else {
            // k6 stamps a request when it completes: an estimate that starts late when responses are slow.
            windowStart = Instant.ofEpochSecond(measure.firstEpochSecond());
            windowEnd = Instant.ofEpochSecond(
                    measure.firstEpochSecond() + measure.points().size());
        }
        MetricsSampler sampler = load.sampler();
        List<MetricsSampler.Tick> ticks = sampler.ticks();
        ScrapeLog.write(files.scrapes(), sampler.scrapes());
        List<MetricsSampler.Tick> inWindow = ticks.stream()
                .filter(tick -> !tick.at().isBefore(windowStart) && !tick.at().isAfter(windowEnd))
                .toList();
        RunObservation observation = new RunObservation(
                load.exitCode(), measure, inWindow, windowStart, windowEnd, poolThreads, sampler.scrapes());
        writeTimeline(files.timeline(), measure, 0, false);
        RequestTimeline warmup = load.warmup();
        if (!warmup.isEmpty()) {
            writeTimeline(
                    files.warmupTimeline(), warmup, warmup.firstEpochSecond() - windowStart.getEpochSecond(), true);
        }
        writePercentiles(files.latencyPercentiles(), measure);
        RequestNameTotals.read(files.k6PerSecond(), K6Env.MEASURE_SCENARIO).write(files.requestsByName());
        writeMetrics(files.metrics(), observation);
        return observation;
    }

    /** Where k6's summary puts the measured window, if it says when the load started. */
    private static Optional<Instant> measuredWindowStart(Path k6Summary) {
        try {
            return K6SummaryParser.parseFile(k6Summary).measuredWindowStart();
        } catch (RuntimeException e) {
            // An unreadable summary fails the run when it is collected, with the reason.
            return Optional.empty();
        }
    }

    /**
     * @param offset added to each point's second: for the warmup, to count its seconds back from the measured window
     * @param beforeWindowOnly leave out the points from the window's start on: for the warmup, k6's counts of the
     *     whole test less the measure scenario's, which are not warmup requests once the window started
     */
    static void writeTimeline(Path file, RequestTimeline timeline, long offset, boolean beforeWindowOnly)
            throws IOException {
        StringBuilder csv = new StringBuilder("second,requests,failed,dropped,p50_ms,p95_ms,p99_ms\n");
        for (RequestTimeline.Point point : timeline.points()) {
            if (beforeWindowOnly && point.second() + offset >= 0) {
                break;
            }
            csv.append(String.format(
                    Locale.ROOT,
                    "%d,%d,%d,%d,%.3f,%.3f,%.3f%n",
                    point.second() + offset,
                    point.requests(),
                    point.failed(),
                    point.dropped(),
                    point.p50Ms(),
                    point.p95Ms(),
                    point.p99Ms()));
        }
        Files.writeString(file, csv);
    }

    /** The report's percentile spectrum, which the per-second CSV cannot give (percentiles do not add up). */
    static void writePercentiles(Path file, RequestTimeline timeline) throws IOException {
        StringBuilder csv = new StringBuilder("percentile,latency_ms\n");
        for (LatencyPercentile point : timeline.percentileSpectrum()) {
            csv.append(String.format(Locale.ROOT, "%s,%.3f%n", point.percentile(), point.latencyMs()));
        }
        Files.writeString(file, csv);
    }

    private static void writeMetrics(Path file, RunObservation observation) throws IOException {
        StringBuilder csv =
                new StringBuilder("second,target_cpu_cores,k6_cpu_cores,live_threads,k6_cpus_busy,host_steal\n");
        for (MetricsSampler.Tick tick : observation.ticks()) {
            String threads = tick.liveThreads()
                    .map(value -> String.format(Locale.ROOT, "%.0f", value))
                    .orElse("");
            csv.append(String.format(
                    Locale.ROOT,
                    "%.1f,%.3f,%.3f,%s,%s,%s%n",
                    observation.secondsIntoWindow(tick.at()),
                    tick.targetCores(),
                    tick.loadGeneratorCores(),
                    threads,
                    share(tick.generatorCpusBusy()),
                    share(tick.hostSteal())));
        }
        Files.writeString(file, csv);
    }

    private static String share(double share) {
        return Double.isNaN(share) ? "" : String.format(Locale.ROOT, "%.3f", share);
    }
}
