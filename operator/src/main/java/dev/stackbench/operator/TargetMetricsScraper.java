package dev.stackbench.operator;

import dev.stackbench.api.Durations;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.api.status.TargetSummary;
import dev.stackbench.operator.objects.DelayServiceDeployment;
import dev.stackbench.operator.objects.TargetDeployment;
import dev.stackbench.results.ActuatorInfo;
import dev.stackbench.results.ServerSideCheck;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

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
     * What the scrapes of a run add up to: the target as a whole, each target pod's own figures by pod name, a
     * warning when the figures are missing or cover only part of the measured window, and the share of their node's
     * CPU time the target pods' machines lost to their hypervisor (the most any of them lost).
     */
    public record Outcome(
            Optional<TargetSummary> summary,
            Map<String, TargetSummary> pods,
            Optional<String> warning,
            Optional<String> javaVersion,
            Optional<String> springBootVersion,
            Optional<Double> hostSteal) {

        static Outcome unavailable(String warning) {
            return new Outcome(
                    Optional.empty(),
                    Map.of(),
                    Optional.of(warning),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty());
        }
    }

    private final KubernetesClient client;
    private final ProxyPages pages;
    private final Map<String, TargetScrapes> runs = new ConcurrentHashMap<>();
    private final PeriodicScrapes periodic = new PeriodicScrapes();

    /** The CPU counters of the run's pods from their kubelets, read on the same clock. */
    private final PodCpuScraper podCpu;

    /** Where the scrapes outlive this process; null without a cluster (unit tests). */
    private final ScrapeJournal journal;

    /** When each run's journal was last written, by run uid. */
    private final Map<String, Instant> journaled = new ConcurrentHashMap<>();

    /** Each journaled run as it was at its latest scrape (its status places the window), by run uid. */
    private final Map<String, BenchmarkRun> journaledRuns = new ConcurrentHashMap<>();

    public TargetMetricsScraper(KubernetesClient client) {
        this.client = client;
        this.pages = client == null ? null : new ProxyPages(client);
        this.podCpu = client == null ? null : new PodCpuScraper(client);
        this.journal = client == null ? null : new ScrapeJournal(client);
    }

    /**
     * Scrapes the run's target pods every {@code interval} from now on, on a thread of its own, until
     * {@link #stopScraping} or {@link #forget}, the run's end or its timeout. Calling it again for a run that is
     * scraped already changes nothing.
     */
    public void scrapeEvery(BenchmarkRun run, Duration interval) {
        Instant deadline = Instant.now().plus(Durations.parse(run.getSpec().getTimeout()));
        String uid = run.getMetadata().getUid();
        periodic.start(uid, interval, () -> scrapeOnTheClock(run, deadline));
        // On a clock of their own: a delay service slow to answer delays none of the target's scrapes.
        periodic.start(
                backendClock(run), interval, () -> scrapeBackend(journaledRuns.getOrDefault(uid, run), Instant.now()));
    }

    private static String backendClock(BenchmarkRun run) {
        return run.getMetadata().getUid() + "/delay-service";
    }

    /** One tick of the clock: every target pod and the pods' CPU, unless the run is over. */
    private void scrapeOnTheClock(BenchmarkRun run, Instant deadline) {
        String uid = run.getMetadata().getUid();
        String namespace = run.getMetadata().getNamespace();
        String name = run.getMetadata().getName();
        try {
            BenchmarkRun current = client.resources(BenchmarkRun.class)
                    .inNamespace(namespace)
                    .withName(name)
                    .get();
            boolean over = current == null
                    || !uid.equals(current.getMetadata().getUid())
                    || (current.getStatus() != null
                            && current.getStatus().getPhase() != null
                            && current.getStatus().getPhase().isTerminal())
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
            // The run's spec with its status as it is now, which says where the measured window lies (thinning keeps
            // the scrapes at its edges).
            BenchmarkRun asNow = new BenchmarkRun();
            asNow.setMetadata(run.getMetadata());
            asNow.setSpec(run.getSpec());
            asNow.setStatus(current.getStatus());
            scrape(asNow, pods, Instant.now());
            if (podCpu != null) {
                podCpu.scrape(run, Instant.now(), false);
            }
            writeJournalEvery(current, ScrapeJournal.INTERVAL);
        } catch (RuntimeException e) {
            LOG.warn("run {}/{}: scraping the target failed: {}", namespace, name, e.toString());
        }
    }

    /** Ends the scrapes {@link #scrapeEvery} started for the run. */
    public void stopScraping(BenchmarkRun run) {
        periodic.stop(run.getMetadata().getUid());
        periodic.stop(backendClock(run));
    }

    /**
     * Writes the run's scrapes to its journal unless that was done less than {@code interval} ago. The request
     * histograms are kept for the scrapes within 30 s of the measured window's start (the server-side check reads
     * them there; the end is scraped after any restart) and for each pod's latest scrape.
     */
    void writeJournalEvery(BenchmarkRun run, Duration interval) {
        TargetScrapes scrapes = runs.get(run.getMetadata().getUid());
        if (journal == null || scrapes == null) {
            return;
        }
        journaledRuns.put(run.getMetadata().getUid(), run);
        Instant now = Instant.now();
        Instant last = journaled.get(run.getMetadata().getUid());
        if (last != null && Duration.between(last, now).compareTo(interval) < 0) {
            return;
        }
        journaled.put(run.getMetadata().getUid(), now);
        Optional<MeasuredWindow> window = MeasuredWindow.of(run, MeasuredWindow.loadStartedAt(run));
        Instant from = window.map(w -> w.start().minusSeconds(30)).orElse(null);
        Instant to = window.map(w -> w.start().plusSeconds(30)).orElse(null);
        String target = scrapes.journal(from, to);
        try {
            journal.save(run, target, podCpu == null ? "" : podCpu.journal(run), scrapes.backendJournal());
        } catch (RuntimeException e) {
            LOG.warn(
                    "run {}/{}: writing the scrape journal failed (a restart now would lose the scrapes so far): {}",
                    run.getMetadata().getNamespace(),
                    run.getMetadata().getName(),
                    e.toString());
        }
    }

    /**
     * Ends every run's scrapes (waiting up to {@code wait} for those under way) and writes each journal once more,
     * now: an operator that stops on purpose hands the next one all it scraped, not only what its last periodic write
     * held. The operator must have stopped reconciling first.
     */
    public void stopAndJournal(Duration wait) {
        try {
            periodic.stopAll(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        journaledRuns.forEach((uid, run) -> writeJournalEvery(run, Duration.ZERO));
    }

    /**
     * The run's scrapes in this process: on first use, those an earlier operator process journaled, so that a restart
     * in the middle of a run loses at most the scrapes of the last {@link ScrapeJournal#INTERVAL}.
     */
    private TargetScrapes scrapesOf(BenchmarkRun run) {
        return runs.computeIfAbsent(run.getMetadata().getUid(), uid -> {
            TargetScrapes scrapes = new TargetScrapes();
            if (journal != null) {
                journal.load(run).ifPresent(saved -> {
                    int scraped = scrapes.load(saved.target());
                    scrapes.loadBackend(saved.backend());
                    int readings = podCpu == null ? 0 : podCpu.restore(run, saved.cpu());
                    LOG.info(
                            "run {}/{}: took up {} target scrapes and {} CPU readings from the journal of an earlier"
                                    + " operator process",
                            run.getMetadata().getNamespace(),
                            run.getMetadata().getName(),
                            scraped,
                            readings);
                });
            }
            return scrapes;
        });
    }

    /** Scrapes every target pod once. */
    public void scrape(BenchmarkRun run, List<Pod> targetPods, Instant now) {
        TargetScrapes scrapes = scrapesOf(run);
        // The clock's thread and the reconciler both scrape: one at a time per run.
        synchronized (scrapes) {
            scrapeLocked(run, scrapes, targetPods, now);
        }
    }

    private void scrapeLocked(BenchmarkRun run, TargetScrapes scrapes, List<Pod> targetPods, Instant now) {
        Optional<MeasuredWindow> window = windowSoFar(run);
        if (targetPods.isEmpty()) {
            failed(run, scrapes, "the operator saw no target pod to scrape at " + now);
        }
        for (Pod pod : targetPods) {
            String name = pod.getMetadata().getName();
            try {
                String text = pages.get(
                        proxyPath(pod, TargetDeployment.MANAGEMENT_PORT, "prometheus"),
                        ProxyPages.PROMETHEUS_LIMIT,
                        "/actuator/prometheus of target pod " + name);
                scrapes.add(name, text, now, window);
                if (!scrapes.hasVersions()) {
                    String info = pages.get(
                            proxyPath(pod, TargetDeployment.MANAGEMENT_PORT, "info"),
                            ProxyPages.INFO_LIMIT,
                            "/actuator/info of target pod " + name);
                    scrapes.setVersions(ActuatorInfo.parse(info));
                }
            } catch (ProxyPages.Unreadable e) {
                failed(run, scrapes, e.getMessage() + " (the run's target figures from it are missing)");
            } catch (RuntimeException e) {
                failed(run, scrapes, "scraping target pod " + name + " failed: " + e.getMessage());
            }
        }
    }

    /**
     * Scrapes every delay-service pod of the run once, for its machine's CPU ticks (the backend node's steal), once the
     * run's target has been scraped (its scrapes, and any journal, are taken up there). A failure costs only that
     * figure: the run's steal is then its target nodes'.
     */
    public void scrapeBackend(BenchmarkRun run, Instant now) {
        TargetScrapes scrapes = runs.get(run.getMetadata().getUid());
        if (client == null || scrapes == null) {
            return;
        }
        String namespace = run.getMetadata().getNamespace();
        Optional<MeasuredWindow> window = windowSoFar(run);
        String what = "the delay-service pods";
        try {
            List<Pod> pods = client.pods()
                    .inNamespace(namespace)
                    .withLabels(RunLabels.selector(run, RunLabels.ROLE_DELAY_SERVICE))
                    .list()
                    .getItems();
            for (Pod pod : pods) {
                what = "delay-service pod " + pod.getMetadata().getName();
                String text = pages.get(
                        proxyPath(pod, DelayServiceDeployment.MANAGEMENT_PORT, "prometheus"),
                        ProxyPages.PROMETHEUS_LIMIT,
                        "/actuator/prometheus of " + what);
                scrapes.addBackend(pod.getMetadata().getName(), text, now, window);
            }
        } catch (RuntimeException e) {
            if (scrapes.firstBackendFailure()) {
                LOG.warn(
                        "run {}/{}: scraping {} failed (the backend node's steal counts only the scrapes that"
                                + " succeed; later failures of this run are logged at debug level): {}",
                        namespace,
                        run.getMetadata().getName(),
                        what,
                        e.getMessage());
            } else {
                LOG.debug(
                        "run {}/{}: scraping {} failed: {}",
                        namespace,
                        run.getMetadata().getName(),
                        what,
                        e.getMessage());
            }
        }
    }

    /** The measured window as the run's status places it so far; empty while it does not, or cannot. */
    private static Optional<MeasuredWindow> windowSoFar(BenchmarkRun run) {
        try {
            return MeasuredWindow.of(run, MeasuredWindow.loadStartedAt(run));
        } catch (RuntimeException e) {
            // a spec without the durations (not resolved yet): no window to keep whole
            return Optional.empty();
        }
    }

    private static void failed(BenchmarkRun run, TargetScrapes scrapes, String error) {
        scrapes.failed(error);
        LOG.warn(
                "run {}/{}: {}",
                run.getMetadata().getNamespace(),
                run.getMetadata().getName(),
                error);
    }

    /** The API server's proxy path to an Actuator endpoint on the pod's management port. */
    private static String proxyPath(Pod pod, int managementPort, String endpoint) {
        return "/api/v1/namespaces/" + pod.getMetadata().getNamespace() + "/pods/"
                + pod.getMetadata().getName() + ":" + managementPort + "/proxy/actuator/" + endpoint;
    }

    /** The outcome of the run's scrapes; the run's state is kept until {@link #forget}. */
    public Outcome finish(BenchmarkRun run, String startedAt) {
        TargetScrapes scrapes = runs.get(run.getMetadata().getUid());
        if (scrapes == null) {
            return Outcome.unavailable("target metrics unavailable: the operator made no scrape of"
                    + " /actuator/prometheus during the measured window (it may have restarted)");
        }
        return scrapes.outcome(run, startedAt);
    }

    /**
     * Compares the summary's client figures with the target's own request counters over the measured window and
     * records the result in summary.server; says why when it cannot.
     */
    public void checkServerSide(BenchmarkRun run, String startedAt, RunSummary summary) {
        TargetScrapes scrapes = runs.get(run.getMetadata().getUid());
        Optional<MeasuredWindow> window = MeasuredWindow.of(run, startedAt);
        if (scrapes == null) {
            ServerSideCheck.unavailable(summary, TargetScrapes.NO_SCRAPE);
        } else {
            scrapes.checkServerSide(summary, window);
        }
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
        journaledRuns.remove(run.getMetadata().getUid());
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
     * The run's scrapes and CPU readings as the scrape journal writes them (every histogram kept), for the results the
     * run keeps after cleanup: empty texts when there are none.
     */
    public Map<String, String> journalTexts(BenchmarkRun run) {
        TargetScrapes scrapes = runs.get(run.getMetadata().getUid());
        Map<String, String> texts = new java.util.LinkedHashMap<>();
        texts.put("target-scrapes.tsv", scrapes == null ? "" : scrapes.journal(null, null));
        texts.put("pod-cpu.txt", podCpu == null ? "" : podCpu.journal(run));
        texts.put("backend-scrapes.tsv", scrapes == null ? "" : scrapes.backendJournal());
        return texts;
    }

    /**
     * Each pod's CPU and throttling over the measured window, and why there are none when there are none (no
     * window, no permission to read the kubelets, too few readings).
     */
    public PodCpu podCpu(BenchmarkRun run, String startedAt) {
        Optional<MeasuredWindow> window = MeasuredWindow.of(run, startedAt);
        if (podCpu == null || window.isEmpty()) {
            return new PodCpu(
                    List.of(),
                    Optional.of(PodCpuScraper.UNAVAILABLE + "unavailable: the measured window is unknown"),
                    List.of());
        }
        List<dev.stackbench.api.status.PodResources> pods =
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
            List<dev.stackbench.api.status.PodResources> pods,
            Optional<String> unavailableReason,
            List<String> missing) {}
}
