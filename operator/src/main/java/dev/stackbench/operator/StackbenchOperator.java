package dev.stackbench.operator;

import dev.stackbench.catalogue.VariantCatalogue;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;
import java.time.Clock;
import java.util.Set;

/**
 * The operator: a BenchmarkRun and a BenchmarkComparison controller on a java-operator-sdk Operator, optionally behind leader election (a
 * Lease in the operator's namespace), so a second replica only waits.
 */
public final class StackbenchOperator implements AutoCloseable {

    public static final String LEASE_NAME = "stackbench-operator";

    private final Operator operator;

    /**
     * @param namespaces namespaces to watch; empty for all
     * @param leaseNamespace namespace of the leader-election Lease; null runs without leader election
     */
    public StackbenchOperator(
            KubernetesClient client,
            VariantCatalogue catalogue,
            OperatorSettings settings,
            Set<String> namespaces,
            String leaseNamespace) {
        this(client, catalogue, settings, namespaces, leaseNamespace, true);
    }

    /**
     * @param exitWhenLeadershipIsLost end the process when the Lease is lost, so the pod restarts as a follower
     *     (what a deployed operator wants); false only for replicas running inside a test JVM
     */
    public StackbenchOperator(
            KubernetesClient client,
            VariantCatalogue catalogue,
            OperatorSettings settings,
            Set<String> namespaces,
            String leaseNamespace,
            boolean exitWhenLeadershipIsLost) {
        this.operator = new Operator(overrider -> {
            overrider
                    .withKubernetesClient(client)
                    .withCloseClientOnStop(false)
                    .withConcurrentReconciliationThreads(4)
                    .withStopOnInformerErrorDuringStartup(true);
            if (leaseNamespace != null) {
                LeaderElectionConfiguration leaderElection =
                        LeaderElectionConfigurationBuilder.aLeaderElectionConfiguration(LEASE_NAME)
                                .withLeaseNamespace(leaseNamespace)
                                .withExitOnStopLeading(exitWhenLeadershipIsLost)
                                .build();
                overrider.withLeaderElectionConfiguration(leaderElection);
            }
        });
        BenchmarkRunReconciler reconciler =
                new BenchmarkRunReconciler(catalogue, settings, new TargetMetricsScraper(client), Clock.systemUTC());
        operator.register(reconciler, configuration -> {
            if (namespaces.isEmpty()) {
                configuration.watchingAllNamespaces();
            } else {
                configuration.settingNamespaces(namespaces);
            }
        });
        operator.register(new BenchmarkComparisonReconciler(catalogue, settings, Clock.systemUTC()), configuration -> {
            if (namespaces.isEmpty()) {
                configuration.watchingAllNamespaces();
            } else {
                configuration.settingNamespaces(namespaces);
            }
        });
    }

    /** Starts the informers and, once leader (or at once without leader election), reconciling. */
    public void start() {
        operator.start();
    }

    /** True once the controller's informers have synced (used by /readyz). */
    public boolean isReady() {
        return isAlive() && operator.getRuntimeInfo().allEventSourcesAreHealthy();
    }

    /** True while the operator runs (used by /healthz). */
    public boolean isAlive() {
        return operator.getRuntimeInfo().isStarted();
    }

    @Override
    public void close() {
        operator.stop();
    }
}
