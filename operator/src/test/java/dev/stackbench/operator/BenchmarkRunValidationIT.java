package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stackbench.api.comparison.BenchmarkComparison;
import dev.stackbench.api.comparison.ComparisonPhase;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.Conditions;
import dev.stackbench.api.status.Phase;
import dev.stackbench.comparison.ComparisonRuns;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.operator.run.AdmissionPolicy;
import dev.stackbench.testcluster.CommandResult;
import dev.stackbench.testcluster.TestCluster;
import dev.stackbench.testcluster.TestClusterExtension;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Invalid specs never reach the operator: the API server refuses them at admission (CRD schema and CEL rules) with a
 * message naming the field to change. Each fixture in invalid-specs/ says on its first line which field that is.
 */
@Order(2)
@ExtendWith(TestClusterExtension.class)
class BenchmarkRunValidationIT {

    private static final String EXPECT = "# expect: ";
    /**
     * Checked by the operator when it admits a run (k6's threshold grammar and metrics), not by the CRD: the run
     * is created and fails at once.
     */
    static final List<String> CHECKED_BY_THE_OPERATOR = List.of(
            "capacity-timeout-too-short.yaml",
            "jvm-options-unclosed-quote.yaml",
            "threshold-on-unknown-metric.yaml",
            "threshold-percentile-of-a-rate.yaml",
            "threshold-with-unit.yaml");

    private static TestCluster cluster;
    private static String namespace;

    @BeforeAll
    static void createNamespace(TestCluster sharedCluster) {
        cluster = sharedCluster;
        OperatorHarness.installCrd(cluster);
        namespace = cluster.createNamespace("validation");
    }

    @AfterAll
    static void deleteNamespace() {
        if (namespace != null) {
            cluster.client().namespaces().withName(namespace).delete();
        }
    }

    @TestFactory
    Stream<DynamicTest> theApiServerRefusesEveryInvalidSpecNamingTheField() throws IOException {
        Path directory = ExampleRuns.repositoryRoot().resolve("core/src/test/resources/invalid-specs");
        List<Path> fixtures;
        try (Stream<Path> files = Files.list(directory)) {
            fixtures = files.filter(file -> file.toString().endsWith(".yaml"))
                    .sorted()
                    .filter(file ->
                            !CHECKED_BY_THE_OPERATOR.contains(file.getFileName().toString()))
                    .toList();
        }
        assertThat(fixtures).hasSizeGreaterThanOrEqualTo(20);
        return fixtures.stream()
                .map(fixture -> DynamicTest.dynamicTest(fixture.getFileName().toString(), () -> {
                    String text = Files.readString(fixture);
                    String firstLine = text.lines().findFirst().orElse("");
                    assertThat(firstLine).as("first line of " + fixture).startsWith(EXPECT);
                    String field = firstLine.substring(EXPECT.length()).strip();

                    CommandResult result = cluster.kubectlWithInput(text, "apply", "--namespace", namespace, "-f", "-");

                    assertThat(result.exitCode())
                            .as("kubectl apply of " + fixture.getFileName() + " was accepted:\n" + result.describe())
                            .isNotZero();
                    assertThat(result.stderr())
                            .as(result.describe())
                            .contains("is invalid")
                            .contains(field);
                }));
    }
    /**
     * What only the operator checks (a threshold k6 would refuse once everything runs) fails the run when the
     * operator admits it: with the validator's message naming the field, before the run takes its node pools or
     * creates anything.
     */
    @Test
    void theOperatorFailsARunWithAMalformedThresholdBeforeAnythingStarts() throws IOException {
        Path directory = ExampleRuns.repositoryRoot().resolve("core/src/test/resources/invalid-specs");
        try (OperatorHarness harness = new OperatorHarness(cluster, "admission")) {
            for (String fixture : CHECKED_BY_THE_OPERATOR) {
                String text = Files.readString(directory.resolve(fixture));
                String field = text.lines()
                        .findFirst()
                        .orElseThrow()
                        .substring(EXPECT.length())
                        .strip();
                String name = fixture.replaceFirst("[.]yaml$", "");

                harness.apply(text).requireSuccess();
                BenchmarkRun run = harness.awaitPhase(name, Phase.Failed);

                Condition complete = failedBeforeAnythingStarted(harness, run, "InvalidSpec");
                assertThat(complete.getMessage()).as(fixture).contains(field);
                assertThat(run.getStatus().getMessage()).isEqualTo(complete.getMessage());
            }
            BenchmarkRun withUnit = harness.run("threshold-with-unit");
            assertThat(withUnit.getStatus().getMessage())
                    .contains("'p(95) < 1s' is not a k6 threshold", "the limit '1s' is not a plain number")
                    .contains("p(95)<500", "rate<0.01", "avg<200", "max<1000", "count>0");
            assertThat(harness.deployments()).isEmpty();
        }
    }

    /**
     * PromQL checks need a Prometheus the operator knows (the chart's STACKBENCH_PROMETHEUS_URL): without one, a run
     * listing checks fails at admission, saying which chart value to set, before it takes anything.
     */
    @Test
    void aRunWithPromQLChecksFailsAtOnceWhereTheOperatorKnowsNoPrometheus() throws Exception {
        try (OperatorHarness harness = new OperatorHarness(cluster, "checks")) {
            harness.apply(OperatorHarness.example("with-checks", run -> ((ObjectNode) run.get("spec"))
                            .putArray("checks")
                            .addObject()
                            .put("expr", "vector(1)")
                            .put("severity", "warning")))
                    .requireSuccess();
            BenchmarkRun run = harness.awaitPhase("with-checks", Phase.Failed);
            Condition complete = failedBeforeAnythingStarted(harness, run, "ChecksNeedPrometheus");
            assertThat(complete.getMessage())
                    .contains("spec.checks lists 1 PromQL check(s)", "metrics.prometheusUrl", "remove spec.checks");
            assertThat(harness.deployments()).isEmpty();
        }
    }

    /**
     * The cluster's admission policy: a run asking for what the policy does not allow (another image, the operator's
     * wiring in its env, an external database host not listed, a Secret without the policy's label) fails at once
     * with reason RefusedByPolicy and a message naming the rule, the value and the chart value, before it takes its
     * node pools or creates anything. A run the policy allows, created after them, is unaffected: it gets the pools
     * and its objects, reading its Secret's label with the rights the chart grants for that label. A comparison
     * breaking the policy fails the same way without creating a run.
     */
    @Test
    void theOperatorRefusesWhatTheClustersPolicyDoesNotAllowBeforeAnythingStarts() throws Exception {
        String label = "stackbench.dev/database=true";
        AdmissionPolicy policy = new AdmissionPolicy(
                List.of(), Optional.of(label), AdmissionPolicy.JVM_OPTION_VARIABLES, List.of("shared-db"));
        try (OperatorHarness harness =
                new OperatorHarness(cluster, "policy", policy, "--set", "policy.databaseSecrets.label=" + label)) {
            for (String secret : List.of("labelled-db", "unlabelled-db")) {
                harness.client()
                        .secrets()
                        .inNamespace(harness.namespace())
                        .resource(new SecretBuilder()
                                .withNewMetadata()
                                .withName(secret)
                                .withLabels(
                                        secret.equals("labelled-db")
                                                ? Map.of("stackbench.dev/database", "true")
                                                : Map.of())
                                .endMetadata()
                                .withStringData(Map.of("username", "u", "password", "p"))
                                .build())
                        .create();
            }
            Map<String, Consumer<ObjectNode>> refused = new LinkedHashMap<>();
            refused.put("other-image", run -> target(run).put("image", "evil.example.com/app:1"));
            refused.put("wiring-env", run -> target(run).putObject("env").put("DB_HOST", "db.evil.example"));
            refused.put("other-host", run -> external(run).put("host", "db.evil.example"));
            refused.put("unlabelled-secret", run -> external(run)
                    .put("host", "shared-db")
                    .putObject("secretRef")
                    .put("name", "unlabelled-db"));
            Map<String, List<String>> expected = Map.of(
                    "other-image",
                    List.of(
                            "spec.target.image 'evil.example.com/app:1' is refused by this cluster's admission policy"
                                    + " (allowed target images)",
                            "policy.targetImages.allowedRepositories"),
                    "wiring-env",
                    List.of(
                            "spec.target.env.DB_HOST is refused by this cluster's admission policy (the operator's"
                                    + " wiring)",
                            "Remove DB_HOST from spec.target.env"),
                    "other-host",
                    List.of(
                            "spec.backend.database.external.host 'db.evil.example' is refused by this cluster's"
                                    + " admission policy (external database hosts)",
                            "policy.externalDatabases.allowedHosts (shared-db)"),
                    "unlabelled-secret",
                    List.of(
                            "spec.backend.database.external.secretRef.name 'unlabelled-db' is refused by this"
                                    + " cluster's admission policy (database Secrets): the Secret does not carry the"
                                    + " label stackbench.dev/database=true",
                            "policy.databaseSecrets.label"));
            for (var entry : refused.entrySet()) {
                harness.apply(OperatorHarness.example(entry.getKey(), entry.getValue()))
                        .requireSuccess();
            }
            for (String name : refused.keySet()) {
                BenchmarkRun run = harness.awaitPhase(name, Phase.Failed);

                failedBeforeAnythingStarted(harness, run, "RefusedByPolicy");
                assertThat(run.getStatus().getMessage()).as(name).contains(expected.get(name));
                await("the RefusedByPolicy event of " + name)
                        .atMost(OperatorHarness.WAIT)
                        .until(() -> hasEvent(
                                harness,
                                name,
                                "RefusedByPolicy",
                                expected.get(name).get(0)));
            }
            assertThat(harness.deployments())
                    .as("nothing was deployed for a refused run")
                    .isEmpty();

            harness.apply(OperatorHarness.example("allowed", run -> {
                        target(run).putObject("env").put("SERVER_TOMCAT_THREADS_MAX", "20");
                        external(run)
                                .put("host", "shared-db")
                                .putObject("secretRef")
                                .put("name", "labelled-db");
                    }))
                    .requireSuccess();
            await("the allowed run's target, on the pools the refused runs never took")
                    .atMost(OperatorHarness.WAIT)
                    .until(() -> !harness.client()
                            .apps()
                            .deployments()
                            .inNamespace(harness.namespace())
                            .withLabel(RunLabels.RUN, "allowed")
                            .list()
                            .getItems()
                            .isEmpty());
            await("the allowed run holding its node pools")
                    .atMost(OperatorHarness.WAIT)
                    .until(() -> {
                        BenchmarkRun allowed = harness.run("allowed");
                        return allowed.getStatus() != null
                                && allowed.getStatus().getPhase() != Phase.Failed
                                && Conditions.find(allowed.getStatus().getConditions(), RunProgress.POOLS_AVAILABLE)
                                        .filter(condition -> Conditions.TRUE.equals(condition.getStatus()))
                                        .isPresent();
                    });

            harness.apply(OperatorHarness.comparison(
                            "refused-comparison",
                            3,
                            List.of(
                                    Map.of("variant", "mvc-jdbc"),
                                    Map.of("variant", "webflux-r2dbc", "env", Map.of("JAVA_OPTS", "-Xmx1g"))),
                            comparison -> {}))
                    .requireSuccess();
            BenchmarkComparison comparison =
                    harness.awaitComparison("refused-comparison", ComparisonPhase.Failed, OperatorHarness.WAIT);
            assertThat(comparison.getStatus().getMessage())
                    .startsWith("spec.variants[1].env.JAVA_OPTS is refused by this cluster's admission policy (denied"
                            + " environment variables): the chart value policy.targetEnv.denied lists it")
                    .endsWith("None of its runs was created");
            assertThat(harness.client()
                            .resources(BenchmarkRun.class)
                            .inNamespace(harness.namespace())
                            .withLabel(ComparisonRuns.COMPARISON_LABEL, "refused-comparison")
                            .list()
                            .getItems())
                    .isEmpty();
        }
    }

    /**
     * The run failed with {@code reason} before it took its node pools or created anything (its objects carry its
     * name in {@link RunLabels#RUN}); the Complete condition saying so.
     */
    private static Condition failedBeforeAnythingStarted(OperatorHarness harness, BenchmarkRun run, String reason) {
        String name = run.getMetadata().getName();
        Condition complete = Conditions.find(run.getStatus().getConditions(), Conditions.COMPLETE)
                .orElseThrow();
        assertThat(complete.getReason()).as(name).isEqualTo(reason);
        assertThat(Conditions.find(run.getStatus().getConditions(), RunProgress.POOLS_AVAILABLE))
                .as("%s never took its node pools", name)
                .isEmpty();
        assertThat(harness.client()
                        .configMaps()
                        .inNamespace(harness.namespace())
                        .withLabel(RunLabels.RUN, name)
                        .list()
                        .getItems())
                .as("objects of %s", name)
                .isEmpty();
        return complete;
    }

    private static boolean hasEvent(OperatorHarness harness, String run, String reason, String text) {
        return harness.client().v1().events().inNamespace(harness.namespace()).list().getItems().stream()
                .anyMatch(event -> run.equals(event.getInvolvedObject().getName())
                        && reason.equals(event.getReason())
                        && event.getMessage().contains(text));
    }

    private static ObjectNode target(ObjectNode run) {
        return (ObjectNode) run.at("/spec/target");
    }

    private static ObjectNode external(ObjectNode run) {
        ObjectNode spec = (ObjectNode) run.get("spec");
        ObjectNode backend = spec.has("backend") ? (ObjectNode) spec.get("backend") : spec.putObject("backend");
        ObjectNode database =
                backend.has("database") ? (ObjectNode) backend.get("database") : backend.putObject("database");
        return database.has("external") ? (ObjectNode) database.get("external") : database.putObject("external");
    }
}
