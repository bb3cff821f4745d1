package dev.stackbench.operator;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.comparison.BenchmarkComparison;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.chart.ChartRbac;
import dev.stackbench.operator.objects.VerificationPod;
import dev.stackbench.operator.run.AdmissionPolicy;
import dev.stackbench.testcluster.CommandResult;
import dev.stackbench.testcluster.ProjectTools;
import dev.stackbench.testcluster.TestCluster;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * The operator running in-process against the test cluster, watching one namespace of its own, with short polling
 * so the integration tests stay quick. Installs the generated BenchmarkRun CRD (crds/) once per cluster.
 *
 * <p>The operator runs as the chart's ServiceAccount with exactly the RBAC the chart renders for a namespaced watch
 * (charts/stackbench, {@link ChartRbac}), from an operator namespace of its own; tests act as administrator through
 * {@link #client()}. So every operator integration test also proves the chart grants what the operator uses: a
 * missing permission fails the run with a 403.
 */
final class OperatorHarness implements AutoCloseable {

    /** An upper bound for a phase to be reached on a loaded 2-core machine; never a measured expectation. */
    static final Duration WAIT = Duration.ofMinutes(3);

    static final String DATABASE_SECRET = "stackbench-postgresql";

    private static boolean crdInstalled;

    static {
        // kwok's fake nodes run no containers, so a run's verification pod would never end: the operators of these
        // tests start their loads unverified. The real-node end-to-end tests verify every run (RealNodesE2E).
        System.setProperty(VerificationPod.ENABLED_PROPERTY, "false");
    }

    private final TestCluster cluster;
    private final String namespace;
    private final String operatorNamespace;
    private final KubernetesClient operatorClient;
    private final ChartRbac.Grant grant;
    private final OperatorSettings settings;
    private StackbenchOperator operator;

    OperatorHarness(TestCluster cluster, String namespacePrefix) {
        this(cluster, namespacePrefix, AdmissionPolicy.strict(), settings -> settings);
    }

    /** An operator whose settings are the harness's, changed by {@code adjust}. */
    OperatorHarness(TestCluster cluster, String namespacePrefix, UnaryOperator<OperatorSettings> adjust) {
        this(cluster, namespacePrefix, AdmissionPolicy.strict(), adjust);
    }

    /**
     * An operator under an admission policy of its own, with the RBAC the chart renders for it ({@code chartValues},
     * e.g. {@code --set policy.databaseSecrets.label=...}, go to `helm template` as the policy's values would).
     */
    OperatorHarness(TestCluster cluster, String namespacePrefix, AdmissionPolicy policy, String... chartValues) {
        this(cluster, namespacePrefix, policy, settings -> settings, chartValues);
    }

    private OperatorHarness(
            TestCluster cluster,
            String namespacePrefix,
            AdmissionPolicy policy,
            UnaryOperator<OperatorSettings> adjust,
            String... chartValues) {
        this.cluster = cluster;
        installCrd(cluster);
        this.namespace = cluster.createNamespace(namespacePrefix);
        this.operatorNamespace = cluster.createNamespace(namespacePrefix + "-operator");
        this.grant = ChartRbac.apply(cluster, operatorNamespace, List.of(namespace), chartValues);
        this.operatorClient = cluster.clientForServiceAccount(operatorNamespace, grant.serviceAccount());
        client().secrets()
                .inNamespace(namespace)
                .resource(new SecretBuilder()
                        .withNewMetadata()
                        .withName(DATABASE_SECRET)
                        .endMetadata()
                        .withStringData(Map.of("username", "stackbench", "password", "stackbench"))
                        .build())
                .create();
        this.settings = adjust.apply(new OperatorSettings(
                "it",
                "stackbench/postgres:15",
                DATABASE_SECRET,
                null,
                null,
                Duration.ofMillis(500),
                OperatorSettings.defaults().targetReadyLimit(),
                policy));
        startOperator();
    }

    static synchronized void installCrd(TestCluster cluster) {
        if (crdInstalled) {
            return;
        }
        Path crds = ProjectTools.repositoryRoot().resolve("crds");
        cluster.kubectl("apply", "--server-side", "-f", crds.toString()).requireSuccess();
        for (String name : List.of(BenchmarkRun.CRD_NAME, BenchmarkComparison.CRD_NAME)) {
            await("CRD " + name + " Established").atMost(WAIT).until(() -> {
                var established = cluster.client()
                        .apiextensions()
                        .v1()
                        .customResourceDefinitions()
                        .withName(name)
                        .get();
                return established != null
                        && established.getStatus() != null
                        && established.getStatus().getConditions() != null
                        && established.getStatus().getConditions().stream()
                                .anyMatch(condition -> "Established".equals(condition.getType())
                                        && "True".equals(condition.getStatus()));
            });
        }
        crdInstalled = true;
    }

    KubernetesClient client() {
        return cluster.client();
    }

    /** The client the operator uses: the chart's ServiceAccount, for an operator run in a process of its own. */
    KubernetesClient operatorClient() {
        return operatorClient;
    }

    String namespace() {
        return namespace;
    }

    /** The chart's Role for the operator in {@link #namespace()} (it shares the release's full name). */
    String operatorRole() {
        return grant.serviceAccount();
    }

    /**
     * Waits until the API server's authorizer gives the operator a right in {@link #namespace()}, or no longer gives
     * it, after a test changed {@link #operatorRole()}: role changes take effect moments after they are stored.
     */
    void awaitOperatorRight(String verb, String resource, boolean allowed) {
        String user = "system:serviceaccount:" + operatorNamespace + ":" + grant.serviceAccount();
        await("the operator " + (allowed ? "may " : "may not ") + verb + " " + resource)
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> cluster.kubectl("auth", "can-i", verb, resource, "--namespace", namespace, "--as", user)
                                .stdout()
                                .strip()
                                .startsWith("yes")
                        == allowed);
    }

    /** Where the operator's ServiceAccount and its leader-election Lease live. */
    String operatorNamespace() {
        return operatorNamespace;
    }

    void startOperator() {
        operator = newOperator(false);
        operator.start();
    }

    /**
     * An operator of this namespace that the caller starts and closes; leader-elected on the chart's Lease in
     * {@link #operatorNamespace()} when asked.
     */
    StackbenchOperator newOperator(boolean leaderElection) {
        return new StackbenchOperator(
                operatorClient,
                ExampleRuns.catalogue(),
                settings,
                Set.of(namespace),
                leaderElection ? operatorNamespace : null,
                false);
    }

    void stopOperator() {
        operator.close();
        operator = null;
    }

    /**
     * examples/webflux-r2dbc.yaml with a short, low-rate workload, edited by {@code edit} (a YAML tree), as the
     * text kubectl would apply.
     */
    static String example(String name, Consumer<ObjectNode> edit) throws Exception {
        JsonNode tree =
                BenchmarkRuns.yamlMapper().readTree(Files.readString(ExampleRuns.example("webflux-r2dbc.yaml")));
        ObjectNode root = (ObjectNode) tree;
        ((ObjectNode) root.get("metadata")).put("name", name);
        ObjectNode workload = (ObjectNode) root.at("/spec/workload");
        workload.put("warmup", "2s");
        workload.put("duration", "4s");
        workload.put("parallelism", 2);
        ((ObjectNode) workload.get("load")).put("rate", 10).put("vus", 20);
        ((ObjectNode) root.get("spec")).put("timeout", "3m");
        edit.accept(root);
        return BenchmarkRuns.yamlMapper().writeValueAsString(root);
    }

    /**
     * A BenchmarkComparison of {@link #example}'s run as its template (target variant and image removed), with the
     * given variants entries and repetitions, edited by {@code edit}, as the text kubectl would apply.
     */
    static String comparison(
            String name, int repetitions, List<Map<String, Object>> variants, Consumer<ObjectNode> edit)
            throws Exception {
        ObjectNode run = (ObjectNode) BenchmarkRuns.yamlMapper().readTree(example(name, tree -> {}));
        ObjectNode template = (ObjectNode) run.get("spec");
        ObjectNode target = (ObjectNode) template.get("target");
        target.remove("variant");
        target.remove("image");
        ObjectNode root = BenchmarkRuns.yamlMapper().createObjectNode();
        root.put("apiVersion", BenchmarkRun.API_VERSION);
        root.put("kind", BenchmarkComparison.KIND);
        root.putObject("metadata").put("name", name);
        ObjectNode spec = root.putObject("spec");
        spec.set("template", template);
        spec.set("variants", BenchmarkRuns.yamlMapper().valueToTree(variants));
        spec.put("repetitions", repetitions);
        edit.accept(root);
        return BenchmarkRuns.yamlMapper().writeValueAsString(root);
    }

    BenchmarkComparison comparison(String name) {
        return client().resources(BenchmarkComparison.class)
                .inNamespace(namespace)
                .withName(name)
                .get();
    }

    /** Waits until the comparison has ended in {@code phase}; fails at once when it ends in the other one. */
    BenchmarkComparison awaitComparison(
            String name, dev.stackbench.api.comparison.ComparisonPhase phase, Duration atMost) {
        try {
            await("BenchmarkComparison " + name + " in phase " + phase)
                    .atMost(atMost)
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        BenchmarkComparison comparison = comparison(name);
                        var now = comparison == null || comparison.getStatus() == null
                                ? null
                                : comparison.getStatus().getPhase();
                        boolean ended = now == dev.stackbench.api.comparison.ComparisonPhase.Succeeded
                                || now == dev.stackbench.api.comparison.ComparisonPhase.Failed;
                        if (ended && now != phase) {
                            throw new AssertionError("BenchmarkComparison " + name + " ended " + now + " instead of "
                                    + phase + ": " + BenchmarkRuns.toYaml(comparison.getStatus()));
                        }
                        return now == phase;
                    });
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            BenchmarkComparison comparison = comparison(name);
            throw new AssertionError(
                    e.getMessage() + "; its status:\n"
                            + (comparison == null ? "(no comparison)" : BenchmarkRuns.toYaml(comparison.getStatus())),
                    e);
        }
        return comparison(name);
    }

    /** The Deployments in {@link #namespace()}: the runs' databases, delay services and targets. */
    List<Deployment> deployments() {
        return client().apps().deployments().inNamespace(namespace).list().getItems();
    }

    CommandResult apply(String yaml) {
        return cluster.kubectlWithInput(yaml, "apply", "--namespace", namespace, "-f", "-");
    }

    BenchmarkRun run(String name) {
        return client().resources(BenchmarkRun.class)
                .inNamespace(namespace)
                .withName(name)
                .get();
    }

    BenchmarkRun awaitPhase(String name, dev.stackbench.api.status.Phase phase) {
        try {
            await("BenchmarkRun " + name + " in phase " + phase)
                    .atMost(WAIT)
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> {
                        BenchmarkRun run = run(name);
                        dev.stackbench.api.status.Phase now = run == null || run.getStatus() == null
                                ? null
                                : run.getStatus().getPhase();
                        if (now != null && now.isTerminal() && now != phase) {
                            throw new AssertionError("BenchmarkRun " + name + " ended " + now + " instead of "
                                    + phase + ": " + run.getStatus().getMessage() + "\n"
                                    + BenchmarkRuns.toYaml(run.getStatus()));
                        }
                        return now == phase;
                    });
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            BenchmarkRun run = run(name);
            throw new AssertionError(
                    e.getMessage() + "; its status:\n"
                            + (run == null ? "(no run)" : BenchmarkRuns.toYaml(run.getStatus())),
                    e);
        }
        return run(name);
    }

    @Override
    public void close() {
        if (operator != null) {
            stopOperator();
        }
        client().namespaces().withName(namespace).delete();
        client().namespaces().withName(operatorNamespace).delete();
    }
}
