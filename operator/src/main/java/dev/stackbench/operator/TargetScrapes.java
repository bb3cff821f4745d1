package dev.stackbench.operator;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.results.ActuatorInfo;
import dev.stackbench.results.ServerSideCheck;
import dev.stackbench.results.TargetMetrics;
import dev.stackbench.results.TargetSample;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What this process scraped of one run's target, and what it adds up to over the measured window. The scraper's clock
 * and the reconciler both use it: its methods hold its lock, and a scrape of every target pod holds it throughout.
 */
final class TargetScrapes {

    /** Why the server-side check has no figures for a run without a scrape, before what the last failure said. */
    static final String NO_SCRAPE = "the operator has no scrape of the target's /actuator/prometheus for this run";

    private final TargetMetrics metrics = new TargetMetrics();

    /**
     * The delay-service pods' scrapes, of their machine's CPU ticks only: the backend node's steal. Kept apart, so
     * that none of the target's figures counts them.
     */
    private final TargetMetrics backend = new TargetMetrics();

    private boolean backendFailed;

    private int succeeded;
    private String lastError;
    private ActuatorInfo info;

    /**
     * The most scrapes kept of one target pod: an hour of scrapes every 2 s. A longer run is thinned evenly
     * ({@link TargetMetrics#thin}), so its scrapes take bounded memory however long it runs.
     */
    static final int MAX_SCRAPES_PER_POD = 1800;

    /** Around each edge of the measured window every scrape is kept: the figures are differences across the edges. */
    static final Duration EDGE = Duration.ofSeconds(30);

    synchronized void add(String pod, String prometheusText, Instant at) {
        add(pod, prometheusText, at, Optional.empty());
    }

    /**
     * Adds a scrape, and thins the scrapes kept when a pod has more than {@link #MAX_SCRAPES_PER_POD}, keeping those
     * within {@link #EDGE} of the edges of {@code window} (the load's, as far as the status says yet).
     */
    synchronized void add(String pod, String prometheusText, Instant at, Optional<MeasuredWindow> window) {
        metrics.add(at, pod, prometheusText);
        succeeded++;
        metrics.thin(MAX_SCRAPES_PER_POD, nearTheEdges(window));
    }

    /**
     * Adds a scrape of a delay-service pod, of which only the machine's CPU ticks are kept, thinned as the target's
     * scrapes are.
     */
    synchronized void addBackend(String pod, String prometheusText, Instant at, Optional<MeasuredWindow> window) {
        String ticks = prometheusText
                .lines()
                .filter(line -> line.startsWith(TargetSample.HOST_TICKS))
                .collect(java.util.stream.Collectors.joining("\n"));
        backend.add(at, pod, ticks);
        backend.thin(MAX_SCRAPES_PER_POD, nearTheEdges(window));
    }

    /** Whether this is the first scrape of a delay-service pod that failed (the log says so once per run). */
    synchronized boolean firstBackendFailure() {
        boolean first = !backendFailed;
        backendFailed = true;
        return first;
    }

    /** Whether a scrape lies within {@link #EDGE} of an edge of the window (none while it is unknown). */
    private static java.util.function.Predicate<Instant> nearTheEdges(Optional<MeasuredWindow> window) {
        return scraped -> window.map(w -> near(scraped, w.start()) || near(scraped, w.end()))
                .orElse(false);
    }

    private static boolean near(Instant at, Instant edge) {
        return Duration.between(edge, at).abs().compareTo(EDGE) <= 0;
    }

    /** A scrape that failed: the reason the figures give if no scrape succeeds. */
    synchronized void failed(String error) {
        lastError = error;
    }

    synchronized boolean hasVersions() {
        return info != null;
    }

    synchronized void setVersions(ActuatorInfo info) {
        this.info = info;
    }

    /** Takes up the scrapes of a journal; returns how many scrapes there are now. */
    synchronized int load(String journal) {
        succeeded += metrics.load(journal);
        return succeeded;
    }

    /** Takes up the delay-service pods' scrapes of a journal. */
    synchronized void loadBackend(String journal) {
        backend.load(journal);
    }

    /** The delay-service pods' scrapes as text. */
    synchronized String backendJournal() {
        return backend.journal(null, null);
    }

    /** The scrapes as text, with request histograms only within [bucketsFrom, bucketsTo] (null: all). */
    synchronized String journal(Instant bucketsFrom, Instant bucketsTo) {
        return metrics.journal(bucketsFrom, bucketsTo);
    }

    /**
     * The figures over the measured window of a load that started at {@code startedAt}, or over every scrape when the
     * start is unknown.
     */
    synchronized TargetMetricsScraper.Outcome outcome(BenchmarkRun run, String startedAt) {
        if (succeeded == 0) {
            return TargetMetricsScraper.Outcome.unavailable("target metrics unavailable: " + lastError);
        }
        Optional<MeasuredWindow> window = MeasuredWindow.of(run, startedAt);
        Instant from = window.map(MeasuredWindow::start).orElse(Instant.MIN);
        Instant to = window.map(MeasuredWindow::end).orElse(Instant.MAX);
        return new TargetMetricsScraper.Outcome(
                metrics.samples().isEmpty() ? Optional.empty() : Optional.of(metrics.summary(from, to)),
                metrics.perInstance(from, to),
                window.flatMap(w -> w.partialCoverage(metrics.covered(w.start(), w.end()))),
                Optional.ofNullable(info).map(ActuatorInfo::javaVersion),
                Optional.ofNullable(info).map(ActuatorInfo::springBootVersion),
                worst(metrics.hostSteal(from, to), backend.hostSteal(from, to)));
    }

    /** The higher of two shares, or the one there is. */
    private static Optional<Double> worst(Optional<Double> target, Optional<Double> backend) {
        return java.util.stream.Stream.of(target, backend)
                .flatMap(Optional::stream)
                .max(Double::compare);
    }

    /**
     * Compares the summary's client figures with the target's own request counters over the window and records the
     * result in summary.server; says why when it cannot.
     */
    synchronized void checkServerSide(RunSummary summary, Optional<MeasuredWindow> window) {
        if (succeeded == 0) {
            ServerSideCheck.unavailable(summary, NO_SCRAPE + (lastError == null ? "" : " (" + lastError + ")"));
        } else if (window.isEmpty()) {
            ServerSideCheck.unavailable(summary, "the run has no status.startedAt, so the measured window is unknown");
        } else {
            ServerSideCheck.addTo(
                    summary,
                    metrics.serverRequests(),
                    window.get().start(),
                    window.get().end());
        }
    }
}
