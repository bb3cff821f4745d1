package dev.stackbench.operator;

import dev.stackbench.api.Quantities;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.PodResources;
import dev.stackbench.results.PodCpuCounters;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads the CPU counters of a run's pods (target, delay service, k6 runners) from the kubelet of each node they run on,
 * through the API server's node proxy ({@code /api/v1/nodes/NODE/proxy/metrics/cadvisor}; the operator needs {@code
 * get} on {@code nodes/proxy}), while load runs, and turns them into each pod's CPU use and CFS throttling over the
 * measured window. Kept in memory per run: an operator restarted mid-run has the readings made after the restart.
 */
public class PodCpuScraper {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(PodCpuScraper.class);

    /**
     * The kubelet refreshes its counters on its housekeeping interval (10-20 s by default, 2-4 s on the nodes
     * hack/cluster.sh starts): asking much more often than this only costs.
     */
    static final Duration INTERVAL = Duration.ofSeconds(4);

    /** The role a k6 runner pod has in a run's pod figures. */
    public static final String ROLE_RUNNER = "runner";

    /** The start of the warning that no pod of a run has CPU figures. */
    public static final String UNAVAILABLE = "pod CPU ";

    static final Duration RETRY_AFTER = Duration.ofSeconds(8);
    static final int MAX_FAILURES = 3;

    private record PodFacts(String role, String node, Double cpuLimitCores) {}

    private static final class RunCpu {
        final PodCpuCounters counters = new PodCpuCounters();
        final Map<String, PodFacts> pods = new LinkedHashMap<>();
        Instant last = Instant.MIN;
        /**
         * Failed reads per node, and when the node may be asked again: a kubelet busy for a moment gets another
         * chance after {@link #RETRY_AFTER}, one that failed {@link #MAX_FAILURES} times is not asked again for this
         * run (each try may wait long).
         */
        final Map<String, Integer> failures = new java.util.HashMap<>();

        final Map<String, Instant> retryAt = new java.util.HashMap<>();

        /** Successful reads per node, and the last error per node. */
        final Map<String, Integer> readsByNode = new java.util.HashMap<>();

        final Map<String, String> errorByNode = new java.util.HashMap<>();

        int scrapes;
        String lastError;
    }

    private final KubernetesClient client;
    private final ProxyPages pages;
    private final Map<String, RunCpu> runs = new ConcurrentHashMap<>();

    /** @param pages how the kubelets' pages are read: with a byte and a time limit */
    public PodCpuScraper(KubernetesClient client, ProxyPages pages) {
        this.client = client;
        this.pages = pages;
    }

    /**
     * Reads the counters of the run's pods from their nodes' kubelets, unless that was done less than {@link
     * #INTERVAL} ago; {@code force} reads them anyway (once the load has stopped, so the window's end has a reading
     * after it).
     */
    public void scrape(BenchmarkRun run, Instant now, boolean force) {
        RunCpu cpu = runs.computeIfAbsent(run.getMetadata().getUid(), uid -> new RunCpu());
        synchronized (cpu) {
            if (!force && Duration.between(cpu.last, now).compareTo(INTERVAL) < 0) {
                return;
            }
            cpu.last = now;
            String namespace = run.getMetadata().getNamespace();
            List<Pod> pods = new ArrayList<>(client.pods()
                    .inNamespace(namespace)
                    .withLabel(RunLabels.RUN, run.getMetadata().getName())
                    .list()
                    .getItems());
            pods.addAll(client.pods()
                    .inNamespace(namespace)
                    .withLabels(RunLabels.runnerPods(RunLabels.testRunName(run)))
                    .list()
                    .getItems());
            Map<String, List<PodCpuCounters.PodRef>> podsByNode = new LinkedHashMap<>();
            for (Pod pod : pods) {
                String role = role(pod);
                String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
                if (role == null || node == null) {
                    continue;
                }
                cpu.pods.putIfAbsent(pod.getMetadata().getName(), new PodFacts(role, node, cpuLimit(pod)));
                podsByNode.computeIfAbsent(node, n -> new ArrayList<>()).add(reference(pod));
            }
            podsByNode.forEach((node, refs) -> {
                if (cpu.failures.getOrDefault(node, 0) >= MAX_FAILURES
                        || cpu.retryAt.getOrDefault(node, Instant.MIN).isAfter(now)) {
                    return;
                }
                String path = "/api/v1/nodes/" + node + "/proxy/metrics/cadvisor";
                try {
                    String text = pages.get(path, ProxyPages.CADVISOR_LIMIT, "/metrics/cadvisor of node " + node);
                    if (text == null) {
                        cpu.lastError = "the API server's node proxy returned nothing for " + path;
                        cpu.errorByNode.put(node, cpu.lastError);
                        cpu.failures.merge(node, 1, Integer::sum);
                        cpu.retryAt.put(node, now.plus(RETRY_AFTER));
                    } else {
                        cpu.counters.add(refs, text, now);
                        cpu.scrapes++;
                        cpu.readsByNode.merge(node, 1, Integer::sum);
                    }
                } catch (RuntimeException e) {
                    cpu.lastError = "GET " + path + " failed: " + e.getMessage();
                    cpu.errorByNode.put(node, cpu.lastError);
                    int failed = cpu.failures.merge(node, 1, Integer::sum);
                    cpu.retryAt.put(node, now.plus(RETRY_AFTER));
                    LOG.warn(
                            "run {}/{}: {}; {}",
                            namespace,
                            run.getMetadata().getName(),
                            cpu.lastError,
                            failed >= MAX_FAILURES
                                    ? "not asking that node again for this run"
                                    : "asking again in " + RETRY_AFTER.toSeconds() + " s");
                }
            });
        }
    }

    /** Each pod's CPU over [from, to], target first, then the delay service and the runners. */
    public List<PodResources> usage(BenchmarkRun run, Instant from, Instant to) {
        RunCpu cpu = runs.get(run.getMetadata().getUid());
        if (cpu == null) {
            return List.of();
        }
        synchronized (cpu) {
            List<PodResources> result = new ArrayList<>();
            for (PodCpuCounters.Usage usage : cpu.counters.usages(from, to)) {
                PodFacts facts = cpu.pods.get(usage.pod());
                result.add(new PodResources()
                        .withRole(facts.role())
                        .withPod(usage.pod())
                        .withNode(facts.node())
                        .withCpuLimitCores(facts.cpuLimitCores())
                        .withAvgCpuCores(round(usage.cores(), 3))
                        .withCpuThrottledRatio(usage.throttledRatio() == null ? null : round(usage.throttledRatio(), 4))
                        .withSampledSeconds(round(usage.seconds(), 1))
                        .withInsideWindow(usage.insideWindow()));
            }
            result.sort(java.util.Comparator.comparingInt(p -> order(p.getRole())));
            return result;
        }
    }

    /** Why no pod has CPU figures, when none has; empty when some have. */
    public Optional<String> unavailableReason(BenchmarkRun run, Instant from, Instant to) {
        RunCpu cpu = runs.get(run.getMetadata().getUid());
        if (cpu == null) {
            return Optional.of(
                    UNAVAILABLE + "unavailable: the operator read no kubelet counters for this run (it may have"
                            + " restarted after the load)");
        }
        synchronized (cpu) {
            if (!cpu.counters.usages(from, to).isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(UNAVAILABLE + "and throttling unavailable: "
                    + (cpu.lastError != null
                            ? cpu.lastError
                                    + " (the operator needs get on nodes/proxy, and the kubelets must serve"
                                    + " /metrics/cadvisor)"
                            : cpu.scrapes + " kubelet reading(s) held fewer than two per pod"));
        }
    }

    /**
     * For each pod of the run that was seen but has no figure over [from, to], why: how often its node's kubelet was
     * read, how many distinct readings of the pod's counters it gave (its housekeeping refreshes them every 10-20 s
     * by default, so a pod that lived less than that may have one), and the node's last error. Runners come last.
     */
    public List<String> missing(BenchmarkRun run, Instant from, Instant to) {
        RunCpu cpu = runs.get(run.getMetadata().getUid());
        if (cpu == null) {
            return List.of();
        }
        synchronized (cpu) {
            List<String> measured = cpu.counters.usages(from, to).stream()
                    .map(PodCpuCounters.Usage::pod)
                    .toList();
            List<String> result = new ArrayList<>();
            cpu.pods.entrySet().stream()
                    .filter(pod -> !measured.contains(pod.getKey()))
                    .sorted(java.util.Comparator.comparingInt(
                            pod -> order(pod.getValue().role())))
                    .forEach(pod -> {
                        String node = pod.getValue().node();
                        int failures = cpu.failures.getOrDefault(node, 0);
                        String error = cpu.errorByNode.get(node);
                        result.add(pod.getValue().role() + " pod " + pod.getKey() + " on " + node + ": "
                                + cpu.counters.readings(pod.getKey()) + " distinct reading(s) of its counters in "
                                + cpu.readsByNode.getOrDefault(node, 0) + " read(s) of the node's kubelet"
                                + (failures == 0
                                        ? ""
                                        : ", " + failures + " failed"
                                                + (failures >= MAX_FAILURES ? " (not asked again)" : "")
                                                + (error == null ? "" : ", last: " + error)));
                    });
            return result;
        }
    }

    /** The run's CPU readings as text, for the scrape journal (empty when there are none). */
    String journal(BenchmarkRun run) {
        RunCpu cpu = runs.get(run.getMetadata().getUid());
        if (cpu == null) {
            return "";
        }
        synchronized (cpu) {
            return cpu.counters.journal();
        }
    }

    /**
     * Takes up the readings an earlier operator process journaled for the run; the pods' roles, nodes and limits come
     * back with the next reading, which looks the pods up again.
     */
    int restore(BenchmarkRun run, String journal) {
        RunCpu cpu = runs.computeIfAbsent(run.getMetadata().getUid(), uid -> new RunCpu());
        synchronized (cpu) {
            return cpu.counters.load(journal);
        }
    }

    public void forget(BenchmarkRun run) {
        runs.remove(run.getMetadata().getUid());
    }

    private static PodCpuCounters.PodRef reference(Pod pod) {
        Map<String, String> containers = new LinkedHashMap<>();
        if (pod.getStatus() != null && pod.getStatus().getContainerStatuses() != null) {
            for (ContainerStatus status : pod.getStatus().getContainerStatuses()) {
                String id = status.getContainerID();
                if (id != null && id.contains("://")) {
                    containers.put(id.substring(id.indexOf("://") + 3), status.getName());
                }
            }
        }
        return new PodCpuCounters.PodRef(
                pod.getMetadata().getNamespace(),
                pod.getMetadata().getName(),
                pod.getMetadata().getUid(),
                containers);
    }

    private static String role(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        if (labels == null) {
            return null;
        }
        if ("true".equals(labels.get(RunLabels.K6_RUNNER))) {
            return ROLE_RUNNER;
        }
        return labels.get(RunLabels.ROLE);
    }

    private static int order(String role) {
        return switch (role) {
            case RunLabels.ROLE_TARGET -> 0;
            case RunLabels.ROLE_DELAY_SERVICE -> 1;
            case ROLE_RUNNER -> 3;
            default -> 2;
        };
    }

    /** The pod's CPU limit in cores: the sum of its containers' limits; null when one has none. */
    private static Double cpuLimit(Pod pod) {
        double cores = 0;
        for (Container container : pod.getSpec().getContainers()) {
            Quantity limit =
                    container.getResources() == null || container.getResources().getLimits() == null
                            ? null
                            : container.getResources().getLimits().get("cpu");
            if (limit == null) {
                return null;
            }
            cores += Quantities.cpuCores(limit.toString());
        }
        return cores;
    }

    private static double round(double value, int digits) {
        double scale = Math.pow(10, digits);
        return Math.round(value * scale) / scale;
    }
}
