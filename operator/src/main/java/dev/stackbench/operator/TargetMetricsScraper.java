package dev.stackbench.operator;

import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.Durations;
import dev.stackbench.api.RunSummary;
import dev.stackbench.api.TargetSummary;
import dev.stackbench.results.ActuatorInfo;
import dev.stackbench.results.ServerSideCheck;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
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

    /** What the scrapes of a run add up to. */
    public record Outcome(
            Optional<TargetSummary> summary,
            Optional<String> unavailableReason,
            Optional<String> javaVersion,
            Optional<String> springBootVersion) {}

    /** Turns timed Prometheus scrapes of one run into the target summary and the server-side check. */
    public interface MetricsSummarizer {
        /** One scrape of one target pod. */
        void add(String pod, String prometheusText, Instant at);

        /** The target figures of the scrapes taken in [from, to]; empty when there are none at all. */
        Optional<TargetSummary> summary(Instant from, Instant to);

        /** Sets summary.server from the scrapes around [from, to] and warns where they disagree with k6. */
        void checkServerSide(RunSummary summary, Instant from, Instant to);
    }

    private final KubernetesClient client;
    private final java.util.function.Supplier<MetricsSummarizer> summarizers;
    private final Map<String, RunScrapes> runs = new ConcurrentHashMap<>();

    public TargetMetricsScraper(KubernetesClient client, java.util.function.Supplier<MetricsSummarizer> summarizers) {
        this.client = client;
        this.summarizers = summarizers;
    }

    private static final class RunScrapes {
        final MetricsSummarizer summarizer;
        int succeeded;
        String lastError;
        ActuatorInfo info;

        RunScrapes(MetricsSummarizer summarizer) {
            this.summarizer = summarizer;
        }
    }

    /** Scrapes every target pod once. */
    public void scrape(BenchmarkRun run, List<Pod> targetPods, Instant now) {
        RunScrapes scrapes = runs.computeIfAbsent(run.getMetadata().getUid(), uid -> new RunScrapes(summarizers.get()));
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
                scrapes.summarizer.add(pod.getMetadata().getName(), text, now);
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
                    Optional.of("target metrics unavailable: the operator made no"
                            + " scrape of /actuator/prometheus during the measured window (it may have restarted)"),
                    Optional.empty(),
                    Optional.empty());
        }
        if (scrapes.succeeded == 0) {
            return new Outcome(
                    Optional.empty(),
                    Optional.of("target metrics unavailable: " + scrapes.lastError),
                    Optional.empty(),
                    Optional.empty());
        }
        Optional<Window> window = measuredWindow(run, startedAt);
        return new Outcome(
                window.isPresent()
                        ? scrapes.summarizer.summary(
                                window.get().start(), window.get().end())
                        : scrapes.summarizer.summary(Instant.MIN, Instant.MAX),
                Optional.empty(),
                Optional.ofNullable(scrapes.info).map(ActuatorInfo::javaVersion),
                Optional.ofNullable(scrapes.info).map(ActuatorInfo::springBootVersion));
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
            scrapes.summarizer.checkServerSide(
                    summary, window.get().start(), window.get().end());
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

    public void forget(BenchmarkRun run) {
        runs.remove(run.getMetadata().getUid());
    }
}
