package dev.stackbench.operator;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.Conditions;
import dev.stackbench.api.status.LiveLoad;
import dev.stackbench.k6.K6ApiCounts;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A load's progress while it runs, for people watching: every runner's counts from k6's REST API
 * ({@code /v1/metrics} on port {@value #K6_API_PORT}, through the API server's pod proxy, which the operator may use
 * already: {@code pods/proxy}), added up over the runners. A reading runs on a thread of its own, at most one per load
 * at a time, and the reconcile that asked takes the last completed reading: a runner that answers slowly costs a
 * stale figure, never a reconcile. Nothing here goes into the results.
 */
public final class RunnerProgress {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RunnerProgress.class);

    /** k6's REST API in a runner pod (k6-operator starts k6 with --address 0.0.0.0:6565). */
    static final int K6_API_PORT = 6565;

    /** The most of one runner's /v1/metrics read: a few hundred metrics and sub-metrics, some 100 KiB. */
    static final int PAGE_LIMIT = 4 * 1024 * 1024;

    /** Readings of loads not asked about for this long are dropped. */
    static final Duration KEEP = Duration.ofHours(1);

    private static final ExecutorService READS =
            new ThreadPoolExecutor(0, 8, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), task -> {
                Thread thread = new Thread(task, "stackbench-runner-progress");
                thread.setDaemon(true);
                return thread;
            });

    /** One reading: the counts of the runners that answered, of how many were asked. */
    record Reading(Instant at, K6ApiCounts counts, int answered, int runners) {}

    private static final class Load {
        final AtomicBoolean reading = new AtomicBoolean();
        volatile Reading last;
        volatile Reading previous;
        volatile Instant askedAt = Instant.now();
    }

    private final Map<String, Load> loads = new ConcurrentHashMap<>();

    /** Starts a reading of the load's runners unless one is under way; returns at once. */
    public void poll(KubernetesClient client, BenchmarkRun load, List<Pod> runnerPods) {
        Instant now = Instant.now();
        loads.values().removeIf(l -> l.askedAt.plus(KEEP).isBefore(now));
        Load state = loads.computeIfAbsent(key(load), k -> new Load());
        state.askedAt = now;
        List<Pod> running = runnerPods.stream()
                .filter(pod -> pod.getStatus() != null
                        && "Running".equals(pod.getStatus().getPhase()))
                .toList();
        if (running.isEmpty() || !state.reading.compareAndSet(false, true)) {
            return;
        }
        try {
            READS.execute(() -> {
                try {
                    Reading reading = read(new ProxyPages(client), running, runnerPods.size());
                    if (reading != null) {
                        state.previous = state.last;
                        state.last = reading;
                    }
                } finally {
                    state.reading.set(false);
                }
            });
        } catch (RejectedExecutionException e) {
            state.reading.set(false); // every reader is busy: the next reconcile asks again
        }
    }

    /** The last reading as the run's status shows it, if any runner answered yet. */
    public Optional<LiveLoad> live(BenchmarkRun load) {
        Load state = loads.get(key(load));
        Reading last = state == null ? null : state.last;
        if (last == null) {
            return Optional.empty();
        }
        Reading previous = state.previous;
        Double rate = null;
        if (previous != null
                && previous.answered() == last.answered()
                && last.at().isAfter(previous.at())) {
            double seconds = Duration.between(previous.at(), last.at()).toMillis() / 1000.0;
            rate = Math.round(Math.max(
                                    0,
                                    last.counts().requests() - previous.counts().requests())
                            / seconds
                            * 10)
                    / 10.0;
        }
        K6ApiCounts counts = last.counts();
        LiveLoad live = new LiveLoad();
        live.setRequests(counts.requests());
        live.setMeasuredRequests(counts.measureRequests());
        live.setFailedRequests(counts.failed());
        live.setDroppedIterations(counts.dropped());
        live.setRequestsPerSecond(rate);
        live.setRunnersRead(last.answered() + "/" + last.runners());
        live.setUpdatedAt(Conditions.format(last.at()));
        live.setText(String.format(
                        Locale.ROOT,
                        "%d req, %s/s, %d failed, %d dropped",
                        counts.requests(),
                        rate == null ? "-" : String.format(Locale.ROOT, "%.1f", rate),
                        counts.failed(),
                        counts.dropped())
                + (last.answered() < last.runners()
                        ? " (" + last.answered() + " of " + last.runners() + " runners)"
                        : ""));
        return Optional.of(live);
    }

    private static Reading read(ProxyPages pages, List<Pod> running, int runners) {
        K6ApiCounts sum = K6ApiCounts.ZERO;
        int answered = 0;
        for (Pod pod : running) {
            String name = pod.getMetadata().getName();
            String path = "/api/v1/namespaces/" + pod.getMetadata().getNamespace() + "/pods/" + name + ":" + K6_API_PORT
                    + "/proxy/v1/metrics";
            try {
                sum = sum.plus(K6ApiCounts.parse(pages.get(path, PAGE_LIMIT, "k6's /v1/metrics of runner " + name)));
                answered++;
            } catch (ProxyPages.Unreadable | IOException e) {
                // a runner starting or just done: the run's results never depend on this
                LOG.debug("live progress: {}", e.getMessage());
            }
        }
        return answered == 0 ? null : new Reading(Instant.now(), sum, answered, runners);
    }

    private static String key(BenchmarkRun load) {
        return load.getMetadata().getUid() + "/" + RunLabels.testRunName(load);
    }
}
