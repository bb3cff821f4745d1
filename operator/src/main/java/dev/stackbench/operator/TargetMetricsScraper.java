package dev.stackbench.operator;

import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.TargetSummary;
import dev.stackbench.results.ActuatorInfo;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads the target's /actuator/prometheus during the measured window through the API server's pod proxy (no network
 * path from the operator to the pod is needed) and keeps what it saw per run, in memory: an operator restarted
 * mid-run reports the scrapes made after the restart only.
 */
public class TargetMetricsScraper {

    /** What the scrapes of a run add up to. */
    public record Outcome(
            Optional<TargetSummary> summary,
            Optional<String> unavailableReason,
            Optional<String> javaVersion,
            Optional<String> springBootVersion) {}

    /** Turns timed Prometheus scrapes of one run into the target summary. */
    public interface MetricsSummarizer {
        void add(String prometheusText, Instant at);

        Optional<TargetSummary> summary();
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
        for (Pod pod : targetPods) {
            String path = proxyPath(pod, "prometheus");
            try {
                String text = client.raw(client.getMasterUrl().toString().replaceAll("/$", "") + path);
                if (text == null) {
                    scrapes.lastError = "the API server's pod proxy returned nothing for " + path;
                    continue;
                }
                scrapes.summarizer.add(text, now);
                scrapes.succeeded++;
                if (scrapes.info == null) {
                    String info =
                            client.raw(client.getMasterUrl().toString().replaceAll("/$", "") + proxyPath(pod, "info"));
                    scrapes.info = info == null ? null : ActuatorInfo.parse(info);
                }
            } catch (RuntimeException e) {
                scrapes.lastError = "GET " + path + " failed: " + e.getMessage();
            }
        }
    }

    /** The API server's proxy path to an Actuator endpoint of the pod's management port. */
    private static String proxyPath(Pod pod, String endpoint) {
        return "/api/v1/namespaces/" + pod.getMetadata().getNamespace() + "/pods/"
                + pod.getMetadata().getName() + ":" + TargetDeployment.MANAGEMENT_PORT + "/proxy/actuator/" + endpoint;
    }

    /** The outcome of the run's scrapes; the run's state is kept until {@link #forget}. */
    public Outcome finish(BenchmarkRun run) {
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
        return new Outcome(
                scrapes.summarizer.summary(),
                Optional.empty(),
                Optional.ofNullable(scrapes.info).map(ActuatorInfo::javaVersion),
                Optional.ofNullable(scrapes.info).map(ActuatorInfo::springBootVersion));
    }

    public void forget(BenchmarkRun run) {
        runs.remove(run.getMetadata().getUid());
    }
}
