package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.Conditions;
import dev.stackbench.api.status.Phase;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.k6.K6SummaryParser;
import dev.stackbench.k6.RunnerSummary;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.operator.objects.K6ScriptConfigMap;
import dev.stackbench.operator.objects.K6TestRun;
import dev.stackbench.operator.run.SteppedLoadStage;
import dev.stackbench.testcluster.CommandResult;
import dev.stackbench.testcluster.MeasuresOnAQuietMachine;
import dev.stackbench.testcluster.QuietMethodsLast;
import dev.stackbench.testcluster.TestCluster;
import dev.stackbench.testcluster.TestClusterExtension;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Whole runs through the real control plane: the operator in-process, k6-operator played by
 * {@link K6OperatorStandIn} (k6-operator cannot be built here) whose runners are real k6 processes sending load to a
 * real webflux-r2dbc target on 127.0.0.1, their output read back through the real pod log API.
 */
@Order(12)
@ExtendWith(TestClusterExtension.class)
@TestMethodOrder(QuietMethodsLast.class)
class BenchmarkRunLoadIT {

    /** examples/webflux-r2dbc.yaml's scenario: upstream 300 ms, then pg_sleep 100 ms. */
    private static final double NOMINAL_MS = 400;

    private static final double WARMUP_PLUS_DURATION_SECONDS = 6;

    private static TestCluster cluster;
    private static LocalTargetStack target;
    private OperatorHarness harness;
    private K6OperatorStandIn k6Operator;

    @BeforeAll
    static void startTarget(TestCluster sharedCluster) {
        cluster = sharedCluster;
        target = new LocalTargetStack();
    }

    @AfterAll
    static void stopTarget() {
        if (target != null) {
            target.close();
        }
    }

    @BeforeEach
    void startOperator() {
        harness = new OperatorHarness(cluster, "load");
        k6Operator = new K6OperatorStandIn(cluster, harness.namespace(), target.baseUrl());
    }

    @AfterEach
    void stopOperator() {
        if (k6Operator != null) {
            k6Operator.close();
        }
        if (harness != null) {
            harness.close();
        }
    }

    @Test
    @MeasuresOnAQuietMachine
    void runsTheExampleOnItsPoolsAndReportsWhatK6Measured() throws Exception {
        Instant applied = Instant.now();
        harness.apply(OperatorHarness.example("r2dbc", spec -> spec.with("spec").put("cleanup", "Never")))
                .requireSuccess();

        BenchmarkRun run = harness.awaitPhase("r2dbc", Phase.Succeeded);
        double overheadSeconds =
                Duration.between(applied, Instant.now()).toMillis() / 1000.0 - WARMUP_PLUS_DURATION_SECONDS;
        recordMeasurement("apply-to-Succeeded overhead beyond warmup+duration (s): " + overheadSeconds);
        // What limited it, judged by the operator from the same inputs as local mode.
        assertThat(run.getStatus().getSummary().getLimitedBy()).isNotNull();
        assertThat(run.getStatus().getSummary().getLimitedBy().getResource()).isNotBlank();
        recordMeasurement(
                "limitedBy: " + run.getStatus().getSummary().getLimitedBy().getResource() + " "
                        + run.getStatus().getSummary().getLimitedBy().getEvidence());
        // Where the time went, in the status: the run's events and its pods' moments, in time order.
        assertThat(run.getStatus().getTimeline())
                .extracting(dev.stackbench.api.status.TimelineEntry::getWhat)
                .contains(
                        "Accepted",
                        "TargetReady",
                        "LoadRunning",
                        "RunSucceeded",
                        "delay-service created",
                        "target created",
                        "target Ready",
                        "k6 runner 1 created",
                        "k6 runner 2 finished");
        recordSortedTimeline("timeline: ", run);

        KubernetesClient client = harness.client();
        String namespace = harness.namespace();
        assertThat(podsOf(client, namespace, Map.of(RunLabels.RUN, "r2dbc", RunLabels.ROLE, "delay-service")))
                .singleElement()
                .satisfies(pod -> assertThat(pod.getSpec().getNodeName()).isEqualTo(TestCluster.BACKEND_NODE));
        assertThat(podsOf(client, namespace, Map.of(RunLabels.RUN, "r2dbc", RunLabels.ROLE, "target")))
                .singleElement()
                .satisfies(pod -> assertThat(pod.getSpec().getNodeName()).isEqualTo(TestCluster.TARGET_NODE));
        List<Pod> runners = podsOf(client, namespace, RunLabels.runnerPods("r2dbc-k6"));
        assertThat(runners)
                .hasSize(2)
                .allSatisfy(pod -> assertThat(pod.getSpec().getNodeName()).isIn(TestCluster.LOADGEN_NODES));
        assertThat(client.batch()
                        .v1()
                        .jobs()
                        .inNamespace(namespace)
                        .withName("r2dbc-k6-initializer")
                        .get())
                .as("no k6-operator initializer for a generated script")
                .isNull();
        assertThat(client.pods()
                        .inNamespace(namespace)
                        .withLabel("job-name", "r2dbc-k6-starter")
                        .list()
                        .getItems())
                .as("k6-operator's starter, which tolerates no taint")
                .singleElement()
                .satisfies(pod -> assertThat(pod.getSpec().getNodeName()).isEqualTo(TestCluster.SYSTEM_NODE));
        GenericKubernetesResource testRun = client.genericKubernetesResources(K6TestRun.CONTEXT)
                .inNamespace(namespace)
                .withName("r2dbc-k6")
                .get();
        Object runnerNodeSelector = testRun.get("spec", "runner", "nodeSelector");
        Object parallelism = testRun.get("spec", "parallelism");
        assertThat(runnerNodeSelector).isEqualTo(Map.of("stackbench.dev/pool", "loadgen"));
        assertThat(parallelism).isEqualTo(2);

        RunSummary summary = run.getStatus().getSummary();
        List<RunnerSummary> k6Said =
                k6Operator.runnerOutputs().stream().map(K6SummaryParser::parse).toList();
        assertThat(k6Said).hasSize(2);
        assertThat(summary.getRunners()).isEqualTo(2);
        assertThat(summary.getRequests())
                .isPositive()
                .isEqualTo(k6Said.stream().mapToLong(RunnerSummary::requests).sum());
        assertThat(summary.getFailedRequests())
                .isEqualTo(
                        k6Said.stream().mapToLong(RunnerSummary::failedRequests).sum());
        assertThat(summary.getErrorRate()).isZero();
        // Every request waited 300 ms upstream plus 100 ms in PostgreSQL on the real target.
        assertThat(summary.getLatencyMs().getP50()).isGreaterThanOrEqualTo(NOMINAL_MS);
        assertThat(summary.getLatencyMs().getMax())
                .isGreaterThanOrEqualTo(summary.getLatencyMs().getP95());
        assertThat(run.getStatus().getEnvironment().getNodeNames()).containsExactly(TestCluster.TARGET_NODE);
        assertThat(run.getStatus().getEnvironment().getCpuLimit()).isEqualTo("1");
        assertThat(run.getStatus().getEnvironment().getImages()).containsEntry("target", "stackbench/webflux-app:it");
        assertThat(summary.getWarnings())
                .anySatisfy(warning -> assertThat(warning).startsWith("target metrics unavailable"));
        // Without scrapes there are no server-side figures, only the reason.
        assertThat(summary.getServer().getUnavailableReason())
                .startsWith("the operator has no scrape of the target's /actuator/prometheus");
        assertThat(summary.getServer().getRps()).isNull();
        assertThat(run.getStatus().getObservedGeneration())
                .isEqualTo(run.getMetadata().getGeneration());
        assertThat(run.getStatus().getConditions())
                .extracting(c -> c.getType() + "=" + c.getStatus())
                .contains(
                        Conditions.TARGET_READY + "=True",
                        Conditions.RESULTS_COLLECTED + "=True",
                        Conditions.COMPLETE + "=True");
        await("cleanup decision of run r2dbc").atMost(OperatorHarness.WAIT).untilAsserted(() -> assertThat(
                        Conditions.find(harness.run("r2dbc").getStatus().getConditions(), RunProgress.CLEANED_UP))
                .hasValueSatisfying(kept -> assertThat(kept.getReason()).isEqualTo("KeptByPolicy")));
        // Events follow the status write of the reconcile that records them.
        await("Events of run r2dbc").atMost(OperatorHarness.WAIT).untilAsserted(() -> assertThat(
                        client.v1().events().inNamespace(namespace).list().getItems().stream()
                                .filter(event ->
                                        "r2dbc".equals(event.getInvolvedObject().getName()))
                                .map(event -> event.getReason())
                                .toList())
                .contains("Accepted", "Provisioning", "TargetReady", "Running", "Collecting", "RunSucceeded"));

        CommandResult table = cluster.kubectl("get", "benchmarkruns", "--namespace", namespace)
                .requireSuccess();
        Map<String, String> row = tableRow(table.stdout());
        assertThat(row.keySet())
                .containsExactlyInAnyOrder(
                        "NAME",
                        "VARIANT",
                        "PHASE",
                        "RPS",
                        "P95(MS)",
                        "ERRORS",
                        "THREADS",
                        "CAPACITY",
                        "LIMITED-BY",
                        "LIVE",
                        "AGE");
        assertThat(row.get("NAME")).isEqualTo("r2dbc");
        assertThat(row.get("VARIANT")).isEqualTo("webflux-r2dbc");
        assertThat(row.get("PHASE")).isEqualTo("Succeeded");
        assertThat(Double.parseDouble(row.get("RPS"))).isEqualTo(summary.getRps());
        assertThat(Double.parseDouble(row.get("P95(MS)")))
                .isEqualTo(summary.getLatencyMs().getP95());
        assertThat(Double.parseDouble(row.get("ERRORS"))).isZero();
        // kwok's pods have no reachable IP, so the target's metrics cannot be scraped in this cluster.
        assertThat(row.get("THREADS")).isEmpty();
        assertThat(row.get("AGE")).matches("[0-9]+[smh].*");
        recordMeasurement("kubectl get benchmarkruns:\n" + table.stdout());
    }

    @Test
    void cleanupAlwaysDeletesEverythingTheRunCreatedButKeepsTheResults() throws Exception {
        harness.apply(OperatorHarness.example("cleaned", spec -> {})).requireSuccess();

        harness.awaitPhase("cleaned", Phase.Succeeded);

        KubernetesClient client = harness.client();
        String namespace = harness.namespace();
        await("everything of run cleaned deleted").atMost(OperatorHarness.WAIT).untilAsserted(() -> {
            assertThat(client.apps().deployments().inNamespace(namespace).list().getItems())
                    .isEmpty();
            assertThat(client.services().inNamespace(namespace).list().getItems())
                    .isEmpty();
            // All but the results the run keeps for its report (RunArtifacts), which go with the run.
            assertThat(client.configMaps()
                            .inNamespace(namespace)
                            .withLabel(RunLabels.RUN)
                            .list()
                            .getItems())
                    .extracting(configMap -> configMap.getMetadata().getName())
                    .containsExactly(RunArtifacts.name(harness.run("cleaned")));
            assertThat(client.genericKubernetesResources(K6TestRun.CONTEXT)
                            .inNamespace(namespace)
                            .list()
                            .getItems())
                    .isEmpty();
            assertThat(client.batch().v1().jobs().inNamespace(namespace).list().getItems())
                    .isEmpty();
            assertThat(client.pods().inNamespace(namespace).list().getItems()).isEmpty();
        });
        // The condition is written after the deletions: on a busy machine the status can lag the objects' removal.
        BenchmarkRun run = await("CleanedUp in the status of run cleaned")
                .atMost(OperatorHarness.WAIT)
                .until(() -> harness.run("cleaned"), current -> Conditions.find(
                                current.getStatus().getConditions(), RunProgress.CLEANED_UP)
                        .isPresent());
        assertThat(run.getStatus().getSummary().getRequests()).isPositive();
        assertThat(Conditions.find(run.getStatus().getConditions(), RunProgress.CLEANED_UP))
                .hasValueSatisfying(
                        condition -> assertThat(condition.getReason()).isEqualTo("Deleted"));
        // The kept results: the script and the runner's summary, said so in their index.
        io.fabric8.kubernetes.api.model.ConfigMap kept = client.configMaps()
                .inNamespace(namespace)
                .withName(RunArtifacts.name(run))
                .get();
        assertThat(kept.getBinaryData()).containsKeys("k6-script.js", "k6-summary-1.json");
        assertThat(kept.getData().get(RunArtifacts.INDEX_KEY)).contains("kept k6-script.js");
        assertThat(kept.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> assertThat(
                        owner.getUid())
                .isEqualTo(run.getMetadata().getUid()));
    }

    @Test
    void aRunWhoseStatusWritesMeetConflictsStillHasEveryEventInItsTimeline() throws Exception {
        harness.apply(OperatorHarness.example("contended", spec -> {})).requireSuccess();
        KubernetesClient client = harness.client();
        String namespace = harness.namespace();
        // Every patch of an annotation gives the run a new resourceVersion (no new generation, so no reconcile): a pass
        // that read the run before it has its status write refused and is repeated on fresh data. Until the run has
        // succeeded: its cleanup's passes, slower than the patches come, would be repeated for a long time.
        java.util.concurrent.atomic.AtomicInteger patches = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        Thread poker = Thread.ofVirtual().start(() -> {
            Instant until = Instant.now().plus(OperatorHarness.WAIT);
            while (!stop.get() && Instant.now().isBefore(until) && patches.get() < 2_000) {
                try {
                    client.resources(BenchmarkRun.class)
                            .inNamespace(namespace)
                            .withName("contended")
                            .edit(run -> {
                                run.getMetadata()
                                        .setAnnotations(Map.of("test.stackbench.dev/poke", patches.toString()));
                                return run;
                            });
                    patches.incrementAndGet();
                    Thread.sleep(150);
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    // The test's own edit met a conflict with the operator's write: the next one follows.
                }
            }
        });
        try {
            harness.awaitPhase("contended", Phase.Succeeded);
        } finally {
            stop.set(true);
            poker.join();
        }
        BenchmarkRun run = await("CleanedUp in the status of run contended")
                .atMost(OperatorHarness.WAIT)
                .until(() -> harness.run("contended"), current -> Conditions.find(
                                current.getStatus().getConditions(), RunProgress.CLEANED_UP)
                        .isPresent());
        recordMeasurement("run contended: " + patches.get() + " annotation patches while it ran");
        assertThat(patches.get()).as("patches that raced the operator's writes").isGreaterThan(20);

        // Events are published before the status write, so a refused write leaves them; the timeline has them too.
        String uid = run.getMetadata().getUid();
        Set<String> reasons = client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(event -> uid.equals(event.getInvolvedObject().getUid()))
                .map(io.fabric8.kubernetes.api.model.Event::getReason)
                .collect(java.util.stream.Collectors.toSet());
        assertThat(reasons).contains("Accepted", "TestRunCreated", "TargetReady", "RunSucceeded");
        assertThat(run.getStatus().getTimeline())
                .extracting(dev.stackbench.api.status.TimelineEntry::getWhat)
                .containsAll(reasons);
        recordSortedTimeline("timeline of run contended: ", run);
    }

    @Test
    void anOperatorRestartedMidRunFinishesTheRunWithoutASecondTestRun() throws Exception {
        harness.apply(OperatorHarness.example("restarted", spec -> {
                    spec.with("spec").put("cleanup", "Never");
                    ((ObjectNode) spec.at("/spec/workload")).put("duration", "6s");
                }))
                .requireSuccess();
        harness.awaitPhase("restarted", Phase.Running);
        KubernetesClient client = harness.client();
        String uid = client.genericKubernetesResources(K6TestRun.CONTEXT)
                .inNamespace(harness.namespace())
                .withName("restarted-k6")
                .get()
                .getMetadata()
                .getUid();

        harness.stopOperator();
        // As if the status write that recorded TargetReady with the TestRun had lost a conflict (409): the TestRun
        // stays, the run's status still says it waits for the target.
        BenchmarkRun stopped = harness.run("restarted");
        stopped.getStatus()
                .getConditions()
                .replaceAll(condition -> Conditions.TARGET_READY.equals(condition.getType())
                        ? new ConditionBuilder(condition)
                                .withStatus(Conditions.FALSE)
                                .withReason("WaitingForTarget")
                                .build()
                        : condition);
        client.resources(BenchmarkRun.class)
                .inNamespace(harness.namespace())
                .resource(stopped)
                .updateStatus();
        harness.startOperator();

        BenchmarkRun run = harness.awaitPhase("restarted", Phase.Succeeded);
        assertThat(Conditions.isTrue(run.getStatus().getConditions(), Conditions.TARGET_READY))
                .as("TargetReady put back: %s", run.getStatus().getConditions())
                .isTrue();
        List<GenericKubernetesResource> testRuns = client.genericKubernetesResources(K6TestRun.CONTEXT)
                .inNamespace(harness.namespace())
                .list()
                .getItems();
        assertThat(testRuns)
                .singleElement()
                .satisfies(testRun -> assertThat(testRun.getMetadata().getUid()).isEqualTo(uid));
        assertThat(client.batch()
                        .v1()
                        .jobs()
                        .inNamespace(harness.namespace())
                        .withLabel(RunLabels.K6_RUNNER, "true")
                        .list()
                        .getItems())
                .as("runner Jobs")
                .hasSize(2);
        assertThat(run.getStatus().getSummary().getRequests()).isPositive();
    }

    @Test
    void aRunWaitsForAMissingPermissionAndGoesOnOnceItIsGranted() throws Exception {
        KubernetesClient client = harness.client();
        var role = client.rbac().roles().inNamespace(harness.namespace()).withName(harness.operatorRole());
        List<PolicyRule> granted = role.get().getRules();
        List<PolicyRule> withoutLogs = granted.stream()
                .map(rule -> new PolicyRuleBuilder(rule)
                        .withResources(rule.getResources().stream()
                                .filter(resource -> !"pods/log".equals(resource))
                                .toList())
                        .build())
                .toList();
        role.edit(r -> new RoleBuilder(r).withRules(withoutLogs).build());

        harness.apply(OperatorHarness.example("stalled", spec -> {})).requireSuccess();
        BenchmarkRun stalled = await("run stalled on the missing pods/log right")
                .atMost(OperatorHarness.WAIT)
                .until(
                        () -> harness.run("stalled"),
                        run -> run.getStatus() != null
                                && Conditions.isTrue(run.getStatus().getConditions(), RunProgress.STALLED));
        assertThat(stalled.getStatus().getPhase().isTerminal()).isFalse();
        assertThat(stalled.getStatus().getMessage()).contains("pods/log", "Grant that right");
        // The event is published right after the status is stored.
        await("a Forbidden warning event").atMost(OperatorHarness.WAIT).untilAsserted(() -> assertThat(client.v1()
                        .events()
                        .inNamespace(harness.namespace())
                        .list()
                        .getItems())
                .anySatisfy(event -> {
                    assertThat(event.getReason()).isEqualTo("Forbidden");
                    assertThat(event.getType()).isEqualTo("Warning");
                }));

        role.edit(r -> new RoleBuilder(r).withRules(granted).build());

        BenchmarkRun run = harness.awaitPhase("stalled", Phase.Succeeded);
        assertThat(run.getStatus().getSummary().getRequests()).isPositive();
        assertThat(Conditions.find(run.getStatus().getConditions(), RunProgress.STALLED))
                .hasValueSatisfying(
                        condition -> assertThat(condition.getStatus()).isEqualTo(Conditions.FALSE));
    }

    @Test
    void runnersTooLargeForTheLoadgenNodesFailTheRunSayingWhy() throws Exception {
        // The fake loadgen nodes have 8 CPUs each: a runner asking for 20 never gets scheduled. The run waits for its
        // timeout (a node could still join the pool); 30 s leave the target (ready within a few seconds on kwok, the
        // class has the machine quiet) room.
        harness.apply(OperatorHarness.example("oversized", spec -> {
                    spec.with("spec").put("timeout", "30s");
                    spec.with("spec").with("workload").with("runnerResources").put("cpu", "20");
                }))
                .requireSuccess();

        BenchmarkRun run = harness.awaitPhase("oversized", Phase.Failed);

        assertThat(Conditions.find(run.getStatus().getConditions(), Conditions.COMPLETE))
                .hasValueSatisfying(complete -> {
                    assertThat(complete.getReason()).isEqualTo("TimedOut");
                    assertThat(complete.getMessage())
                            .contains(
                                    "k6 runners of TestRun oversized-k6 cannot start",
                                    "cannot be scheduled",
                                    "Insufficient cpu");
                });
        assertThat(Conditions.find(run.getStatus().getConditions(), Conditions.LOAD_RUNNING))
                .hasValueSatisfying(
                        loadRunning -> assertThat(loadRunning.getReason()).isEqualTo("RunnersNotStarted"));
        assertThat(k6Operator.runnerOutputs()).as("no k6 started").isEmpty();
    }

    @Test
    void aFailedInitializerFailsTheRunBeforeAnyRunnerStarts() throws Exception {
        k6Operator.breakInitializer();
        // Only a user's module gets k6-operator's initializer: the generated scripts need none.
        harness.client()
                .configMaps()
                .inNamespace(harness.namespace())
                .resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("stackbench-browse")
                        .endMetadata()
                        .addToData("browse.js", Files.readString(ExampleRuns.example("custom/browse.js")))
                        .build())
                .create();
        harness.apply(OperatorHarness.example("uninitialized", spec -> {
                    ObjectNode workload = (ObjectNode) spec.at("/spec/workload");
                    workload.put("scenario", "custom");
                    workload.putObject("script")
                            .put("file", "browse.js")
                            .putObject("configMapRef")
                            .put("name", "stackbench-browse")
                            .put("key", "browse.js");
                }))
                .requireSuccess();

        BenchmarkRun run = harness.awaitPhase("uninitialized", Phase.Failed);

        assertThat(run.getStatus().getMessage())
                .contains(
                        "initializer Job uninitialized-k6-initializer failed",
                        "kubectl logs job/uninitialized-k6-initializer");
        assertThat(harness.client()
                        .batch()
                        .v1()
                        .jobs()
                        .inNamespace(harness.namespace())
                        .withLabel(RunLabels.K6_RUNNER, "true")
                        .list()
                        .getItems())
                .as("runner Jobs")
                .isEmpty();
        assertThat(k6Operator.runnerOutputs()).isEmpty();
    }

    @Test
    void aFailedRunnerFailsTheRunEvenThoughTheTestRunFinishes() throws Exception {
        k6Operator.breakRunner(2);
        harness.apply(OperatorHarness.example("broken-runner", spec -> {})).requireSuccess();

        BenchmarkRun run = harness.awaitPhase("broken-runner", Phase.Failed);

        assertThat(Conditions.find(run.getStatus().getConditions(), Conditions.COMPLETE))
                .hasValueSatisfying(complete -> {
                    assertThat(complete.getReason()).as(complete.getMessage()).isEqualTo("RunnerFailed");
                    assertThat(complete.getMessage()).contains("broken-runner-k6-2");
                });
        assertThat(run.getStatus().getSummary()).isNull();
    }

    /** The example as a sweep of two rates, 5 then 10 iterations/s, without thresholds (every step passes). */
    private static String sweep(String name, boolean restartBetweenSteps) throws Exception {
        return OperatorHarness.example(name, spec -> {
            spec.with("spec").put("cleanup", "Never");
            ObjectNode workload = (ObjectNode) spec.at("/spec/workload");
            ((ObjectNode) workload.get("load")).remove("rate");
            workload.putArray("sweep").add(5).add(10);
            workload.remove("thresholds");
            if (restartBetweenSteps) {
                workload.put("restartBetweenSteps", true);
            }
        });
    }

    /** Every TestRun, target pod and TestRun pair seen at once while {@code until} does not hold. */
    private record Watched(Set<String> testRuns, Set<String> targetPods, List<String> together) {}

    private Watched watch(String run, java.util.function.Supplier<Boolean> until) {
        Set<String> testRuns = new java.util.LinkedHashSet<>();
        Set<String> targetPods = new java.util.LinkedHashSet<>();
        List<String> together = new java.util.ArrayList<>();
        KubernetesClient client = harness.client();
        await("run " + run + " watched")
                .atMost(OperatorHarness.WAIT)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    List<GenericKubernetesResource> now = client.genericKubernetesResources(K6TestRun.CONTEXT)
                            .inNamespace(harness.namespace())
                            .withLabel(RunLabels.RUN, run)
                            .list()
                            .getItems();
                    now.forEach(t -> testRuns.add(
                            t.getMetadata().getName() + "/" + t.getMetadata().getUid()));
                    if (now.size() > 1) {
                        together.add(now.stream()
                                .map(t -> t.getMetadata().getName())
                                .toList()
                                .toString());
                    }
                    podsOf(client, harness.namespace(), Map.of(RunLabels.RUN, run, RunLabels.ROLE, "target"))
                            .forEach(pod -> targetPods.add(pod.getMetadata().getUid()));
                    return until.get();
                });
        return new Watched(testRuns, targetPods, together);
    }

    @Test
    @MeasuresOnAQuietMachine
    void aSweepRunsOneTestRunPerStepInOrderAndKeepsEachStepsResult() throws Exception {
        harness.apply(sweep("sweep", true)).requireSuccess();

        Watched watched = watch("sweep", () -> {
            BenchmarkRun current = harness.run("sweep");
            return current != null
                    && current.getStatus() != null
                    && current.getStatus().getPhase() != null
                    && current.getStatus().getPhase().isTerminal();
        });
        BenchmarkRun run = harness.awaitPhase("sweep", Phase.Succeeded);

        List<dev.stackbench.api.status.StepResult> steps = run.getStatus().getSteps();
        assertThat(steps)
                .extracting(dev.stackbench.api.status.StepResult::getStep)
                .containsExactly(1, 2);
        assertThat(steps)
                .extracting(dev.stackbench.api.status.StepResult::getLevel)
                .containsExactly(5, 10);
        assertThat(steps).allSatisfy(step -> {
            assertThat(step.getUnit()).isEqualTo("iterations/s");
            assertThat(step.getOutcome()).as(step.getReason()).isEqualTo(dev.stackbench.api.status.StepOutcome.Passed);
            assertThat(step.getRequests()).isPositive();
            assertThat(step.getStartedAt()).isNotNull();
            assertThat(step.getFinishedAt()).isNotNull();
        });
        // Twice the offered rate: each step's script had its own level.
        assertThat(steps.get(1).getRps()).isGreaterThan(steps.get(0).getRps());
        assertThat(Instant.parse(steps.get(1).getStartedAt()))
                .isAfter(Instant.parse(steps.get(0).getFinishedAt()).minusSeconds(1));
        // One TestRun per step, the second created only once the first was deleted.
        assertThat(watched.testRuns())
                .extracting(t -> t.substring(0, t.indexOf('/')))
                .containsExactly("sweep-s1", "sweep-s2");
        assertThat(watched.together()).as("TestRuns of two steps at once").isEmpty();
        KubernetesClient client = harness.client();
        String namespace = harness.namespace();
        assertThat(client.genericKubernetesResources(K6TestRun.CONTEXT)
                        .inNamespace(namespace)
                        .list()
                        .getItems())
                .extracting(t -> t.getMetadata().getName())
                .containsExactly("sweep-s2");
        assertThat(podsOf(client, namespace, RunLabels.runnerPods("sweep-s1"))).isEmpty();
        assertThat(podsOf(client, namespace, RunLabels.runnerPods("sweep-s2"))).hasSize(2);
        for (int step : List.of(1, 2)) {
            var configMap = client.configMaps()
                    .inNamespace(namespace)
                    .withName("sweep-s" + step + "-script")
                    .get();
            assertThat(configMap.getMetadata().getLabels())
                    .containsEntry(RunLabels.RUN, "sweep")
                    .containsEntry(RunLabels.STEP, Integer.toString(step));
            assertThat(configMap.getData().get(K6ScriptConfigMap.SCRIPT_KEY)).contains("constant-arrival-rate");
        }
        assertThat(client.configMaps()
                        .inNamespace(namespace)
                        .withName("sweep-k6-script")
                        .get()
                        .getData())
                .as("the run's own ConfigMap keeps the spec, each step has its script")
                .containsOnlyKeys(K6ScriptConfigMap.SPEC_KEY);
        // restartBetweenSteps: the target's pod was replaced before step 2.
        assertThat(watched.targetPods()).hasSizeGreaterThanOrEqualTo(2);
        assertThat(podsOf(client, namespace, Map.of(RunLabels.RUN, "sweep", RunLabels.ROLE, "target")))
                .singleElement()
                .satisfies(pod -> assertThat(pod.getMetadata().getAnnotations())
                        .containsEntry(SteppedLoadStage.RESTARTED_FOR_STEP_ANNOTATION, "2"));

        RunSummary summary = run.getStatus().getSummary();
        int kept =
                dev.stackbench.lifecycle.SteppedLoad.best(steps).orElseThrow().getStep();
        assertThat(summary.getStep()).isEqualTo(kept);
        assertThat(summary.getRequests()).isEqualTo(steps.get(kept - 1).getRequests());
        assertThat(run.getStatus().getCapacity()).isNull();
        assertThat(run.getStatus().getMessage()).contains("all 2 steps ran", "the summary is step " + kept);
        assertThat(k6Operator.runnerOutputs()).hasSize(4);
        await("step events").atMost(OperatorHarness.WAIT).untilAsserted(() -> assertThat(
                        client.v1().events().inNamespace(namespace).list().getItems().stream()
                                .filter(event ->
                                        "sweep".equals(event.getInvolvedObject().getName()))
                                .map(event -> event.getReason())
                                .toList())
                .contains("StepStarted", "StepPassed", "SweepComplete", "RunSucceeded"));
    }

    @Test
    @MeasuresOnAQuietMachine
    void anOperatorRestartedBetweenStepsGoesOnWithTheNextStepAndCreatesNoTestRunTwice() throws Exception {
        harness.apply(sweep("resumed", false)).requireSuccess();
        await("step 1 of run resumed judged").atMost(OperatorHarness.WAIT).until(() -> {
            BenchmarkRun current = harness.run("resumed");
            return current.getStatus() != null
                    && current.getStatus().getSteps() != null
                    && !current.getStatus().getSteps().isEmpty();
        });

        harness.stopOperator();
        harness.startOperator();

        Watched watched = watch("resumed", () -> {
            BenchmarkRun current = harness.run("resumed");
            return current.getStatus().getPhase() != null
                    && current.getStatus().getPhase().isTerminal();
        });
        BenchmarkRun run = harness.awaitPhase("resumed", Phase.Succeeded);
        assertThat(run.getStatus().getSteps())
                .extracting(dev.stackbench.api.status.StepResult::getLevel)
                .containsExactly(5, 10);
        assertThat(watched.testRuns())
                .extracting(t -> t.substring(0, t.indexOf('/')))
                .as("TestRuns seen after the restart (step 1's may be deleted already)")
                .contains("resumed-s2")
                .isSubsetOf("resumed-s1", "resumed-s2")
                .doesNotHaveDuplicates();
        assertThat(k6Operator.runnerOutputs())
                .as("k6 runs: two runners per step")
                .hasSize(4);
        assertThat(harness.client()
                        .batch()
                        .v1()
                        .jobs()
                        .inNamespace(harness.namespace())
                        .withLabel(RunLabels.K6_TEST_RUN, "resumed-s2")
                        .withLabel(RunLabels.K6_RUNNER, "true")
                        .list()
                        .getItems())
                .as("runner Jobs of step 2")
                .hasSize(2);
    }

    @Test
    @MeasuresOnAQuietMachine
    void aStepWhoseRunnerFailsEndsTheSweepGeneratorLimitedAndKeepsTheStepsBeforeIt() throws Exception {
        k6Operator.breakRunner(2, "failing-s2");
        harness.apply(sweep("failing", false)).requireSuccess();

        BenchmarkRun run = harness.awaitPhase("failing", Phase.Succeeded);

        List<dev.stackbench.api.status.StepResult> steps = run.getStatus().getSteps();
        assertThat(steps).hasSize(2);
        assertThat(steps.getFirst()).satisfies(step -> {
            assertThat(step.getLevel()).isEqualTo(5);
            assertThat(step.getRequests()).isPositive();
        });
        // The failed runner's step: the generator's limit, without figures, naming the runner.
        assertThat(steps.get(1)).satisfies(step -> {
            assertThat(step.getLevel()).isEqualTo(10);
            assertThat(step.getOutcome()).isEqualTo(dev.stackbench.api.status.StepOutcome.GeneratorLimited);
            assertThat(step.getRequests()).isNull();
            assertThat(step.getReason()).contains("RunnerFailed").contains("failing-s2-2");
        });
        assertThat(run.getStatus().getSummary().getStep())
                .as("the summary of the step measured before the failure")
                .isEqualTo(1);
        assertThat(run.getStatus().getSummary().getRequests())
                .isEqualTo(steps.getFirst().getRequests());
        assertThat(run.getStatus().getSummary().getWarnings())
                .anyMatch(warning -> warning.contains("the load generator, not the target, was the limit at step 2"));
    }

    /** The first row of kubectl's table, by column: cells are cut where the header's columns start. */
    private static Map<String, String> tableRow(String table) {
        List<String> lines = table.lines().toList();
        String header = lines.get(0);
        String row = lines.get(1);
        java.util.regex.Matcher column = java.util.regex.Pattern.compile("\\S+").matcher(header);
        List<int[]> spans = new java.util.ArrayList<>();
        List<String> names = new java.util.ArrayList<>();
        while (column.find()) {
            names.add(column.group());
            spans.add(new int[] {column.start()});
        }
        Map<String, String> cells = new java.util.LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            int from = Math.min(spans.get(i)[0], row.length());
            int to = i + 1 < names.size() ? Math.min(spans.get(i + 1)[0], row.length()) : row.length();
            cells.put(names.get(i), row.substring(from, to).strip());
        }
        return cells;
    }

    private static List<Pod> podsOf(KubernetesClient client, String namespace, Map<String, String> labels) {
        return client.pods().inNamespace(namespace).withLabels(labels).list().getItems();
    }

    /** Measurements go to a file next to the test reports, never into assertions. */
    /** Checks the run's timeline is in time order and records it, each entry as its seconds and what happened. */
    private static void recordSortedTimeline(String label, BenchmarkRun run) throws Exception {
        assertThat(run.getStatus().getTimeline())
                .extracting(entry -> Instant.parse(entry.getAt()))
                .isSorted();
        recordMeasurement(label
                + run.getStatus().getTimeline().stream()
                        .map(entry -> entry.getSeconds() + " " + entry.getWhat())
                        .collect(java.util.stream.Collectors.joining("; ")));
    }

    static void recordMeasurement(String line) throws Exception {
        Path file = Path.of("target", "operator-measurements.txt");
        Files.createDirectories(file.getParent());
        Files.writeString(
                file,
                Instant.now() + " " + line + "\n",
                java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
        System.out.println("[measurement] " + line);
    }
}
