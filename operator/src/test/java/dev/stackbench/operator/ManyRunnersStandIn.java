package dev.stackbench.operator;

import dev.stackbench.operator.objects.K6TestRun;
import dev.stackbench.testcluster.PodLogServing;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodIP;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * k6-operator as far as result collection sees it, for many runners at once and no k6 at all: for each TestRun, one
 * Job {@code <testrun>-<n>} per runner, controlled by the TestRun, whose pod kwok finishes at once (its log is what
 * the test serves); stage {@code started} once every runner pod has finished and the target pod answers at
 * {@code targetAddress}, {@code finished} {@link #RUNNING} later, so the operator scrapes the target meanwhile.
 */
final class ManyRunnersStandIn implements AutoCloseable {

    /** How long the load "runs" between stage started and finished: a few of the operator's scrapes. */
    static final Duration RUNNING = Duration.ofSeconds(12);

    private final KubernetesClient client;
    private final String namespace;
    private final String targetAddress;
    private final PodLogServing logs;
    private final Map<String, Instant> startedAt = new HashMap<>();
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor();
    private volatile Throwable failure;

    /**
     * @param targetAddress the address this machine's stand-in target page listens on, for the target pod's IP
     * @param logs the serving of the runner pods' logs: the load starts once every runner's log is served
     */
    ManyRunnersStandIn(KubernetesClient client, String namespace, String targetAddress, PodLogServing logs) {
        this.client = client;
        this.namespace = namespace;
        this.targetAddress = targetAddress;
        this.logs = logs;
        loop.scheduleWithFixedDelay(this::reconcileAll, 0, 500, TimeUnit.MILLISECONDS);
    }

    /** A failure of the stand-in itself, so the test reports it instead of timing out silently. */
    Throwable failure() {
        return failure;
    }

    private void reconcileAll() {
        Throwable failed = TestRunJobs.reconcileAll(client, namespace, "many-runners stand-in", this::reconcile);
        if (failed != null) {
            failure = failed;
        }
    }

    private void reconcile(GenericKubernetesResource testRun) {
        String name = testRun.getMetadata().getName();
        String stage = K6TestRun.stage(testRun);
        int parallelism = TestRunJobs.parallelism(testRun);
        if (stage == null) {
            // No command and no run duration: kwok finishes each runner's pod at once.
            for (int n = 1; n <= parallelism; n++) {
                client.batch()
                        .v1()
                        .jobs()
                        .inNamespace(namespace)
                        .resource(TestRunJobs.runnerJob(testRun, n, List.of(), Map.of()))
                        .create();
            }
            TestRunJobs.setStage(client, namespace, name, "created");
        } else if ("created".equals(stage)) {
            List<Pod> runners = client.pods()
                    .inNamespace(namespace)
                    .withLabels(RunLabels.runnerPods(name))
                    .list()
                    .getItems();
            if (runners.size() < parallelism
                    || !RunnerHealth.allFinished(runners, parallelism)
                    || !logs.servedPodUids()
                            .containsAll(runners.stream()
                                    .map(pod -> pod.getMetadata().getUid())
                                    .toList())
                    || !targetAnswersHere()) {
                return;
            }
            startedAt.put(name, Instant.now());
            TestRunJobs.setStage(client, namespace, name, "started");
        } else if ("started".equals(stage)
                && Instant.now()
                        .isAfter(startedAt.getOrDefault(name, Instant.MIN).plus(RUNNING))) {
            TestRunJobs.setStage(client, namespace, name, "finished");
        }
    }

    /**
     * Gives the run's target pod this machine's address as its IP, so the API server's pod proxy reaches the page
     * the test serves there (kwok's own pod IPs lead nowhere); true once it has it.
     */
    private boolean targetAnswersHere() {
        List<Pod> targets = client.pods()
                .inNamespace(namespace)
                .withLabel(RunLabels.ROLE, RunLabels.ROLE_TARGET)
                .list()
                .getItems();
        if (targets.isEmpty()) {
            return false;
        }
        for (Pod target : targets) {
            if (target.getStatus() == null
                    || !"Running".equals(target.getStatus().getPhase())) {
                return false;
            }
            if (!targetAddress.equals(target.getStatus().getPodIP())) {
                client.pods().inNamespace(namespace).resource(target).editStatus(pod -> {
                    pod.getStatus().setPodIP(targetAddress);
                    pod.getStatus().setPodIPs(List.of(new PodIP(targetAddress)));
                    return pod;
                });
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        loop.shutdownNow();
    }
}
