package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.Conditions;
import dev.stackbench.api.Phase;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.testcluster.TestCluster;
import dev.stackbench.testcluster.TestClusterExtension;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * How runs fail and wait, against the real control plane. No k6-operator (nor stand-in) runs here, so a TestRun
 * never starts: exactly the situation a timeout has to end.
 */
@ExtendWith(TestClusterExtension.class)
class BenchmarkRunFailuresIT {

    private OperatorHarness harness;

    @BeforeEach
    void startOperator(TestCluster cluster) {
        harness = new OperatorHarness(cluster, "failures");
    }

    @AfterEach
    void stopOperator() {
        if (harness != null) {
            harness.close();
        }
    }

    @Test
    void aVariantMissingFromTheCatalogueFailsTheRunListingTheKnownOnes() throws Exception {
        harness.apply(OperatorHarness.example("unknown-variant", spec -> ((ObjectNode) spec.at("/spec/target"))
                        .put("variant", "quarkus-reactive")))
                .requireSuccess();

        BenchmarkRun run = harness.awaitPhase("unknown-variant", Phase.Failed);

        Condition complete = Conditions.find(run.getStatus().getConditions(), Conditions.COMPLETE)
                .orElseThrow();
        assertThat(complete.getReason()).isEqualTo("InvalidSpec");
        assertThat(complete.getMessage())
                .contains("spec.target.variant", "quarkus-reactive", "webflux-r2dbc", "mvc-jdbc");
        assertThat(harness.client()
                        .apps()
                        .deployments()
                        .inNamespace(harness.namespace())
                        .list()
                        .getItems())
                .isEmpty();
    }

    @Test
    void aTargetThatNeverBecomesReadyFailsTheRunNamingThePodsProblem() throws Exception {
        harness.apply(OperatorHarness.example("unschedulable", spec -> {
                    spec.with("spec").put("timeout", "30s");
                    ((ObjectNode) spec.at("/spec/placement/target/nodeSelector"))
                            .put("stackbench.dev/pool", "no-such-pool");
                }))
                .requireSuccess();

        BenchmarkRun run = harness.awaitPhase("unschedulable", Phase.Failed);

        Condition complete = Conditions.find(run.getStatus().getConditions(), Conditions.COMPLETE)
                .orElseThrow();
        assertThat(complete.getReason()).isEqualTo("TargetNotReady");
        assertThat(complete.getMessage()).contains("unschedulable-target", "cannot be scheduled", "spec.placement");
        assertThat(Conditions.find(run.getStatus().getConditions(), Conditions.TARGET_READY))
                .hasValueSatisfying(ready -> assertThat(ready.getStatus()).isEqualTo(Conditions.FALSE));
        assertThat(run.getStatus().getStartedAt()).isNull();
    }

    @Test
    void aRunThatDoesNotFinishInTimeFailsAsTimedOutAndIgnoresSpecChangesOnTheWay() throws Exception {
        harness.apply(OperatorHarness.example(
                        "slow", spec -> spec.with("spec").put("timeout", "12s").put("cleanup", "Never")))
                .requireSuccess();
        await("the TestRun of run slow")
                .atMost(OperatorHarness.WAIT)
                .until(() -> harness.client()
                                .genericKubernetesResources(K6TestRun.CONTEXT)
                                .inNamespace(harness.namespace())
                                .withName("slow-k6")
                                .get()
                        != null);

        harness.apply(OperatorHarness.example("slow", spec -> {
                    spec.with("spec").put("timeout", "12s").put("cleanup", "Never");
                    ((ObjectNode) spec.at("/spec/workload/load")).put("rate", 11);
                }))
                .requireSuccess();
        await("the spec change noticed")
                .atMost(OperatorHarness.WAIT)
                .until(() -> Conditions.isTrue(
                        harness.run("slow").getStatus().getConditions(), RunProgress.SPEC_CHANGE_IGNORED));

        BenchmarkRun run = harness.awaitPhase("slow", Phase.Failed);
        Condition complete = Conditions.find(run.getStatus().getConditions(), Conditions.COMPLETE)
                .orElseThrow();
        assertThat(complete.getReason()).as(complete.getMessage()).isEqualTo("TimedOut");
        assertThat(complete.getMessage()).contains("spec.timeout (12s)");
        assertThat(Conditions.find(run.getStatus().getConditions(), RunProgress.SPEC_CHANGE_IGNORED))
                .hasValueSatisfying(
                        ignored -> assertThat(ignored.getMessage()).contains("generation 2", "generation 1"));
        String recordedSpec = harness.client()
                .configMaps()
                .inNamespace(harness.namespace())
                .withName("slow-k6-script")
                .get()
                .getData()
                .get("spec.yaml");
        assertThat(recordedSpec).contains("rate: 10").doesNotContain("rate: 11");
    }

    @Test
    void aSecondRunOnTheSamePoolsWaitsInQueuedUntilTheFirstEnds() throws Exception {
        harness.apply(OperatorHarness.example("first", spec -> spec.with("spec").put("timeout", "12s")))
                .requireSuccess();
        harness.awaitPhase("first", Phase.Provisioning);
        harness.apply(OperatorHarness.example(
                        "second", spec -> spec.with("spec").put("timeout", "12s")))
                .requireSuccess();

        BenchmarkRun queued = harness.awaitPhase("second", Phase.Queued);
        assertThat(queued.getStatus().getMessage()).contains("/first", "stackbench.dev/pool=");
        assertThat(Conditions.find(queued.getStatus().getConditions(), RunProgress.POOLS_AVAILABLE))
                .hasValueSatisfying(pools -> {
                    assertThat(pools.getStatus()).isEqualTo(Conditions.FALSE);
                    assertThat(pools.getReason()).isEqualTo("WaitingForPool");
                });
        assertThat(harness.client()
                        .apps()
                        .deployments()
                        .inNamespace(harness.namespace())
                        .withLabel(RunLabels.RUN, "second")
                        .list()
                        .getItems())
                .isEmpty();

        await("second waits while first holds the pools, then starts")
                .atMost(OperatorHarness.WAIT)
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> {
                    Phase first = harness.run("first").getStatus().getPhase();
                    Phase second = harness.run("second").getStatus().getPhase();
                    if (!first.isTerminal()) {
                        assertThat(second).isEqualTo(Phase.Queued);
                    }
                    assertThat(first).isEqualTo(Phase.Failed);
                    assertThat(second.ordinal()).isGreaterThanOrEqualTo(Phase.Provisioning.ordinal());
                });
    }
}
