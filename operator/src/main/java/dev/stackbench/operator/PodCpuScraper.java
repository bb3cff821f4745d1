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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Reads the CPU counters of a run's pods (target, delay service, k6 runners) from the kubelet of each node they run on
 * ({@code /metrics/cadvisor} of its own API, {@link Kubelets}; the operator needs {@code get} on {@code nodes/metrics}),
 * while load runs, and turns them into each pod's CPU use and CFS throttling over the
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

    /** How long a scrape waits for all its kubelets together: the page limit and a margin for the node lookup. */
    static final Duration READ_LIMIT = ProxyPages.TIMEOUT.plusSeconds(5);

    /** Kubelet reads at once, over all runs; each holds a thread until its answer or its limit. */
    static final int READ_THREADS = 16;

    private static final ExecutorService READS =
            new ThreadPoolExecutor(0, READ_THREADS, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), task -> {
                Thread thread = new Thread(task, "stackbench-kubelet-read");
                thread.setDaemon(true);
                return thread;
            });

    private record PodFacts(String role, String node, Double cpuLimitCores) {}

    private static final class RunCpu {
        final PodCpuCounters counters = new PodCpuCounters();
        final Map<String, PodFacts> pods = new LinkedHashMap<>();
        Instant last = Instant.MIN;
        /** Whether reads for this run are in flight: a scrape on the clock then leaves them to it. */
        final AtomicBoolean reading = new AtomicBoolean();
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
    private final Kubelets kubelets;
    private final Map<String, RunCpu> runs = new ConcurrentHashMap<>();

    public PodCpuScraper(KubernetesClient client) {
        this.client = client;
        this.kubelets = new Kubelets(client);
    }

    /**
     * Reads the counters of the run's pods from their nodes' kubelets, unless that was done less than {@link
     * #INTERVAL} ago; {@code force} reads them anyway (once the load has stopped, so the window's end has a reading
     * after it).
     */
    public void scrape(BenchmarkRun run, Instant now, boolean force) {
        RunCpu cpu = runs.computeIfAbsent(run.getMetadata().getUid(), uid -> new RunCpu());
        if (!cpu.reading.compareAndSet(false, true)) {
            if (!force) {
                return; // the reads in flight give this run its next readings
            }
            // a forced reading (the one after the load) goes ahead: two reads of one kubelet are harmless
        }
        try {
            Map<String, List<PodCpuCounters.PodRef>> podsByNode;
            synchronized (cpu) {
                if (!force && Duration.between(cpu.last, now).compareTo(INTERVAL) < 0) {
                    return;
                }
                cpu.last = now;
            }
            podsByNode = podsByNode(run, cpu, now);
            Map<String, Future<String>> reads = new LinkedHashMap<>();
            podsByNode.keySet().forEach(node -> reads.put(node, submit(node)));
            long deadline = System.nanoTime() + READ_LIMIT.toNanos();
            reads.forEach((node, read) -> {
                String error;
                try {
                    String text = read.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    synchronized (cpu) {
                        cpu.counters.add(podsByNode.get(node), text, now);
                        cpu.scrapes++;
                        cpu.readsByNode.merge(node, 1, Integer::sum);
                    }
                    return;
                } catch (TimeoutException e) {
                    read.cancel(true);
                    error = "the kubelet of node " + node + " did not answer /metrics/cadvisor within "
                            + READ_LIMIT.toSeconds() + " s";
                } catch (ExecutionException e) {
                    error = e.getCause() instanceof ProxyPages.Unreadable
                            ? e.getCause().getMessage()
                            : "reading /metrics/cadvisor of node " + node + " failed: " + e.getCause();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    read.cancel(true);
                    return;
                }
                failed(run, cpu, node, error, now);
            });
        } finally {
            cpu.reading.set(false);
        }
    }

    /** The run's pods with a role, by the node they run on; a node that failed too often is left out. */
    private Map<String, List<PodCpuCounters.PodRef>> podsByNode(BenchmarkRun run, RunCpu cpu, Instant now) {
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
        synchronized (cpu) {
            for (Pod pod : pods) {
                String role = role(pod);
                String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
                if (role == null || node == null) {
                    continue;
                }
                cpu.pods.putIfAbsent(pod.getMetadata().getName(), new PodFacts(role, node, cpuLimit(pod)));
                podsByNode.computeIfAbsent(node, n -> new ArrayList<>()).add(reference(pod));
            }
            podsByNode
                    .keySet()
                    .removeIf(node -> cpu.failures.getOrDefault(node, 0) >= MAX_FAILURES
                            || cpu.retryAt.getOrDefault(node, Instant.MIN).isAfter(now));
        }
        return podsByNode;
    }

    /**
     * The node's page, read on a thread of {@link #READS}: a kubelet that never answers holds that thread until the
     * read's own limit, never the reconcile or the scrape clock that asked. With every thread busy the read fails
     * at once.
     */
    private Future<String> submit(String node) {
        try {
            return READS.submit(() -> kubelets.cadvisor(node));
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(new ProxyPages.Unreadable(
                    "/metrics/cadvisor of node " + node + " was not read: " + READ_THREADS
                            + " kubelet reads are already waiting for answers",
                    e));
        }
    }

    private static void failed(BenchmarkRun run, RunCpu cpu, String node, String error, Instant now) {
        int failed;
        synchronized (cpu) {
            cpu.lastError = error;
            cpu.errorByNode.put(node, error);
            failed = cpu.failures.merge(node, 1, Integer::sum);
            cpu.retryAt.put(node, now.plus(RETRY_AFTER));
        }
        LOG.warn(
                "run {}/{}: {}; {}",
                run.getMetadata().getNamespace(),
                run.getMetadata().getName(),
                error,
                failed >= MAX_FAILURES
                        ? "not asking that node again for this run"
                        : "asking again in " + RETRY_AFTER.toSeconds() + " s");
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
                                    + " (the operator reads each kubelet's /metrics/cadvisor, with get on"
                                    + " nodes/metrics)"
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
