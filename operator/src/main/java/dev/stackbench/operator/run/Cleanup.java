package dev.stackbench.operator.run;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.CleanupPolicy;
import dev.stackbench.api.status.Phase;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.operator.PodEnds;
import dev.stackbench.operator.RunLabels;
import dev.stackbench.operator.ScrapeJournal;
import dev.stackbench.operator.objects.K6TestRun;
import dev.stackbench.operator.objects.RunDatabase;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Once the run's final status is stored: its objects are deleted, or kept, per spec.cleanup; the run and its status
 * stay.
 */
public final class Cleanup {

    /** How often an ended run looks whether its pods are gone, besides the pod informer's events. */
    private static final Duration POD_GONE_CHECK = Duration.ofSeconds(2);

    private final RunMeasurement measurement;

    public Cleanup(RunMeasurement measurement) {
        this.measurement = measurement;
    }

    /** Cleans up once after the run's end has been stored; does nothing before, or after it was done. */
    public void cleanUp(RunContext pass) {
        RunProgress progress = pass.progress();
        BenchmarkRun run = pass.run();
        boolean stored = run.getStatus() != null
                && run.getStatus().getPhase() != null
                && run.getStatus().getPhase().isTerminal();
        if (!stored) {
            return;
        }
        if (progress.condition(RunProgress.CLEANED_UP).isPresent()) {
            releasePoolsOnceThePodsAreGone(pass);
            return;
        }
        measurement.forget(run);
        CleanupPolicy policy = run.getSpec().getCleanup() == null
                ? CleanupPolicy.ALWAYS
                : run.getSpec().getCleanup();
        boolean delete = policy == CleanupPolicy.ALWAYS
                || (policy == CleanupPolicy.ON_SUCCESS && progress.phase() == Phase.Succeeded);
        boolean ownDatabase = RunDatabase.ownDatabase(run);
        if (!delete) {
            progress.cleanedUp(
                    false,
                    "kept the target, delay service, " + (ownDatabase ? "database, " : "")
                            + "k6 script, TestRun and network policies (spec.cleanup " + policy.value()
                            + "); deleting the BenchmarkRun"
                            + " deletes them");
            return;
        }
        KubernetesClient client = pass.client();
        String namespace = run.getMetadata().getNamespace();
        String selector = RunLabels.RUN + "=" + run.getMetadata().getName() + "," + RunLabels.MANAGED_SELECTOR;
        // One delete per object (list + delete), not a collection delete: the operator's RBAC has no deletecollection.
        List<HasMetadata> owned = new ArrayList<>();
        owned.addAll(client.genericKubernetesResources(K6TestRun.CONTEXT)
                .inNamespace(namespace)
                .withLabelSelector(selector)
                .list()
                .getItems());
        owned.addAll(client.apps()
                .deployments()
                .inNamespace(namespace)
                .withLabelSelector(selector)
                .list()
                .getItems());
        owned.addAll(client.services()
                .inNamespace(namespace)
                .withLabelSelector(selector)
                .list()
                .getItems());
        owned.addAll(client.configMaps()
                .inNamespace(namespace)
                .withLabelSelector(selector)
                .list()
                .getItems());
        // The verification pod (an ended one holds nothing, but its logs would outlive the run).
        owned.addAll(client.pods()
                .inNamespace(namespace)
                .withLabelSelector(selector + "," + RunLabels.ROLE + "=" + RunLabels.ROLE_VERIFICATION)
                .list()
                .getItems());
        // Last, after the pods they fence.
        owned.addAll(client.network()
                .networkPolicies()
                .inNamespace(namespace)
                .withLabelSelector(selector)
                .list()
                .getItems());
        // The scrape journal is not labelled for the informers (its writes must not wake the reconciler): by name.
        client.configMaps()
                .inNamespace(namespace)
                .withName(ScrapeJournal.name(run))
                .delete();
        if (ownDatabase) {
            // By name: the operator may create and delete Secrets, never read or list them.
            client.secrets()
                    .inNamespace(namespace)
                    .withName(RunDatabase.name(run))
                    .delete();
        }
        for (HasMetadata object : owned) {
            if (object instanceof GenericKubernetesResource testRun) {
                client.genericKubernetesResources(K6TestRun.CONTEXT)
                        .inNamespace(namespace)
                        .withName(testRun.getMetadata().getName())
                        .delete();
            } else {
                client.resource(object).delete();
            }
        }
        progress.cleanedUp(
                true,
                "deleted the target, delay service, " + (ownDatabase ? "database, " : "") + "k6 script,"
                        + " TestRun and network policies (spec.cleanup " + policy.value()
                        + "); the results stay in this status");
        // The pods go after their owners: the pools are released in a later pass, when the informers see none.
        progress.checkAgainIn(POD_GONE_CHECK);
    }

    /**
     * An ended run holds its node pools (and its external database) until none of its pods runs any more, so the next
     * run on those nodes is measured alone: kept pods ({@code spec.cleanup}) hold them until the run is deleted.
     */
    private static void releasePoolsOnceThePodsAreGone(RunContext pass) {
        RunProgress progress = pass.progress();
        List<String> pools = progress.status().getPools();
        if (pools == null || pools.isEmpty()) {
            return;
        }
        List<String> left = pass.secondaries(Pod.class).stream()
                .filter(Cleanup::stillOnItsNode)
                .map(pod -> pod.getMetadata().getName())
                .sorted()
                .toList();
        if (!left.isEmpty()) {
            progress.checkAgainIn(POD_GONE_CHECK);
            return;
        }
        progress.status().setPools(List.of());
        progress.note("PoolsReleased", "released " + String.join(", ", pools) + ": none of the run's pods is left");
    }

    /**
     * Whether a pod of an ended run still keeps the next run off its node: it runs or terminates. A pod that ended (a
     * runner or verification pod that completed, or one that failed) uses no CPU, even while its object waits for
     * garbage collection. The one rule for the run's pools and for the next repetition of a comparison. A pod whose
     * processes have exited ({@link PodEnds#processesExited}) still counts until its phase says so: until then the
     * scheduler and its kubelet count its CPU as taken, and a pod of the next run would be refused the node.
     */
    public static boolean stillOnItsNode(Pod pod) {
        return !PodEnds.phaseEnded(pod);
    }
}
