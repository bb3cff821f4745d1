package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stackbench.api.comparison.BenchmarkComparison;
import dev.stackbench.api.comparison.ComparisonPhase;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.Conditions;
import dev.stackbench.api.status.Phase;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.operator.objects.K6TestRun;
import dev.stackbench.operator.run.Admission;
import dev.stackbench.testcluster.CommandResult;
import dev.stackbench.testcluster.TestCluster;
import dev.stackbench.testcluster.TestClusterExtension;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * How runs fail and wait, against the real control plane. No k6-operator (nor stand-in) runs here, so a TestRun
 * never starts: exactly the situation a timeout has to end.
 */
@Order(5)
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
        // Long enough that the run is still going when its spec is changed, also on a busy machine.
        harness.apply(OperatorHarness.example(
                        "slow", spec -> spec.with("spec").put("timeout", "30s").put("cleanup", "Never")))
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
                    spec.with("spec").put("timeout", "30s").put("cleanup", "Never");
                    ((ObjectNode) spec.at("/spec/workload/load")).put("rate", 11);
                }))
                .requireSuccess();
        // The pass that created the TestRun stores the status after it: the run may have none yet.
        await("the spec change noticed")
                .atMost(OperatorHarness.WAIT)
                .until(() -> harness.run("slow").getStatus() != null
                        && Conditions.isTrue(
                                harness.run("slow").getStatus().getConditions(), RunProgress.SPEC_CHANGE_IGNORED));

        BenchmarkRun run = harness.awaitPhase("slow", Phase.Failed);
        Condition complete = Conditions.find(run.getStatus().getConditions(), Conditions.COMPLETE)
                .orElseThrow();
        assertThat(complete.getReason()).as(complete.getMessage()).isEqualTo("TimedOut");
        assertThat(complete.getMessage()).contains("spec.timeout (30s)");
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
                    assertThat(harness.run("first").getStatus())
                            .as("status of run first")
                            .isNotNull();
                    assertThat(harness.run("second").getStatus())
                            .as("status of run second")
                            .isNotNull();
                    Phase first = harness.run("first").getStatus().getPhase();
                    Phase second = harness.run("second").getStatus().getPhase();
                    if (!first.isTerminal()) {
                        assertThat(second).isEqualTo(Phase.Queued);
                    }
                    assertThat(first).isEqualTo(Phase.Failed);
                    assertThat(second.ordinal()).isGreaterThanOrEqualTo(Phase.Provisioning.ordinal());
                });
    }

    @Test
    void anEndedRunWhosePodsAreKeptHoldsItsPoolsUntilDeletedWhateverItsPlacementSaysNow() throws Exception {
        harness.apply(OperatorHarness.example(
                        "kept", spec -> spec.with("spec").put("timeout", "12s").put("cleanup", "Never")))
                .requireSuccess();
        BenchmarkRun started = harness.awaitPhase("kept", Phase.Provisioning);
        assertThat(started.getStatus().getPools())
                .anySatisfy(pool -> assertThat(pool).contains("stackbench.dev/pool="));
        assertThat(started.getStatus().getQueuedAt()).isNotBlank();
        // Moving a running run to other nodes in its spec moves none of its pods: its pools stay taken.
        harness.apply(OperatorHarness.example("kept", spec -> {
                    spec.with("spec").put("timeout", "12s").put("cleanup", "Never");
                    for (String role : List.of("target", "backend", "loadgen")) {
                        ((ObjectNode) spec.at("/spec/placement/" + role + "/nodeSelector"))
                                .put("stackbench.dev/pool", "elsewhere-" + role);
                    }
                }))
                .requireSuccess();
        harness.apply(OperatorHarness.example("next", spec -> spec.with("spec").put("timeout", "12s")))
                .requireSuccess();
        assertThat(harness.awaitPhase("next", Phase.Queued).getStatus().getMessage())
                .contains("/kept");

        harness.awaitPhase("kept", Phase.Failed);
        // Ended, but its target, database and delay service still run on the pools (spec.cleanup: Never).
        await("next still waits for the kept pods")
                .during(Duration.ofSeconds(5))
                .atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> {
                    BenchmarkRun next = harness.run("next");
                    assertThat(next.getStatus().getPhase()).isEqualTo(Phase.Queued);
                    assertThat(next.getStatus().getMessage()).contains("has ended but whose pods are still on");
                });

        harness.client()
                .resources(BenchmarkRun.class)
                .inNamespace(harness.namespace())
                .withName("kept")
                .delete();
        BenchmarkRun next = awaitStarted("next");
        assertThat(next.getStatus().getPools()).isNotEmpty();
    }

    @Test
    void aNameTooLongForK6OperatorIsRefusedAtOnceAndASubNanosecondDurationDoesNotWedgeTheRun() throws Exception {
        String longName = "a-run-whose-name-leaves-k6-operator-no-room-xyzw";
        assertThat(longName).hasSize(48);
        // The CRD's rule refuses it at once; the operator's own check covers a cluster with an older CRD.
        CommandResult refused = harness.apply(OperatorHarness.example(longName, spec -> {}));
        assertThat(refused.exitCode()).isNotZero();
        assertThat(refused.stderr()).contains("metadata.name must be at most 47 characters");
        assertThat(Admission.nameTooLong(longName)).hasValueSatisfying(message -> assertThat(message)
                .contains("metadata.name", "48 characters long, at most 47", "shorter name"));
        assertThat(Admission.nameTooLong(longName.substring(1))).isEmpty();

        // The API server accepts "20.5ns" (it matches the duration pattern); Go and k6 drop the half nanosecond.
        harness.apply(OperatorHarness.example(
                        "fraction", spec -> ((ObjectNode) spec.at("/spec/workload")).put("warmup", "20.5ns")))
                .requireSuccess();
        BenchmarkRun fraction = awaitStarted("fraction");
        assertThat(fraction.getStatus().getMessage()).doesNotContain("could not process");
    }

    @Test
    void aComparisonWhosePreviousRunsPodIsStuckTerminatingGivesUpAfterTheLimitNamingThePod(TestCluster cluster)
            throws Exception {
        // A pod that never goes (here a finalizer; on a cluster, a node that stopped answering) would hold the
        // comparison forever; it gives up after the operator's pod limit (the target readiness limit), here 15 s.
        String finalizer = "stackbench.dev/test-hold";
        try (OperatorHarness stuck = withFifteenSecondPodLimit(cluster, "stuck")) {
            applyComparisonOfRunsThatTimeOut(stuck, "hold");
            Pod target = await("the first run's target pod")
                    .atMost(OperatorHarness.WAIT)
                    .until(
                            () -> stuck.client()
                                    .pods()
                                    .inNamespace(stuck.namespace())
                                    .withLabel(RunLabels.ROLE, RunLabels.ROLE_TARGET)
                                    .list()
                                    .getItems(),
                            pods -> pods.size() == 1)
                    .get(0);
            String pod = target.getMetadata().getName();
            try {
                stuck.client()
                        .pods()
                        .inNamespace(stuck.namespace())
                        .withName(pod)
                        .patch(PatchContext.of(PatchType.JSON_MERGE), finalizers(finalizer));

                BenchmarkComparison failed =
                        stuck.awaitComparison("hold", ComparisonPhase.Failed, Duration.ofMinutes(3));
                assertThat(failed.getStatus().getMessage())
                        .contains("gave up waiting for the 1 pod(s) of run", pod, "kubectl delete pod --force");
                assertThat(stuck.client()
                                .resources(BenchmarkRun.class)
                                .inNamespace(stuck.namespace())
                                .list()
                                .getItems())
                        .as("no run after the one whose pod is stuck")
                        .hasSize(1);
            } finally {
                stuck.client()
                        .pods()
                        .inNamespace(stuck.namespace())
                        .withName(pod)
                        .patch(PatchContext.of(PatchType.JSON_MERGE), finalizers());
            }
        }
    }

    @Test
    void aCompletedRunnerPodWaitingForGarbageCollectionDoesNotHoldTheNextRepetition(TestCluster cluster)
            throws Exception {
        // A runner that completed uses no CPU, but its object stays until the garbage collector removes the TestRun's
        // Jobs (a moment on any cluster). The next repetition must not wait for it: with a 15 s pod limit, waiting
        // would fail the comparison instead. The completed runner here is a pod no scheduler serves, marked Succeeded.
        try (OperatorHarness held = withFifteenSecondPodLimit(cluster, "held")) {
            applyComparisonOfRunsThatTimeOut(held, "gc");
            var runs = held.client().resources(BenchmarkRun.class).inNamespace(held.namespace());
            BenchmarkRun first = await("the comparison's first run")
                    .atMost(OperatorHarness.WAIT)
                    .until(() -> runs.list().getItems(), found -> !found.isEmpty())
                    .getFirst();
            String testRun = RunLabels.testRunName(first);
            var pods = held.client().pods().inNamespace(held.namespace());
            pods.resource(new PodBuilder()
                            .withNewMetadata()
                            .withName(testRun + "-1-done")
                            .withLabels(RunLabels.runnerPods(testRun))
                            .endMetadata()
                            .withNewSpec()
                            .withSchedulerName("no-scheduler-serves-this")
                            .addNewContainer()
                            .withName("k6")
                            .withImage("grafana/k6")
                            .endContainer()
                            .endSpec()
                            .build())
                    .create();
            Pod completed = pods.withName(testRun + "-1-done").get();
            completed.setStatus(new PodStatusBuilder().withPhase("Succeeded").build());
            pods.resource(completed).updateStatus();

            List<BenchmarkRun> all = await("a second run of the comparison")
                    .atMost(OperatorHarness.WAIT)
                    .until(() -> runs.list().getItems(), found -> found.size() > 1 || comparisonFailed(held, "gc"));
            assertThat(all)
                    .as("runs of the comparison (its status: %s)", comparisonStatus(held, "gc"))
                    .hasSizeGreaterThan(1);
            assertThat(pods.withName(testRun + "-1-done").get())
                    .as("the first run's completed runner, still there")
                    .isNotNull()
                    .extracting(pod -> pod.getStatus().getPhase())
                    .isEqualTo("Succeeded");
        }
    }

    @Test
    void aRunCreatedAgainUnderTheSameNameNeverTakesOverTheObjectsOfTheOneBefore() throws Exception {
        String finalizer = "stackbench.dev/test-hold";
        harness.apply(OperatorHarness.example("again", spec -> {})).requireSuccess();
        var deployments = harness.client().apps().deployments().inNamespace(harness.namespace());
        await("the first run's target")
                .atMost(OperatorHarness.WAIT)
                .until(() -> deployments.withName("again-target").get() != null);
        String firstUid = harness.run("again").getMetadata().getUid();
        // The garbage collector cannot remove the first run's target until the finalizer goes: it lingers, owned by
        // a run that no longer exists, as it does for a moment on any cluster.
        // Patches, not edits: the Deployment controller writes the object meanwhile.
        deployments.withName("again-target").patch(PatchContext.of(PatchType.JSON_MERGE), finalizers(finalizer));
        try {
            harness.client()
                    .resources(BenchmarkRun.class)
                    .inNamespace(harness.namespace())
                    .withName("again")
                    .delete();
            await("the first run gone").atMost(OperatorHarness.WAIT).until(() -> harness.run("again") == null);
            harness.apply(OperatorHarness.example("again", spec -> {})).requireSuccess();

            BenchmarkRun waiting = await("the second run waits for the first one's objects")
                    .atMost(OperatorHarness.WAIT)
                    .until(
                            () -> harness.run("again"),
                            run -> run.getStatus() != null
                                    && run.getStatus().getMessage() != null
                                    && run.getStatus().getMessage().contains("earlier BenchmarkRun named again"));
            assertThat(waiting.getMetadata().getUid()).isNotEqualTo(firstUid);
            assertThat(waiting.getStatus().getMessage()).contains("deployment/again-target");
            assertThat(deployments.withName("again-target").get().getMetadata().getOwnerReferences())
                    .extracting(owner -> owner.getUid())
                    .containsExactly(firstUid);
        } finally {
            deployments.withName("again-target").patch(PatchContext.of(PatchType.JSON_MERGE), finalizers());
        }
        String secondUid = harness.run("again").getMetadata().getUid();
        await("the second run's own target").atMost(OperatorHarness.WAIT).untilAsserted(() -> assertThat(
                        deployments.withName("again-target").get())
                .isNotNull()
                .satisfies(d -> assertThat(d.getMetadata().getOwnerReferences())
                        .extracting(owner -> owner.getUid())
                        .containsExactly(secondUid)));
    }

    /** A merge patch that sets an object's finalizers to exactly these. */
    private static OperatorHarness withFifteenSecondPodLimit(TestCluster cluster, String prefix) {
        return new OperatorHarness(cluster, prefix, settings -> settings.withTargetReadyLimit(Duration.ofSeconds(15)));
    }

    /** Three rounds of two variants whose runs end after 12 s (no k6-operator serves this class's TestRuns). */
    private static void applyComparisonOfRunsThatTimeOut(OperatorHarness harness, String name) throws Exception {
        harness.apply(OperatorHarness.comparison(
                        name,
                        3,
                        List.of(Map.of("variant", "webflux-r2dbc"), Map.of("variant", "mvc-jdbc")),
                        root -> ((ObjectNode) root.at("/spec/template")).put("timeout", "12s")))
                .requireSuccess();
    }

    private static BenchmarkComparison comparison(OperatorHarness harness, String name) {
        return harness.client()
                .resources(BenchmarkComparison.class)
                .inNamespace(harness.namespace())
                .withName(name)
                .get();
    }

    private static boolean comparisonFailed(OperatorHarness harness, String name) {
        BenchmarkComparison comparison = comparison(harness, name);
        return comparison != null
                && comparison.getStatus() != null
                && comparison.getStatus().getPhase() == ComparisonPhase.Failed;
    }

    private static String comparisonStatus(OperatorHarness harness, String name) {
        BenchmarkComparison comparison = comparison(harness, name);
        return comparison == null || comparison.getStatus() == null
                ? "none"
                : comparison.getStatus().getPhase() + ": "
                        + comparison.getStatus().getMessage();
    }

    private static String finalizers(String... finalizers) {
        return "{\"metadata\":{\"finalizers\":["
                + String.join(
                        ",",
                        java.util.Arrays.stream(finalizers)
                                .map(f -> "\"" + f + "\"")
                                .toList()) + "]}}";
    }

    /** The run took its pools: Provisioning or any later phase but Failed. */
    private BenchmarkRun awaitStarted(String name) {
        return await(name + " started")
                .atMost(OperatorHarness.WAIT)
                .pollInterval(Duration.ofMillis(250))
                .until(() -> harness.run(name), run -> {
                    Phase phase =
                            run.getStatus() == null ? null : run.getStatus().getPhase();
                    assertThat(phase)
                            .as(name + ": "
                                    + (run.getStatus() == null
                                            ? ""
                                            : run.getStatus().getMessage()))
                            .isNotEqualTo(Phase.Failed);
                    return phase != null && phase.ordinal() >= Phase.Provisioning.ordinal();
                });
    }

    @Test
    void aRefusedCreateStallsTheRunAsForbiddenNamingTheRightAndItGoesOnOnceGranted() throws Exception {
        KubernetesClient client = harness.client();
        var role = client.rbac().roles().inNamespace(harness.namespace()).withName(harness.operatorRole());
        List<PolicyRule> granted = role.get().getRules();
        List<PolicyRule> withoutCreatingDeployments = granted.stream()
                .map(rule -> rule.getResources().contains("deployments")
                        ? new PolicyRuleBuilder(rule)
                                .withVerbs(rule.getVerbs().stream()
                                        .filter(verb -> !"create".equals(verb))
                                        .toList())
                                .build()
                        : rule)
                .toList();
        role.edit(r -> new RoleBuilder(r).withRules(withoutCreatingDeployments).build());
        harness.awaitOperatorRight("create", "deployments.apps", false);

        harness.apply(OperatorHarness.example("refused", spec -> {})).requireSuccess();

        BenchmarkRun stalled = await("run refused stalled on the missing right")
                .atMost(OperatorHarness.WAIT)
                .until(
                        () -> harness.run("refused"),
                        run -> run.getStatus() != null
                                && Conditions.isTrue(run.getStatus().getConditions(), RunProgress.STALLED));
        Condition forbidden = Conditions.find(stalled.getStatus().getConditions(), RunProgress.STALLED)
                .orElseThrow();
        assertThat(forbidden.getReason()).isEqualTo("Forbidden");
        assertThat(forbidden.getMessage())
                .contains("the right to create deployments", "API group \"apps\"", "Grant that right");
        assertThat(stalled.getStatus().getPhase()).isEqualTo(Phase.Provisioning);
        assertThat(stalled.getStatus().getMessage()).isEqualTo(forbidden.getMessage());
        // Events are recorded right after the status is stored.
        await("a Forbidden warning on run refused").atMost(OperatorHarness.WAIT).untilAsserted(() -> assertThat(
                        client.v1()
                                .events()
                                .inNamespace(harness.namespace())
                                .list()
                                .getItems())
                .anySatisfy(event -> {
                    assertThat(event.getReason()).isEqualTo("Forbidden");
                    assertThat(event.getType()).isEqualTo("Warning");
                    assertThat(event.getInvolvedObject().getName()).isEqualTo("refused");
                    assertThat(event.getMessage()).contains("create deployments");
                }));
        assertThat(deploymentsOf("refused")).isEmpty();

        role.edit(r -> new RoleBuilder(r).withRules(granted).build());

        await("the run goes on once the right is granted")
                .atMost(OperatorHarness.WAIT)
                .untilAsserted(() -> {
                    BenchmarkRun run = harness.run("refused");
                    assertThat(Conditions.find(run.getStatus().getConditions(), RunProgress.STALLED))
                            .hasValueSatisfying(condition -> {
                                assertThat(condition.getStatus()).isEqualTo(Conditions.FALSE);
                                assertThat(condition.getReason()).isEqualTo("PermissionGranted");
                            });
                    assertThat(run.getStatus().getMessage()).doesNotContain("refused the operator");
                    assertThat(deploymentsOf("refused"))
                            .extracting(deployment -> deployment.getMetadata().getName())
                            .containsExactlyInAnyOrder("refused-db", "refused-target", "refused-delay");
                });
    }

    @Test
    void anObjectTheApiServerRefusesFailsTheRunAtOnceAndTheNextRunGetsThePools() throws Exception {
        // first holds the pools until it times out; invalid and next queue behind it, in that order.
        harness.apply(OperatorHarness.example("first", spec -> spec.with("spec").put("timeout", "12s")))
                .requireSuccess();
        harness.awaitPhase("first", Phase.Provisioning);
        // A node selector value that is no label value: the CRD has no rule on it, the Deployment's validation has.
        harness.apply(OperatorHarness.example(
                        "invalid", spec -> ((ObjectNode) spec.at("/spec/placement/target/nodeSelector"))
                                .put("stackbench.dev/tier", "not valid!")))
                .requireSuccess();
        BenchmarkRun queued = harness.awaitPhase("invalid", Phase.Queued);
        assertThat(queued.getStatus().getMessage()).contains("/first");
        harness.apply(OperatorHarness.example("next", spec -> {})).requireSuccess();
        harness.awaitPhase("next", Phase.Queued);

        BenchmarkRun invalid = harness.awaitPhase("invalid", Phase.Failed);

        Condition complete = Conditions.find(invalid.getStatus().getConditions(), Conditions.COMPLETE)
                .orElseThrow();
        assertThat(complete.getReason()).isEqualTo("RejectedByApiServer");
        assertThat(complete.getMessage())
                .contains(
                        "the Deployment invalid-target",
                        "spec.template.spec.nodeSelector",
                        "not valid!",
                        "It comes from spec.placement.target.nodeSelector");
        assertThat(invalid.getStatus().getMessage()).isEqualTo(complete.getMessage());
        assertThat(harness.run("first").getStatus().getPhase()).isEqualTo(Phase.Failed);

        BenchmarkRun next = harness.awaitPhase("next", Phase.Provisioning);
        assertThat(Conditions.isTrue(next.getStatus().getConditions(), RunProgress.POOLS_AVAILABLE))
                .isTrue();
        await("what the refused run created is deleted")
                .atMost(OperatorHarness.WAIT)
                .untilAsserted(() -> {
                    assertThat(Conditions.find(
                                    harness.run("invalid").getStatus().getConditions(), RunProgress.CLEANED_UP))
                            .hasValueSatisfying(
                                    cleaned -> assertThat(cleaned.getStatus()).isEqualTo(Conditions.TRUE));
                    assertThat(deploymentsOf("invalid")).isEmpty();
                    assertThat(harness.client()
                                    .services()
                                    .inNamespace(harness.namespace())
                                    .withLabel(RunLabels.RUN, "invalid")
                                    .list()
                                    .getItems())
                            .isEmpty();
                    assertThat(harness.client()
                                    .configMaps()
                                    .inNamespace(harness.namespace())
                                    .withLabel(RunLabels.RUN, "invalid")
                                    .list()
                                    .getItems())
                            .isEmpty();
                });
        assertThat(harness.client().v1().events().inNamespace(harness.namespace()).list().getItems().stream()
                        .filter(event ->
                                "invalid".equals(event.getInvolvedObject().getName())
                                        && "RejectedByApiServer".equals(event.getReason())))
                .as("the refusal is reported once, not retried")
                .hasSize(1);
    }

    private List<Deployment> deploymentsOf(String run) {
        return harness.client()
                .apps()
                .deployments()
                .inNamespace(harness.namespace())
                .withLabel(RunLabels.RUN, run)
                .list()
                .getItems();
    }
}
