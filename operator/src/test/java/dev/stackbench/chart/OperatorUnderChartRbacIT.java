package dev.stackbench.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.operator.OperatorSettings;
import dev.stackbench.operator.StackbenchOperator;
import dev.stackbench.operator.objects.VerificationPod;
import dev.stackbench.testcluster.ProjectTools;
import dev.stackbench.testcluster.TestCluster;
import dev.stackbench.testcluster.TestClusterExtension;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The operator, running as the chart's ServiceAccount with exactly the chart's RBAC (namespaced watch), takes a
 * BenchmarkRun from examples/ through provisioning: it records Events, creates the delay service, the target, the
 * k6 script and the k6-operator TestRun, and cleans all of it up when the run is deleted. Any permission the chart
 * forgot shows up here as a 403. (No k6-operator runs here, so the TestRun is never started; the operator's own
 * integration suite runs whole runs, leader election included, under the same RBAC through OperatorHarness.)
 */
@Order(10)
@ExtendWith(TestClusterExtension.class)
class OperatorUnderChartRbacIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final ResourceDefinitionContext TEST_RUNS = new ResourceDefinitionContext.Builder()
            .withGroup("k6.io")
            .withVersion("v1alpha1")
            .withPlural("testruns")
            .withKind("TestRun")
            .withNamespaced(true)
            .build();

    @Test
    void operatorProvisionsAndCleansUpARunWithTheChartsPermissionsOnly(TestCluster cluster) {
        cluster.kubectl(
                        "apply",
                        "--server-side",
                        "--force-conflicts",
                        "-f",
                        ProjectTools.repositoryRoot().resolve("crds").toString())
                .requireSuccess();
        String operatorNamespace = cluster.createNamespace("operator");
        String runs = cluster.createNamespace("runs");
        cluster.client()
                .secrets()
                .inNamespace(runs)
                .resource(new SecretBuilder()
                        .withNewMetadata()
                        .withName("stackbench-database")
                        .endMetadata()
                        .withStringData(Map.of("username", "stackbench", "password", "stackbench"))
                        .build())
                .create();

        ChartRbac.Grant grant = ChartRbac.apply(cluster, operatorNamespace, List.of(runs));
        KubernetesClient asOperator = cluster.clientForServiceAccount(operatorNamespace, grant.serviceAccount());
        VariantCatalogue catalogue = VariantCatalogue.load();
        OperatorSettings settings = new OperatorSettings(
                "it",
                "stackbench/postgres:15",
                "stackbench-database",
                null,
                null,
                Duration.ofMillis(500),
                OperatorSettings.defaults().targetReadyLimit());

        // As the chart installs it, the operator verifies each run's work: it creates the verification pod with the
        // chart's rights once the target is Ready (kwok's pods never run it; the real-node tests do).
        String verifyWork = System.clearProperty(VerificationPod.ENABLED_PROPERTY);
        StackbenchOperator verifying;
        try {
            verifying = new StackbenchOperator(asOperator, catalogue, settings, Set.of(runs), null);
        } finally {
            if (verifyWork != null) {
                System.setProperty(VerificationPod.ENABLED_PROPERTY, verifyWork);
            }
        }
        try (StackbenchOperator operator = verifying) {
            operator.start();
            await("operator ready").atMost(WAIT).until(operator::isReady);

            cluster.kubectl(
                            "apply",
                            "--namespace",
                            runs,
                            "-f",
                            ProjectTools.repositoryRoot()
                                    .resolve("examples/webflux-r2dbc.yaml")
                                    .toString())
                    .requireSuccess();

            await("the run's database, delay service, target, k6 script and TestRun")
                    .atMost(WAIT)
                    .untilAsserted(() -> {
                        assertThat(cluster.client()
                                        .apps()
                                        .deployments()
                                        .inNamespace(runs)
                                        .list()
                                        .getItems())
                                .extracting(d -> d.getMetadata().getName())
                                .containsExactlyInAnyOrder(
                                        "webflux-r2dbc-db", "webflux-r2dbc-delay", "webflux-r2dbc-target");
                        assertThat(cluster.client()
                                        .services()
                                        .inNamespace(runs)
                                        .list()
                                        .getItems())
                                .hasSize(3);
                        // The database's password Secret, which the chart's rights let the operator create only.
                        assertThat(cluster.client()
                                        .secrets()
                                        .inNamespace(runs)
                                        .withName("webflux-r2dbc-db")
                                        .get())
                                .isNotNull();
                        assertThat(cluster.client()
                                        .configMaps()
                                        .inNamespace(runs)
                                        .withLabel("app.kubernetes.io/managed-by", "stackbench")
                                        .list()
                                        .getItems())
                                .isNotEmpty();
                        assertThat(testRuns(cluster, runs)).hasSize(1);
                    });
            await("the verification pod, created with the chart's rights")
                    .atMost(WAIT)
                    .untilAsserted(() -> assertThat(cluster.client()
                                    .pods()
                                    .inNamespace(runs)
                                    .withName("webflux-r2dbc-verify")
                                    .get())
                            .isNotNull());
            // A pass records its steps as Events after the objects it made, so the pod may be seen first.
            await("Events the operator recorded on the run, with the chart's rights")
                    .atMost(WAIT)
                    .untilAsserted(() -> assertThat(cluster.client()
                                    .v1()
                                    .events()
                                    .inNamespace(runs)
                                    .list()
                                    .getItems())
                            .as("Events the operator recorded on the run")
                            .anyMatch(event -> "BenchmarkRun"
                                    .equals(event.getInvolvedObject().getKind())));

            cluster.client()
                    .resources(BenchmarkRun.class)
                    .inNamespace(runs)
                    .withName("webflux-r2dbc")
                    .delete();
            await("the run and everything it created are gone").atMost(WAIT).untilAsserted(() -> {
                assertThat(cluster.client()
                                .resources(BenchmarkRun.class)
                                .inNamespace(runs)
                                .list()
                                .getItems())
                        .isEmpty();
                assertThat(cluster.client()
                                .apps()
                                .deployments()
                                .inNamespace(runs)
                                .list()
                                .getItems())
                        .isEmpty();
                assertThat(testRuns(cluster, runs)).isEmpty();
            });
        } finally {
            cluster.client().namespaces().withName(runs).delete();
            cluster.client().namespaces().withName(operatorNamespace).delete();
        }
    }

    private static List<GenericKubernetesResource> testRuns(TestCluster cluster, String namespace) {
        return cluster.client()
                .genericKubernetesResources(TEST_RUNS)
                .inNamespace(namespace)
                .list()
                .getItems();
    }
}
