package dev.stackbench.operator;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Optional;
import java.util.UUID;

/**
 * This process's claim on the leader-election Lease, and its hand-over when the process stops on purpose (a deleted
 * pod, a rollout). Left as it is, the Lease would keep naming a stopped process until it expires, and the standby or
 * the replacement pod would wait those seconds before taking over, while a run's load goes on unscraped. Released, it
 * names nobody, and the next replica takes it at its next try.
 */
final class LeaseHandover {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LeaseHandover.class);

    private final KubernetesClient client;
    private final String namespace;
    private final String identity;

    LeaseHandover(KubernetesClient client, String namespace) {
        this.client = client;
        this.namespace = namespace;
        this.identity = newIdentity();
    }

    /**
     * The pod's name (HOSTNAME in a container) with a random suffix: unique even for two processes of one pod or two
     * replicas inside one JVM, so that no process ever takes another's claim for its own.
     */
    private static String newIdentity() {
        String host = System.getenv("HOSTNAME");
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        return host == null || host.isBlank() ? "stackbench-operator_" + suffix : host + "_" + suffix;
    }

    String identity() {
        return identity;
    }

    /** True while the Lease names this process; false also when it cannot be read. */
    boolean heldByThisProcess() {
        try {
            return heldLease().isPresent();
        } catch (KubernetesClientException e) {
            LOG.warn("cannot read the Lease {}/{}: {}", namespace, StackbenchOperator.LEASE_NAME, e.getMessage());
            return false;
        }
    }

    /**
     * Empties the Lease if it still names this process: no holder, a duration of 1 s. Written with the Lease's
     * resourceVersion, so a replica that wrote it meanwhile wins. Call it only once this process has stopped
     * reconciling and renewing.
     */
    void release() {
        try {
            Optional<Lease> held = heldLease();
            if (held.isEmpty()) {
                return;
            }
            Lease lease = held.get();
            lease.getSpec().setHolderIdentity(null);
            lease.getSpec().setLeaseDurationSeconds(1);
            lease.getSpec().setRenewTime(ZonedDateTime.now(ZoneOffset.UTC));
            client.leases().inNamespace(namespace).resource(lease).update();
            LOG.info(
                    "released the Lease {}/{}: the next replica takes over at its next try",
                    namespace,
                    StackbenchOperator.LEASE_NAME);
        } catch (KubernetesClientException e) {
            LOG.warn(
                    "cannot release the Lease {}/{} ({}): the next replica takes over once it expires",
                    namespace,
                    StackbenchOperator.LEASE_NAME,
                    e.getMessage());
        }
    }

    /** The Lease as it is now, if it names this process. */
    private Optional<Lease> heldLease() {
        return Optional.ofNullable(client.leases()
                        .inNamespace(namespace)
                        .withName(StackbenchOperator.LEASE_NAME)
                        .get())
                .filter(lease -> lease.getSpec() != null
                        && identity.equals(lease.getSpec().getHolderIdentity()));
    }
}
