package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.comparison.BenchmarkComparison;
import dev.stackbench.api.comparison.BenchmarkComparisonStatus;
import dev.stackbench.api.comparison.ComparisonPhase;
import dev.stackbench.api.comparison.ComparisonRunRecord;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.Phase;
import dev.stackbench.comparison.ComparisonRuns;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.testcluster.CommandResult;
import dev.stackbench.testcluster.MeasuresOnAQuietMachine;
import dev.stackbench.testcluster.TestCluster;
import dev.stackbench.testcluster.TestClusterExtension;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * BenchmarkComparisons through the real control plane: the operator in-process creates the runs, the BenchmarkRun
 * controller runs them with k6-operator played by {@link K6OperatorStandIn} (real k6 processes against one real
 * webflux-r2dbc target on 127.0.0.1). Both variants are webflux-r2dbc, the contender with other JVM options: the
 * stand-in sends every run to the same target, so the figures say nothing about the variants; what is tested is the
 * life cycle (one run at a time, each after the previous one's cleanup, records, restart, conclusion).
 * RealNodesE2E runs a comparison on real pods.
 */
@Order(13)
@ExtendWith(TestClusterExtension.class)
@MeasuresOnAQuietMachine
class BenchmarkComparisonIT {

    private static final Duration WHOLE_COMPARISON = Duration.ofMinutes(8);
    private static final List<Map<String, Object>> VARIANTS = List.of(
            Map.of("variant", "webflux-r2dbc", "name", "base"),
            Map.of("variant", "webflux-r2dbc", "name", "serial", "jvmOptions", "-XX:+UseSerialGC"));

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
        harness = new OperatorHarness(cluster, "compare");
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
    void runsEachRepetitionAfterThePreviousWasCleanedUpSurvivesARestartAndConcludes() throws Exception {
        harness.apply(OperatorHarness.comparison(
                        "ab", 3, VARIANTS, root -> ((ObjectNode) root.get("spec")).put("seed", 7)))
                .requireSuccess();
        // Watches the runs: at no moment may two of them be in flight (created and not yet cleaned up).
        ConcurrentLinkedQueue<String> overlaps = new ConcurrentLinkedQueue<>();
        ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor();
        watcher.scheduleWithFixedDelay(
                () -> {
                    List<String> inFlight = children().stream()
                            .filter(run -> !cleanedUp(run))
                            .map(run -> run.getMetadata().getName())
                            .toList();
                    if (inFlight.size() > 1) {
                        overlaps.add(Instant.now() + ": " + inFlight);
                    }
                },
                0,
                300,
                TimeUnit.MILLISECONDS);
        try {
            // An operator restart part-way: the comparison goes on from what the API server holds.
            await("the first run of the comparison ended")
                    .atMost(OperatorHarness.WAIT)
                    .pollInterval(Duration.ofMillis(300))
                    .until(() -> runsDone("ab") >= 1);
            harness.stopOperator();
            Thread.sleep(2_000);
            harness.startOperator();

            BenchmarkComparison comparison = harness.awaitComparison("ab", ComparisonPhase.Succeeded, WHOLE_COMPARISON);
            assertThat(overlaps).as("moments two runs were in flight").isEmpty();

            BenchmarkComparisonStatus status = comparison.getStatus();
            assertThat(status.getSeed()).isEqualTo(7L);
            assertThat(status.getBaseline()).isEqualTo("base");
            assertThat(status.getVariantNames()).isEqualTo("base, serial");
            assertThat(status.getProgress()).isEqualTo("6/6 runs");
            assertThat(status.getStartedAt()).isNotNull();
            assertThat(status.getFinishedAt()).isNotNull();

            // The runs: the planned ones, in the planned order, each owned by the comparison, none twice.
            BenchmarkComparison planned = BenchmarkRuns.yamlMapper()
                    .readValue(
                            OperatorHarness.comparison(
                                    "ab", 3, VARIANTS, root -> ((ObjectNode) root.get("spec")).put("seed", 7)),
                            BenchmarkComparison.class);
            planned.getMetadata().setNamespace(harness.namespace());
            dev.stackbench.api.comparison.ComparisonDefaults.apply(planned.getSpec());
            List<String> plannedNames = ComparisonRuns.plan(planned, 7).stream()
                    .map(child -> child.run().getMetadata().getName())
                    .toList();
            List<BenchmarkRun> runs = new ArrayList<>(children());
            runs.sort(Comparator.comparing(
                    run -> plannedNames.indexOf(run.getMetadata().getName())));
            assertThat(runs).extracting(run -> run.getMetadata().getName()).containsExactlyElementsOf(plannedNames);
            assertThat(status.getRuns())
                    .extracting(ComparisonRunRecord::getName)
                    .containsExactlyElementsOf(plannedNames);
            for (BenchmarkRun run : runs) {
                assertThat(run.getMetadata().getOwnerReferences())
                        .singleElement()
                        .satisfies(owner -> {
                            assertThat(owner.getKind()).isEqualTo(BenchmarkComparison.KIND);
                            assertThat(owner.getUid())
                                    .isEqualTo(comparison.getMetadata().getUid());
                        });
                assertThat(run.getMetadata().getLabels())
                        .containsEntry(ComparisonRuns.COMPARISON_LABEL, "ab")
                        .containsKey(ComparisonRuns.VARIANT_LABEL)
                        .containsKey(ComparisonRuns.ROUND_LABEL);
                assertThat(run.getStatus().getPhase()).isEqualTo(Phase.Succeeded);
                String variant = run.getMetadata().getLabels().get(ComparisonRuns.VARIANT_LABEL);
                assertThat(run.getSpec().getTarget().getJvmOptions())
                        .as("the contender's JVM options come after the template's")
                        .isEqualTo(
                                variant.equals("serial")
                                        ? "-XX:MaxRAMPercentage=75 -XX:+UseSerialGC"
                                        : "-XX:MaxRAMPercentage=75");
            }
            // Each run was created only after the one before it had been cleaned up (second resolution).
            for (int i = 1; i < runs.size(); i++) {
                Instant cleaned =
                        Instant.parse(cleanedUpCondition(runs.get(i - 1)).getLastTransitionTime());
                Instant created = Instant.parse(runs.get(i).getMetadata().getCreationTimestamp());
                assertThat(created)
                        .as(
                                "%s created after %s was cleaned up",
                                runs.get(i).getMetadata().getName(),
                                runs.get(i - 1).getMetadata().getName())
                        .isAfterOrEqualTo(cleaned);
            }
            // The records are the runs' own figures, copied when each ended.
            for (ComparisonRunRecord record : status.getRuns()) {
                BenchmarkRun run = runs.stream()
                        .filter(candidate -> candidate.getMetadata().getName().equals(record.getName()))
                        .findFirst()
                        .orElseThrow();
                assertThat(record.getPhase()).isEqualTo(Phase.Succeeded);
                assertThat(record.getFigures().get("rps"))
                        .isEqualTo(run.getStatus().getSummary().getRps());
                assertThat(record.getFigures().get("p95"))
                        .isEqualTo(run.getStatus().getSummary().getLatencyMs().getP95());
            }
            assertThat(status.getVariants()).hasSize(2).allSatisfy(variant -> {
                assertThat(variant.getRuns()).isEqualTo(3);
                assertThat(variant.getMetrics())
                        .extracting(spread -> spread.getMetric())
                        .containsExactly("rps", "p50", "p95", "p99", "errorRate");
            });
            assertThat(status.getContenders()).singleElement().satisfies(contender -> {
                assertThat(contender.getName()).isEqualTo("serial");
                assertThat(contender.getMetrics()).isNotEmpty().allSatisfy(shift -> assertThat(shift.getVerdict())
                        .isIn("better", "worse", "no significant difference"));
            });
            assertThat(status.getVerdict()).startsWith("serial");
            assertThat(status.getWarnings())
                    .as("3 repetitions give no 95% interval")
                    .anyMatch(warning -> warning.contains("no 95% confidence interval"));

            // Deleting the comparison deletes its runs (garbage collection through the owner references).
            harness.client().resource(comparison).delete();
            await("the comparison's runs garbage-collected")
                    .atMost(Duration.ofMinutes(1))
                    .until(() -> children().isEmpty());
        } finally {
            watcher.shutdownNow();
        }
    }

    @Test
    void anInvalidComparisonFailsNamingEveryFieldAndCreatesNothing() throws Exception {
        harness.apply(OperatorHarness.comparison(
                        "bad",
                        3,
                        List.of(Map.of("variant", "webflux-r2dbc"), Map.of("variant", "quarkus-reactive")),
                        // Only the operator can tell: the catalogue's variants and what k6 accepts as a threshold.
                        root -> ((ObjectNode) root.at("/spec/template/workload"))
                                .putObject("thresholds")
                                .putArray("http_req_duration")
                                .add("p(95) < 1s")))
                .requireSuccess();

        BenchmarkComparison comparison = harness.awaitComparison("bad", ComparisonPhase.Failed, OperatorHarness.WAIT);

        assertThat(comparison.getStatus().getMessage())
                .contains("spec.variants[1]", "quarkus-reactive", "webflux-r2dbc", "mvc-jdbc")
                .contains("spec.template.workload.thresholds")
                .contains("create the comparison again");
        assertThat(children()).isEmpty();
        assertThat(harness.client()
                        .configMaps()
                        .inNamespace(harness.namespace())
                        .withName("bad-comparison")
                        .get())
                .isNull();
    }

    @Test
    void theApiServerRefusesWhatTheSchemaForbids() throws Exception {
        CommandResult tooFew = harness.apply(OperatorHarness.comparison("few", 2, VARIANTS, root -> {}));
        assertThat(tooFew.exitCode()).isNotZero();
        assertThat(tooFew.stderr()).contains("spec.repetitions");

        CommandResult variantInTemplate = harness.apply(OperatorHarness.comparison(
                "pinned", 3, VARIANTS, root -> ((ObjectNode) root.at("/spec/template/target"))
                        .put("variant", "mvc-jdbc")));
        assertThat(variantInTemplate.exitCode()).isNotZero();
        assertThat(variantInTemplate.stderr()).contains("spec.template.target.variant");

        CommandResult sameNames = harness.apply(OperatorHarness.comparison(
                "twice", 3, List.of(Map.of("variant", "mvc-jdbc"), Map.of("variant", "mvc-jdbc")), root -> {}));
        assertThat(sameNames.exitCode()).isNotZero();
        assertThat(sameNames.stderr()).contains("spec.variants", "name");

        assertThat(harness.client()
                        .resources(BenchmarkComparison.class)
                        .inNamespace(harness.namespace())
                        .list()
                        .getItems())
                .isEmpty();
    }

    private List<BenchmarkRun> children() {
        return harness.client()
                .resources(BenchmarkRun.class)
                .inNamespace(harness.namespace())
                .withLabel(ComparisonRuns.COMPARISON_LABEL)
                .list()
                .getItems();
    }

    private int runsDone(String comparison) {
        BenchmarkComparison current = harness.comparison(comparison);
        return current == null
                        || current.getStatus() == null
                        || current.getStatus().getRunsDone() == null
                ? 0
                : current.getStatus().getRunsDone();
    }

    private static boolean cleanedUp(BenchmarkRun run) {
        return run.getStatus() != null
                && run.getStatus().getPhase() != null
                && run.getStatus().getPhase().isTerminal()
                && run.getStatus().getConditions() != null
                && run.getStatus().getConditions().stream()
                        .anyMatch(condition -> RunProgress.CLEANED_UP.equals(condition.getType()));
    }

    private static Condition cleanedUpCondition(BenchmarkRun run) {
        return run.getStatus().getConditions().stream()
                .filter(condition -> RunProgress.CLEANED_UP.equals(condition.getType()))
                .findFirst()
                .orElseThrow(() -> new AssertionError(run.getMetadata().getName() + " has no CleanedUp condition"));
    }
}
