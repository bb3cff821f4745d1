package dev.stackbench.operator;

import dev.stackbench.catalogue.VariantCatalogue;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;

/**
 * The operator: a BenchmarkRun and a BenchmarkComparison controller on a java-operator-sdk Operator, optionally behind leader election (a
 * Lease in the operator's namespace), so a second replica only waits.
 */
public final class StackbenchOperator implements AutoCloseable {

    public static final String LEASE_NAME = "stackbench-operator";

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(StackbenchOperator.class);

    /** How long a stop waits for scrapes under way before it writes the scrape journals a last time. */
    private static final Duration SCRAPES_UNDER_WAY = Duration.ofSeconds(5);

    private final Operator operator;
    private final TargetMetricsScraper scraper;

    /** This process's claim on the Lease; null without leader election. */
    private final LeaseHandover lease;

    /** Set once {@link #close} begins: losing the Lease then is the stop's own doing, not a reason to exit. */
    private volatile boolean closing;

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
        this.lease = leaseNamespace == null ? null : new LeaseHandover(client, leaseNamespace);
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
                                .withIdentity(lease.identity())
                                // Exits on a lost Lease are decided here, not by java-operator-sdk: a stop that
                                // cancels the election must go on to hand the scrapes and the Lease over.
                                .withExitOnStopLeading(false)
                                .withLeaderCallbacks(new LeaderCallbacks(
                                        () -> {}, () -> stoppedLeading(exitWhenLeadershipIsLost), holder -> {}))
                                .build();
                overrider.withLeaderElectionConfiguration(leaderElection);
            }
        });
        this.scraper = new TargetMetricsScraper(client);
        BenchmarkRunReconciler reconciler = new BenchmarkRunReconciler(catalogue, settings, scraper, Clock.systemUTC());
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

    /**
     * The Lease was lost or given up. Lost while running (another replica holds it: this one could not renew in
     * time), a deployed operator ends its process so its pod restarts as a standby; from another thread, since this
     * one holds the election's lock that the stop in the exit's shutdown hook needs.
     */
    private void stoppedLeading(boolean exitWhenLeadershipIsLost) {
        if (closing) {
            return;
        }
        if (exitWhenLeadershipIsLost) {
            LOG.error(
                    "lost the Lease {}: another replica leads now; exiting so this pod restarts as a standby",
                    LEASE_NAME);
            new Thread(() -> System.exit(1), "stackbench-operator-exit").start();
        } else {
            LOG.warn("lost the Lease {}: another replica leads now", LEASE_NAME);
        }
    }

    /**
     * Stops reconciling, then hands over to the next operator: every run's scrapes written to its journal as they are
     * now (not only up to the last periodic write) and the Lease released, so the next replica takes over at once and
     * still summarises the whole measured window. Without leader election the journals are written all the same;
     * with it, only while the Lease still names this process (a successor's journals are never overwritten).
     */
    @Override
    public void close() {
        closing = true;
        operator.stop();
        if (lease == null || lease.heldByThisProcess()) {
            scraper.stopAndJournal(SCRAPES_UNDER_WAY);
        }
        if (lease != null) {
            lease.release();
        }
    }
}
