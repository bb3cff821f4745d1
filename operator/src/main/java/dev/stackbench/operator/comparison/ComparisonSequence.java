package dev.stackbench.operator.comparison;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.Durations;
import dev.stackbench.api.comparison.BenchmarkComparison;
import dev.stackbench.api.comparison.ComparisonRunRecord;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.LiveLoad;
import dev.stackbench.api.status.Phase;
import dev.stackbench.comparison.ComparisonResults;
import dev.stackbench.comparison.ComparisonRuns;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.operator.ApiErrors;
import dev.stackbench.operator.OperatorSettings;
import dev.stackbench.operator.RunLabels;
import dev.stackbench.operator.run.Cleanup;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The comparison's runs, one at a time in the planned order: each run's record in the status follows the run, and the
 * next run is created once the one before it has ended, been cleaned up and has no pod left that runs or terminates,
 * so no two repetitions ever share a node. A run found in the API server is never created again: a pass repeated
 * after a restart or a lost status update finds it.
 */
public final class ComparisonSequence {

    /**
     * How soon a comparison waiting for the previous run's pods to go looks again. Pods are not watched here, and
     * they usually go within a few seconds of the run's cleanup: a check every second starts the next repetition
     * about when they are gone, for two list requests a second during that wait.
     */
    private static final Duration PODS_GONE_CHECK = Duration.ofSeconds(1);

    private final OperatorSettings settings;

    public ComparisonSequence(OperatorSettings settings) {
        this.settings = settings;
    }

    /**
     * Walks the plan in order: records what ended, waits for the run in flight (or for the cleanup of the one
     * before), starts the next.
     *
     * @return true once every run has ended
     */
    public boolean advance(ComparisonPass pass, BenchmarkComparison comparison, Context<BenchmarkComparison> context) {
        KubernetesClient client = context.getClient();
        String namespace = comparison.getMetadata().getNamespace();
        List<ComparisonRuns.Child> plan =
                ComparisonRuns.plan(comparison, pass.status().getSeed());
        Map<String, BenchmarkRun> runs = new LinkedHashMap<>();
        context.getSecondaryResources(BenchmarkRun.class)
                .forEach(run -> runs.put(run.getMetadata().getName(), run));
        int repetitions = comparison.getSpec().getRepetitions();
        BenchmarkRun previous = null;
        for (ComparisonRuns.Child child : plan) {
            String name = child.run().getMetadata().getName();
            String where = name + " (" + child.label() + ", round " + (child.round() + 1) + " of " + repetitions + ")";
            Optional<ComparisonRunRecord> record = ComparisonResults.find(pass.status(), name);
            BenchmarkRun run = runs.get(name);
            if (run == null && record.isPresent()) {
                // The cache may lag behind a run created a moment ago: ask the API server before concluding.
                run = client.resources(BenchmarkRun.class)
                        .inNamespace(namespace)
                        .withName(name)
                        .get();
            }
            if (record.isPresent() && ComparisonResults.ended(record.get())) {
                previous = run;
                continue;
            }
            if (run == null && record.isPresent()) {
                ComparisonRunRecord lost = record.get();
                lost.setPhase(Phase.Failed);
                lost.setMessage("the run was deleted before it ended");
                ComparisonResults.put(pass.status(), lost);
                pass.markChanged();
                pass.event(true, "RunDeleted", "run " + where + " was deleted before it ended; it counts as failed");
                continue;
            }
            if (run == null) {
                Optional<String> busy = previous == null ? Optional.empty() : stillBusy(previous, client);
                Optional<Instant> ended = previous == null ? Optional.empty() : endedAt(previous);
                if (busy.isPresent()
                        && ended.isPresent()
                        && pass.clock().instant().isAfter(ended.get().plus(podsGoneDeadline()))) {
                    pass.fail(
                            "PreviousRunNotGone",
                            "gave up waiting for " + busy.get() + ", " + Durations.format(podsGoneDeadline())
                                    + " after it ended: the comparison"
                                    + " stops with the runs it completed (in this status); remove what is left"
                                    + " (kubectl get pods -n " + namespace + " -l " + RunLabels.RUN + "="
                                    + previous.getMetadata().getName() + "; a pod stuck Terminating on a node that"
                                    + " no longer answers needs kubectl delete pod --force) and create the comparison"
                                    + " again");
                    return false;
                }
                if (busy.isPresent()) {
                    pass.message("waiting for " + busy.get() + " before the next repetition starts");
                    pass.checkAgainIn(shorter(settings.pollInterval(), PODS_GONE_CHECK));
                    return false;
                }
                create(comparison, child.run(), client);
                ComparisonResults.put(
                        pass.status(), ComparisonResults.record(name, child.label(), child.round(), null));
                pass.message("started run " + where);
                pass.markChanged();
                pass.event(false, "RunCreated", "run " + where + " created");
                pass.checkAgainIn(settings.pollInterval());
                return false;
            }
            ComparisonRunRecord now = ComparisonResults.record(name, child.label(), child.round(), run.getStatus());
            if (record.isEmpty() || !same(record.get(), now)) {
                ComparisonResults.put(pass.status(), now);
                pass.markChanged();
            }
            if (!ComparisonResults.ended(now)) {
                String phase =
                        now.getPhase() == null ? "Pending" : now.getPhase().toString();
                String runMessage = run.getStatus() == null || run.getStatus().getMessage() == null
                        ? ""
                        : ": " + run.getStatus().getMessage();
                pass.message("run " + where + " is " + phase + runMessage);
                pass.live(liveOf(where, run));
                pass.checkAgainIn(settings.pollInterval());
                return false;
            }
            pass.live(null);
            pass.event(
                    now.getPhase() != Phase.Succeeded,
                    "RunEnded",
                    "run " + where + " " + now.getPhase() + (now.getMessage() == null ? "" : ": " + now.getMessage()));
            previous = run;
        }
        return true;
    }

    /**
     * What the next run waits for, if anything: the run before it to be cleaned up, or those of its pods (target,
     * database, delay service, k6 runners) that still run or terminate ({@link Cleanup#stillOnItsNode}, the rule by
     * which the run releases its pools). Empty once its nodes are free: a runner that completed does not hold the next
     * repetition until the garbage collector removes its object.
     */
    private static Optional<String> stillBusy(BenchmarkRun previous, KubernetesClient client) {
        String name = previous.getMetadata().getName();
        boolean cleanedUp = previous.getStatus() != null
                && previous.getStatus().getConditions() != null
                && previous.getStatus().getConditions().stream()
                        .anyMatch(condition -> RunProgress.CLEANED_UP.equals(condition.getType()));
        if (!cleanedUp) {
            return Optional.of("run " + name + " to be cleaned up");
        }
        String namespace = previous.getMetadata().getNamespace();
        List<String> left = Stream.concat(
                        client.pods().inNamespace(namespace).withLabel(RunLabels.RUN, name).list().getItems().stream(),
                        client
                                .pods()
                                .inNamespace(namespace)
                                .withLabel(RunLabels.K6_TEST_RUN, RunLabels.testRunName(previous))
                                .list()
                                .getItems()
                                .stream())
                .filter(Cleanup::stillOnItsNode)
                .map(pod -> pod.getMetadata().getName())
                .distinct()
                .sorted()
                .toList();
        if (!left.isEmpty()) {
            return Optional.of("the " + left.size() + " pod(s) of run " + name + " ("
                    + String.join(", ", left.stream().limit(5).toList()) + (left.size() > 5 ? ", ..." : "")
                    + ") to terminate");
        }
        return Optional.empty();
    }

    /**
     * How long after a run ended its cleanup and the end of its pods may take: as long as a pod may take to become
     * Ready (the target's readiness limit). Pods normally go within seconds (their termination grace is 30 s at most);
     * past this they are stuck (a node that stopped answering, a finalizer), and waiting longer would hold the
     * comparison forever.
     */
    private Duration podsGoneDeadline() {
        return settings.targetReadyLimit();
    }

    /** When the run ended (status.finishedAt), if it says. */
    private static Optional<Instant> endedAt(BenchmarkRun run) {
        return Optional.ofNullable(run.getStatus())
                .map(status -> status.getFinishedAt())
                .map(Instant::parse);
    }

    private static Duration shorter(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static void create(BenchmarkComparison comparison, BenchmarkRun run, KubernetesClient client) {
        run.getMetadata().setOwnerReferences(List.of(ComparisonObjects.ownerReference(comparison)));
        try {
            client.resources(BenchmarkRun.class)
                    .inNamespace(run.getMetadata().getNamespace())
                    .resource(run)
                    .create();
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
                // Created by an earlier pass whose status update was lost: found next time.
                return;
            }
            throw new ApiErrors.RequestFailed(ApiErrors.describe("create", run), run, e);
        }
    }

    private static boolean same(ComparisonRunRecord a, ComparisonRunRecord b) {
        return BenchmarkRuns.yamlMapper()
                .valueToTree(a)
                .equals(BenchmarkRuns.yamlMapper().valueToTree(b));
    }

    /** The run's live load, its text naming the run, or null when it has none. */
    private static LiveLoad liveOf(String where, BenchmarkRun run) {
        LiveLoad live = run.getStatus() == null ? null : run.getStatus().getLive();
        if (live == null) {
            return null;
        }
        LiveLoad named = new LiveLoad();
        named.setRequests(live.getRequests());
        named.setMeasuredRequests(live.getMeasuredRequests());
        named.setFailedRequests(live.getFailedRequests());
        named.setDroppedIterations(live.getDroppedIterations());
        named.setRequestsPerSecond(live.getRequestsPerSecond());
        named.setRunnersRead(live.getRunnersRead());
        named.setUpdatedAt(live.getUpdatedAt());
        named.setText(where + ": " + live.getText());
        return named;
    }
}
