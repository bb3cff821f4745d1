package dev.stackbench.testcluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * A real-node cluster killed with everything it started (the watcher too, as when a machine kills a test run and
 * all its children) leaves its bridge, mounts, namespaces, cgroups, chains, ip sets and a running pod behind.
 * {@code hack/cluster.sh leftovers} must undo all of it, so the next cluster, and the host-state check of
 * {@code RealNodesE2E}, find the machine as it was, and nothing more: the iptables chain of another Kubernetes on
 * the machine (a KUBE-* chain the cluster did not create) stays.
 */
@Order(1)
class RealNodeLeftoversE2E {

    private static final Path LOCK = Path.of("/run/stackbench-real-nodes");

    /** A chain as another Kubernetes on this machine would have it, with a rule of FORWARD that jumps to it. */
    private static final String FOREIGN_CHAIN = "KUBE-FOREIGN-STACKBENCH-TEST";

    private static final List<String> FOREIGN_JUMP =
            List.of("FORWARD", "-m", "comment", "--comment", "not the test cluster's", "-j", FOREIGN_CHAIN);

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
        iptables("-N", FOREIGN_CHAIN).requireSuccess();
        try {
            iptables("-A", FOREIGN_JUMP).requireSuccess();
            killedClusterLeavesNothingButWhatWasThere();
        } finally {
            iptables("-D", FOREIGN_JUMP);
            iptables("-X", FOREIGN_CHAIN);
        }
    }

    private static CommandResult iptables(String action, List<String> rule) {
        List<String> args = new ArrayList<>(List.of(action));
        args.addAll(rule);
        return iptables(args.toArray(String[]::new));
    }

    private static CommandResult iptables(String... args) {
        List<String> command = new ArrayList<>(List.of("iptables", "-t", "filter"));
        command.addAll(List.of(args));
        return CommandResult.run(command, null, Duration.ofSeconds(30), Path.of("."));
    }

    private void killedClusterLeavesNothingButWhatWasThere() {
        // Taken with the foreign chain in place: the state after the removal must still hold it.
        String before = TestCluster.hostState();
        assertThat(before).contains(FOREIGN_CHAIN);

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
            // A NetworkPolicy on the pod, so the enforcer's pod chains and ip sets are among the remains.
            cluster.kubectlWithInput(
                            "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: deny-all}\n"
                                    + "spec: {podSelector: {}, policyTypes: [Ingress, Egress]}\n",
                            "apply",
                            "--namespace",
                            namespace,
                            "-f",
                            "-")
                    .requireSuccess();
            await("the enforcer's chain of the policy")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> iptables("-S").stdout().contains("-N KUBE-NWPLCY-"));
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
