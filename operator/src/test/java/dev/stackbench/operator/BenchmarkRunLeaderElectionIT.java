package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.Conditions;
import dev.stackbench.api.status.Phase;
import dev.stackbench.operator.objects.K6TestRun;
import dev.stackbench.testcluster.TestCluster;
import dev.stackbench.testcluster.TestClusterExtension;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two operator replicas with leader election on the chart's Lease: one holds it and reconciles, the other takes
 * over, at once when the leader stops on purpose (it releases the Lease).
 */
@Order(4)
@ExtendWith(TestClusterExtension.class)
class BenchmarkRunLeaderElectionIT {

    private OperatorHarness harness;
    private StackbenchOperator first;
    private StackbenchOperator second;

    @BeforeEach
    void createNamespace(TestCluster cluster) {
        harness = new OperatorHarness(cluster, "leader");
        harness.stopOperator();
    }

    @AfterEach
    void stop() {
        for (StackbenchOperator operator : new StackbenchOperator[] {first, second}) {
            if (operator != null) {
                operator.close();
            }
        }
        if (harness != null) {
            harness.close();
        }
    }

    @Test
    void onlyTheLeaseHolderReconcilesAndTheOtherReplicaTakesOver() throws Exception {
        String leaseNamespace = harness.operatorNamespace();
        first = harness.newOperator(true);
        first.start();
        String leader = await("first replica holds the Lease")
                .atMost(OperatorHarness.WAIT)
                .until(() -> holder(harness, leaseNamespace), holder -> holder != null);
        second = harness.newOperator(true);
        second.start();

        // Long enough for the leader to create the TestRun on a busy machine; the run then fails on this timeout,
        // after the second replica has taken over. Its objects are kept, so the TestRuns can be counted after the end.
        harness.apply(OperatorHarness.example(
                        "elected",
                        spec -> spec.with("spec").put("timeout", "30s").put("cleanup", "Never")))
                .requireSuccess();
        harness.awaitPhase("elected", Phase.Provisioning);
        assertThat(holder(harness, leaseNamespace)).isEqualTo(leader);
        // The phase and the Events of a reconcile are two writes: either may be seen first.
        await("Events of the provisioning reconcile")
                .atMost(OperatorHarness.WAIT)
                .untilAsserted(() -> assertThat(eventReasons("elected")).contains("Provisioning"));
        assertThat(eventReasons("elected")).containsOnlyOnce("Accepted", "Provisioning");
        // The leader is stopped only once it has created the TestRun and said so, so the test shows that the replica
        // taking over finds it and creates none of its own. The Event comes also when the status write of the
        // reconcile that created the TestRun lost a conflict: its retry finds the TestRun unannounced.
        await("the leader creates the TestRun")
                .atMost(OperatorHarness.WAIT)
                .until(() -> testRuns().size(), count -> count > 0);
        await("the leader's TestRunCreated Event")
                .atMost(OperatorHarness.WAIT)
                .untilAsserted(() -> assertThat(eventReasons("elected")).contains("TestRunCreated"));
        // Events go out before the status write of the same pass (so a crash never loses one); a leader stopped
        // between the two leaves the TestRun unannounced in the status, and its successor announces it once more.
        // Stopped after the status says so, no Event may repeat.
        await("the leader's status naming the TestRun")
                .atMost(OperatorHarness.WAIT)
                .until(() -> {
                    String testRun = testRuns().get(0).getMetadata().getName();
                    BenchmarkRun run = harness.run("elected");
                    return run.getStatus() != null
                            && Conditions.find(run.getStatus().getConditions(), Conditions.LOAD_RUNNING)
                                    .map(Condition::getMessage)
                                    .filter(message -> message.contains("TestRun " + testRun + " "))
                                    .isPresent();
                });

        // The leader's own announcements are all out now (Events before the status write that names the TestRun):
        // one, or two when a status write of the creating pass lost a conflict and its retry announced it again.
        long announcedByTheLeader = eventReasons("elected").stream()
                .filter("TestRunCreated"::equals)
                .count();

        first.close();
        first = null;
        // A stop hands the Lease over: it no longer names the stopped replica (the standby may have taken it already)
        // rather than naming it until it expires.
        assertThat(holder(harness, leaseNamespace))
                .as("the Lease right after the leader's stop")
                .isNotEqualTo(leader);

        await("second replica takes the Lease")
                .atMost(OperatorHarness.WAIT)
                .until(() -> holder(harness, leaseNamespace), holder -> holder != null && !holder.equals(leader));
        harness.awaitPhase("elected", Phase.Failed);
        assertThat(testRuns()).hasSize(1);
        // The replica taking over found the TestRun announced and announced nothing of its own.
        assertThat(announcedByTheLeader).isBetween(1L, 2L);
        assertThat(eventReasons("elected").stream().filter("TestRunCreated"::equals))
                .hasSize((int) announcedByTheLeader);
    }

    private List<GenericKubernetesResource> testRuns() {
        return harness.client()
                .genericKubernetesResources(K6TestRun.CONTEXT)
                .inNamespace(harness.namespace())
                .list()
                .getItems();
    }

    private List<String> eventReasons(String run) {
        return harness.client().v1().events().inNamespace(harness.namespace()).list().getItems().stream()
                .filter(event -> run.equals(event.getInvolvedObject().getName()))
                .map(event -> event.getReason())
                .toList();
    }

    private static String holder(OperatorHarness harness, String namespace) {
        Lease lease = harness.client()
                .leases()
                .inNamespace(namespace)
                .withName(StackbenchOperator.LEASE_NAME)
                .get();
        return lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
    }
}
