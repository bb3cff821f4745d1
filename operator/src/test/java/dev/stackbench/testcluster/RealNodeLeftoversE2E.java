package dev.stackbench.testcluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * A real-node cluster killed with everything it started (the watcher too, as when a machine kills a test run and
 * all its children) leaves its bridge, mounts, namespaces, cgroups, chains and a running pod behind.
 * {@code hack/cluster.sh leftovers} must undo all of it, so the next cluster, and the host-state check of
 * {@code RealNodesE2E}, find the machine as it was.
 */
@Order(1)
class RealNodeLeftoversE2E {

    private static final Path LOCK = Path.of("/run/stackbench-real-nodes");

    @Test
    void aKilledClustersRemainsAreRemovedAndTheMachineIsAsBefore() {
        TestCluster.assumeRealNodes();
        // One real-node cluster at a time; starting and killing one works the machine (the other test JVM's
        // measured runs wait for it).
        try (MachineTurn turn = MachineTurn.take(getClass().getSimpleName())) {
            MachineTurn.busy(getClass().getSimpleName());
            try {
                killedClusterLeavesNothingOnceRemoved();
            } finally {
                MachineTurn.idle();
            }
        }
    }

    private void killedClusterLeavesNothingOnceRemoved() {
        TestCluster.removeRealNodeLeftovers();
        String before = TestCluster.hostState();

        TestCluster cluster = TestCluster.startWithRealNodes();
        Path directory = cluster.directory();
        List<ProcessHandle> killed;
        try {
            // A container of a pod, so the remains include a sandbox's namespace, mounts and cgroup.
            String namespace = cluster.createNamespace("leftovers");
            cluster.kubectl(
                            "run",
                            "--namespace",
                            namespace,
                            "left-behind",
                            "--image=" + cluster.nodeImage("busybox"),
                            "--restart=Never",
                            "--overrides={\"spec\":{\"nodeName\":\"" + TestCluster.SYSTEM_NODE + "\"}}",
                            "--",
                            "sleep",
                            "3600")
                    .requireSuccess();
            cluster.kubectl(
                            "wait",
                            "--namespace",
                            namespace,
                            "--for=condition=Ready",
                            "pod/left-behind",
                            "--timeout=120s")
                    .requireSuccess();
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
        killed = cluster.killEveryProcess();

        assertThat(killed)
                .as("the watcher, etcd, the control plane, containerds, kubelets, kube-proxy and CoreDNS")
                .hasSizeGreaterThanOrEqualTo(14);
        assertThat(LOCK).exists();
        assertThat(TestCluster.hostState())
                .as("the killed cluster left things behind")
                .isNotEqualTo(before);

        TestCluster.removeRealNodeLeftovers();

        assertThat(TestCluster.hostState()).isEqualTo(before);
        assertThat(LOCK).doesNotExist();
        assertThat(Files.exists(directory)).as(directory + " is removed").isFalse();
    }
}
