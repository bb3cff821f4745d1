package dev.stackbench.operator;

import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.Durations;
import dev.stackbench.api.RunSummary;
import dev.stackbench.api.TargetSummary;
import dev.stackbench.operator.objects.TargetDeployment;
import dev.stackbench.results.ActuatorInfo;
import dev.stackbench.results.ServerSideCheck;
import dev.stackbench.results.TargetMetrics;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Reads the target's /actuator/prometheus while load runs, and once more when it has stopped, through the API server's
 * pod proxy (no network path from the operator to the pod is needed) and keeps what it saw per run, in memory: an
 * operator restarted mid-run reports the scrapes made after the restart only. The target summary covers the measured
 * window (status.startedAt + warmup, for the duration); the scrapes around it let the server-side check read the
 * target's request counters at the window's edges.
 */
public class TargetMetricsScraper {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(TargetMetricsScraper.class);

    /**
     * What the scrapes of a run add up to: the target as a whole, each target pod's own figures by pod name, and a
     * warning when the figures are missing or cover only part of the measured window.
     */
    public record Outcome(
            Optional<TargetSummary> summary,
            Map<String, TargetSummary> pods,
            Optional<String> warning,
            Optional<String> javaVersion,
            Optional<String> springBootVersion) {}

    private final KubernetesClient client;
    private final Map<String, RunScrapes> runs = new ConcurrentHashMap<>();

    /** Runs whose target is scraped on a clock, by run uid (see {@link #scrapeEvery}). */
    private final Map<String, ScheduledFuture<?>> periodic = new ConcurrentHashMap<>();

    private ScheduledExecutorService clock;

    /** The CPU counters of the run's pods from their kubelets, read on the same clock. */
    private final PodCpuScraper podCpu;

    /** Where the scrapes outlive this process; null without a cluster (unit tests). */
    private final ScrapeJournal journal;

    /** When each run's journal was last written, by run uid. */
    private final Map<String, Instant> journaled = new ConcurrentHashMap<>();

    public TargetMetricsScraper(KubernetesClient client) {
        this.client = client;
        this.podCpu = client == null ? null : new PodCpuScraper(client);
        this.journal = client == null ? null : new ScrapeJournal(client);
    }

    /**
     * Scrapes the run's target pods every {@code interval} from now on, on a thread of its own, until
     * {@link #stopScraping} or {@link #forget}, the run's end or its timeout. Scrapes that only came with reconciles
     * could miss the whole measured window when the operator was slow (a busy node, a fresh JVM): then the run had
     * no target figures at all. Calling it again for a run that is scraped already changes nothing.
     */
    public void scrapeEvery(BenchmarkRun run, Duration interval) {
        String uid = run.getMetadata().getUid();
        String namespace = run.getMetadata().getNamespace();
        String name = run.getMetadata().getName();
        Instant deadline = Instant.now().plus(Durations.parse(run.getSpec().getTimeout()));
        periodic.computeIfAbsent(uid, key -> clock().scheduleWithFixedDelay(
                        () -> {
                            try {
                                BenchmarkRun current = client.resources(BenchmarkRun.class)
                                        .inNamespace(namespace)
                                        .withName(name)
                                        .get();
                                boolean over = current == null
                                        || !uid.equals(current.getMetadata().getUid())
                                        || (current.getStatus() != null
                                                && current.getStatus().getPhase() != null
                                                && current.getStatus()
                                                        .getPhase()
                                                        .isTerminal())
                                        || Instant.now().isAfter(deadline);
                                if (over) {
                                    stopScraping(run);
                                    return;
                                }
                                List<Pod> pods = client.pods()
                                        .inNamespace(namespace)
                                        .withLabels(RunLabels.selector(run, RunLabels.ROLE_TARGET))
                                        .list()
                                        .getItems();
                                scrape(run, pods, Instant.now());
                                if (podCpu != null) {
                                    podCpu.scrape(run, Instant.now(), false);
                                }
                                writeJournalEvery(current, ScrapeJournal.INTERVAL);
                            } catch (RuntimeException e) {
                                LOG.warn("run {}/{}: scraping the target failed: {}", namespace, name, e.toString());
                            }
                        },
                        0,
                        interval.toMillis(),
                        TimeUnit.MILLISECONDS));
    }

    /** Ends the scrapes {@link #scrapeEvery} started for the run. */
    public void stopScraping(BenchmarkRun run) {
        ScheduledFuture<?> scrapes = periodic.remove(run.getMetadata().getUid());
        if (scrapes != null) {
            scrapes.cancel(false);
        }
    }

    private synchronized ScheduledExecutorService clock() {
        if (clock == null) {
            clock = Executors.newSingleThreadScheduledExecutor(task -> {
                Thread thread = new Thread(task, "stackbench-target-scraper");
                thread.setDaemon(true);
                return thread;
            });
        }
        return clock;
    }

    private static final class RunScrapes {
        final TargetMetrics metrics = new TargetMetrics();
        int succeeded;
        String lastError;
        ActuatorInfo info;
    }

    /**
     * Writes the run's scrapes to its journal unless that was done less than {@code interval} ago. The request
     * histograms are kept for the scrapes within 30 s of the measured window's start (the server-side check reads
     * them there; the end is scraped after any restart) and for each pod's latest scrape.
     */
    void writeJournalEvery(BenchmarkRun run, Duration interval) {
        RunScrapes scrapes = runs.get(run.getMetadata().getUid());
        if (journal == null || scrapes == null) {
            return;
        }
        Instant now = Instant.now();
        Instant last = journaled.get(run.getMetadata().getUid());
        if (last != null && Duration.between(last, now).compareTo(interval) < 0) {
            return;
        }
        journaled.put(run.getMetadata().getUid(), now);
        Optional<Window> window = measuredWindow(run, loadStartedAt(run));
        Instant from = window.map(w -> w.start().minusSeconds(30)).orElse(null);
        Instant to = window.map(w -> w.start().plusSeconds(30)).orElse(null);
        String target;
        synchronized (scrapes) {
            target = scrapes.metrics.journal(from, to);
        }
        try {
            journal.save(run, target, podCpu == null ? "" : podCpu.journal(run));
        } catch (RuntimeException e) {
            LOG.warn(
                    "run {}/{}: writing the scrape journal failed (a restart now would lose the scrapes so far): {}",
                    run.getMetadata().getNamespace(),
                    run.getMetadata().getName(),
                    e.toString());
        }
    }

    /**
     * When the load being scraped started, as the status says while it runs: status.startedAt, or for a sweep or a
     * capacity search, whose status.startedAt is the first step's, when the current step's runners started (its
     * LoadRunning condition turns True once per step).
     */
    static String loadStartedAt(BenchmarkRun run) {
        if (run.getStatus() == null) {
            return null;
        }
        boolean stepped = run.getSpec() != null
                && run.getSpec().getWorkload() != null
                && run.getSpec().getWorkload().isStepped();
        if (stepped) {
            Optional<String> stepStarted = dev.stackbench.api.Conditions.find(
                            run.getStatus().getConditions(), dev.stackbench.api.Conditions.LOAD_RUNNING)
                    .filter(c -> dev.stackbench.api.Conditions.TRUE.equals(c.getStatus()))
                    .map(io.fabric8.kubernetes.api.model.Condition::getLastTransitionTime);
            if (stepStarted.isPresent()) {
                return stepStarted.get();
            }
        }
        return run.getStatus().getStartedAt();
    }

    /**
     * The run's scrapes in this process: on first use, those an earlier operator process journaled, so that a restart
     * in the middle of a run loses at most the scrapes of the last {@link ScrapeJournal#INTERVAL}.
     */
    private RunScrapes scrapesOf(BenchmarkRun run) {
        return runs.computeIfAbsent(run.getMetadata().getUid(), uid -> {
            RunScrapes scrapes = new RunScrapes();
            if (journal != null) {
                journal.load(run).ifPresent(saved -> {
                    scrapes.succeeded += scrapes.metrics.load(saved.target());
                    int readings = podCpu == null ? 0 : podCpu.restore(run, saved.cpu());
                    LOG.info(
                            "run {}/{}: took up {} target scrapes and {} CPU readings from the journal of an earlier"
                                    + " operator process",
                            run.getMetadata().getNamespace(),
                            run.getMetadata().getName(),
                            scrapes.succeeded,
                            readings);
                });
            }
            return scrapes;
        });
    }

    /** Scrapes every target pod once. */
    public void scrape(BenchmarkRun run, List<Pod> targetPods, Instant now) {
        RunScrapes scrapes = scrapesOf(run);
        // The clock's thread and the reconciler both scrape: one at a time per run.
        synchronized (scrapes) {
            scrapeLocked(run, scrapes, targetPods, now);
        }
    }

    private void scrapeLocked(BenchmarkRun run, RunScrapes scrapes, List<Pod> targetPods, Instant now) {
        if (targetPods.isEmpty()) {
            scrapes.lastError = "the operator saw no target pod to scrape at " + now;
            LOG.warn(
                    "run {}/{}: {}",
                    run.getMetadata().getNamespace(),
                    run.getMetadata().getName(),
                    scrapes.lastError);
        }
        for (Pod pod : targetPods) {
            String path = proxyPath(pod, "prometheus");
            try {
                String text = client.raw(client.getMasterUrl().toString().replaceAll("/$", "") + path);
                if (text == null) {
                    scrapes.lastError = "the API server's pod proxy returned nothing for " + path;
                    LOG.warn(
                            "run {}/{}: {}",
                            run.getMetadata().getNamespace(),
                            run.getMetadata().getName(),
                            scrapes.lastError);
                    continue;
                }
                scrapes.metrics.add(now, pod.getMetadata().getName(), text);
                scrapes.succeeded++;
                if (scrapes.info == null) {
                    String info =
                            client.raw(client.getMasterUrl().toString().replaceAll("/$", "") + proxyPath(pod, "info"));
                    scrapes.info = info == null ? null : ActuatorInfo.parse(info);
                }
            } catch (RuntimeException e) {
                scrapes.lastError = "GET " + path + " failed: " + e.getMessage();
                LOG.warn(
                        "run {}/{}: {}",
                        run.getMetadata().getNamespace(),
                        run.getMetadata().getName(),
                        scrapes.lastError);
            }
        }
    }

    /** The API server's proxy path to an Actuator endpoint of the pod's management port. */
    private static String proxyPath(Pod pod, String endpoint) {
        return "/api/v1/namespaces/" + pod.getMetadata().getNamespace() + "/pods/"
                + pod.getMetadata().getName() + ":" + TargetDeployment.MANAGEMENT_PORT + "/proxy/actuator/" + endpoint;
    }

    /** The outcome of the run's scrapes; the run's state is kept until {@link #forget}. */
    public Outcome finish(BenchmarkRun run, String startedAt) {
        RunScrapes scrapes = runs.get(run.getMetadata().getUid());
        if (scrapes == null) {
            return new Outcome(
                    Optional.empty(),
                    Map.of(),
                    Optional.of("target metrics unavailable: the operator made no"
                            + " scrape of /actuator/prometheus during the measured window (it may have restarted)"),
                    Optional.empty(),
                    Optional.empty());
        }
        if (scrapes.succeeded == 0) {
            return new Outcome(
                    Optional.empty(),
                    Map.of(),
                    Optional.of("target metrics unavailable: " + scrapes.lastError),
                    Optional.empty(),
                    Optional.empty());
        }
        Optional<Window> window = measuredWindow(run, startedAt);
        Instant from = window.map(Window::start).orElse(Instant.MIN);
        Instant to = window.map(Window::end).orElse(Instant.MAX);
        synchronized (scrapes) {
            return new Outcome(
                    scrapes.metrics.samples().isEmpty()
                            ? Optional.empty()
                            : Optional.of(scrapes.metrics.summary(from, to)),
                    scrapes.metrics.perInstance(from, to),
                    window.flatMap(w -> partialCoverage(w, scrapes.metrics.covered(w.start(), w.end()))),
                    Optional.ofNullable(scrapes.info).map(ActuatorInfo::javaVersion),
                    Optional.ofNullable(scrapes.info).map(ActuatorInfo::springBootVersion));
        }
    }

    /**
     * A warning when the scrapes span less than 80 % of the measured window (two scrape intervals are lost at the
     * edges at most): the operator was not scraping for part of it, typically because it restarted, and the target
     * figures (CPU, GC, peaks) describe only the part it saw. The scrapes live in the operator's memory.
     */
    static Optional<String> partialCoverage(Window window, Duration covered) {
        Duration length = Duration.between(window.start(), window.end());
        if (length.isZero() || covered.toMillis() >= length.toMillis() * 0.8) {
            return Optional.empty();
        }
        return Optional.of(String.format(
                java.util.Locale.ROOT,
                "target metrics cover %.0f s of the %.0f s measured window: the operator did not scrape the target"
                        + " for the rest (it keeps scrapes in memory; a restart loses them), so the target's CPU, GC"
                        + " and peaks describe that part only",
                covered.toMillis() / 1000.0,
                length.toMillis() / 1000.0));
    }

    /**
     * Compares the summary's client figures with the target's own request counters over the measured window and
     * records the result in summary.server; says why when it cannot.
     */
    public void checkServerSide(BenchmarkRun run, String startedAt, RunSummary summary) {
        RunScrapes scrapes = runs.get(run.getMetadata().getUid());
        Optional<Window> window = measuredWindow(run, startedAt);
        if (scrapes == null || scrapes.succeeded == 0) {
            ServerSideCheck.unavailable(
                    summary,
                    "the operator has no scrape of the target's /actuator/prometheus for this run"
                            + (scrapes == null || scrapes.lastError == null ? "" : " (" + scrapes.lastError + ")"));
        } else if (window.isEmpty()) {
            ServerSideCheck.unavailable(summary, "the run has no status.startedAt, so the measured window is unknown");
        } else {
            synchronized (scrapes) {
                ServerSideCheck.addTo(
                        summary,
                        scrapes.metrics.serverRequests(),
                        window.get().start(),
                        window.get().end());
            }
        }
    }

    /**
     * The measured window: from when the load started (status.startedAt, taken from the runners' own clocks once
     * their summaries are read) plus the warmup, for the duration.
     */
    record Window(Instant start, Instant end) {}

    static Optional<Window> measuredWindow(BenchmarkRun run, String startedAt) {
        if (startedAt == null) {
            return Optional.empty();
        }
        Instant start = Instant.parse(startedAt)
                .plus(Durations.parse(run.getSpec().getWorkload().getWarmup()));
        return Optional.of(new Window(
                start, start.plus(Durations.parse(run.getSpec().getWorkload().getDuration()))));
    }

    /**
     * Drops what was scraped for the run so far, here and in its journal: the next step of a sweep or a capacity
     * search is measured from its own scrapes (its results of the step before are in the status already).
     */
    public void startOver(BenchmarkRun run) {
        forget(run);
        if (journal != null) {
            try {
                journal.delete(run);
            } catch (RuntimeException e) {
                LOG.warn(
                        "run {}/{}: deleting the scrape journal of the step before failed: {}",
                        run.getMetadata().getNamespace(),
                        run.getMetadata().getName(),
                        e.toString());
            }
        }
    }

    public void forget(BenchmarkRun run) {
        stopScraping(run);
        runs.remove(run.getMetadata().getUid());
        journaled.remove(run.getMetadata().getUid());
        if (podCpu != null) {
            podCpu.forget(run);
        }
    }

    /** Reads the pods' CPU counters once more, now: after the load, so the window's end has a reading after it. */
    public void scrapePodCpu(BenchmarkRun run, Instant now) {
        if (podCpu != null) {
            try {
                podCpu.scrape(run, now, true);
            } catch (RuntimeException e) {
                LOG.warn(
                        "run {}/{}: reading the pods' CPU counters failed: {}",
                        run.getMetadata().getNamespace(),
                        run.getMetadata().getName(),
                        e.toString());
            }
        }
    }

    /**
     * Each pod's CPU and throttling over the measured window, and why there are none when there are none (no
     * window, no permission to read the kubelets, too few readings).
     */
    public PodCpu podCpu(BenchmarkRun run, String startedAt) {
        Optional<Window> window = measuredWindow(run, startedAt);
        if (podCpu == null || window.isEmpty()) {
            return new PodCpu(
                    List.of(),
                    Optional.of(PodCpuScraper.UNAVAILABLE + "unavailable: the measured window is unknown"),
                    List.of());
        }
        List<dev.stackbench.api.PodResources> pods =
                podCpu.usage(run, window.get().start(), window.get().end());
        return new PodCpu(
                pods,
                pods.isEmpty()
                        ? podCpu.unavailableReason(
                                run, window.get().start(), window.get().end())
                        : Optional.empty(),
                podCpu.missing(run, window.get().start(), window.get().end()));
    }

    /**
     * @param unavailableReason why no pod has figures, when none has
     * @param missing for each pod seen without figures, why (see {@link PodCpuScraper#missing})
     */
    public record PodCpu(
            List<dev.stackbench.api.PodResources> pods, Optional<String> unavailableReason, List<String> missing) {}
}
