package dev.stackbench.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.stackbench.testcluster.CommandResult;
import dev.stackbench.testcluster.TestCluster;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * `helm install --wait` and `helm test` against a real API server, controller manager and scheduler (kwok runs
 * the pods: they become Ready without running containers, and the test hook pod completes). The namespace
 * enforces the Pod Security "restricted" profile, so the API server itself refuses any pod that breaks it.
 * The chart's dependencies are off and the release points at an existing PostgreSQL, as on a cluster that
 * already has one. RBAC is checked with the API server's own authorizer (`kubectl auth can-i --as`).
 */
@Order(9)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ChartInstallIT {

    private TestCluster cluster;
    private OfflineChart chart;

    @BeforeAll
    void start() {
        cluster = TestCluster.start();
        chart = OfflineChart.create();
    }

    @AfterAll
    void stop() {
        if (chart != null) {
            chart.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    // First: it installs the CRD, which the other tests' releases (crds.enabled=false) and kubectl rely on.
    @Test
    @Order(1)
    void installsPassesHelmTestGrantsWhatTheOperatorNeedsAndKeepsTheCrd() {
        String namespace = restrictedNamespace("stackbench");
        cluster.kubectl(
                        "-n",
                        namespace,
                        "create",
                        "secret",
                        "generic",
                        "external-postgres",
                        "--from-literal=username=bench",
                        "--from-literal=password=bench-secret")
                .requireSuccess();

        CommandResult install = helm(
                        "install",
                        "sb",
                        "chart",
                        "--namespace",
                        namespace,
                        "--wait",
                        "--timeout",
                        "3m",
                        "--set",
                        "database.image=stackbench/postgres:15",
                        "--set",
                        "database.createSecret=false",
                        "--set",
                        "database.secretName=external-postgres")
                .requireSuccess();
        assertThat(install.stdout())
                .as("the notes give the next commands")
                .contains("helm test sb -n " + namespace)
                .contains("kubectl apply -n " + namespace + " -f examples/webflux-r2dbc.yaml")
                .contains("kubectl get benchmarkruns")
                .contains("--set k6.installOperator=true");

        Deployment operator = cluster.client()
                .apps()
                .deployments()
                .inNamespace(namespace)
                .withName("sb-stackbench")
                .get();
        assertThat(operator.getStatus().getReadyReplicas()).isEqualTo(1);
        CommandResult test =
                helm("test", "sb", "--namespace", namespace, "--timeout", "2m").requireSuccess();
        assertThat(test.stdout()).contains("sb-stackbench-test-ready").contains("Succeeded");

        String operatorAccount = "system:serviceaccount:" + namespace + ":sb-stackbench";
        String elsewhere = cluster.createNamespace("team");
        for (String allowed : List.of(
                "get benchmarkruns.stackbench.dev",
                "watch benchmarkruns.stackbench.dev",
                "patch benchmarkruns.stackbench.dev --subresource=status",
                "update benchmarkruns.stackbench.dev --subresource=finalizers",
                // A comparison's repetitions are runs the operator creates, owned by the comparison.
                "create benchmarkruns.stackbench.dev",
                "watch benchmarkcomparisons.stackbench.dev",
                "patch benchmarkcomparisons.stackbench.dev --subresource=status",
                "create deployments.apps",
                "delete services",
                "patch configmaps",
                "create testruns.k6.io",
                "list pods",
                // The verification pod of each run, before its load.
                "create pods",
                "delete pods",
                "get pods --subresource=log",
                "get pods --subresource=proxy",
                "watch jobs.batch",
                "create events",
                "create networkpolicies.networking.k8s.io",
                "delete networkpolicies.networking.k8s.io",
                // The password Secret of a run's own database: created and deleted by name, never read.
                "create secrets",
                "delete secrets")) {
            // By default the operator watches its own namespace only, and has its rights there alone.
            assertAllowed(operatorAccount, namespace, allowed);
            assertDenied(operatorAccount, elsewhere, allowed);
        }
        // Nodes belong to no namespace: their kubelets' metrics, and none of the kubelets' other endpoints.
        assertAllowed(operatorAccount, namespace, "get nodes --subresource=metrics");
        assertDenied(operatorAccount, namespace, "get nodes --subresource=proxy");
        for (String denied : List.of(
                "get secrets",
                "list secrets",
                "watch secrets",
                "update secrets",
                "patch pods",
                "create pods --subresource=exec",
                "create jobs.batch",
                "delete benchmarkruns.stackbench.dev",
                "create benchmarkcomparisons.stackbench.dev",
                "delete benchmarkcomparisons.stackbench.dev",
                "list nodes",
                "create clusterroles.rbac.authorization.k8s.io",
                "create leases.coordination.k8s.io")) {
            assertDenied(operatorAccount, elsewhere, denied);
            if (!denied.equals("create leases.coordination.k8s.io")) {
                assertDenied(operatorAccount, namespace, denied);
            }
        }
        assertAllowed(operatorAccount, namespace, "update leases.coordination.k8s.io/stackbench-operator");
        assertThat(canI(operatorAccount, namespace, "update leases.coordination.k8s.io/someone-elses"))
                .isFalse();
        assertAllowed(operatorAccount, namespace, "create leases.coordination.k8s.io");

        helm("uninstall", "sb", "--namespace", namespace, "--wait").requireSuccess();
        assertThat(cluster.client()
                        .apiextensions()
                        .v1()
                        .customResourceDefinitions()
                        .withName("benchmarkruns.stackbench.dev")
                        .get())
                .as("the CRD (and every run's results) survives uninstall with crds.keep")
                .isNotNull();
        assertThat(cluster.client()
                        .apps()
                        .deployments()
                        .inNamespace(namespace)
                        .withName("sb-stackbench")
                        .get())
                .isNull();
    }

    @Test
    void namespacedInstallGrantsNothingOutsideTheWatchedNamespace() {
        String namespace = restrictedNamespace("stackbench-scoped");
        String watched = cluster.createNamespace("watched");
        String other = cluster.createNamespace("other");

        helm(
                        "install",
                        "scoped",
                        "chart",
                        "--namespace",
                        namespace,
                        "--wait",
                        "--timeout",
                        "3m",
                        "--set",
                        "crds.enabled=false",
                        "--set",
                        "watch.namespaces={" + watched + "}")
                .requireSuccess();

        String operatorAccount = "system:serviceaccount:" + namespace + ":scoped-stackbench";
        assertAllowed(operatorAccount, watched, "create deployments.apps");
        assertAllowed(operatorAccount, watched, "watch benchmarkruns.stackbench.dev");
        assertThat(canI(operatorAccount, other, "create deployments.apps")).isFalse();
        assertThat(canI(operatorAccount, other, "watch benchmarkruns.stackbench.dev"))
                .isFalse();
        assertThat(canI(operatorAccount, namespace, "get secrets/stackbench-database"))
                .isFalse();
        assertThat(cluster.client()
                        .secrets()
                        .inNamespace(namespace)
                        .withName("stackbench-database")
                        .get()
                        .getData())
                .containsKeys("username", "password");
        assertThat(cluster.client()
                        .secrets()
                        .inNamespace(watched)
                        .withName("stackbench-database")
                        .get()
                        .getData())
                .as("runs in the watched namespace find the external database's credentials there")
                .isEqualTo(cluster.client()
                        .secrets()
                        .inNamespace(namespace)
                        .withName("stackbench-database")
                        .get()
                        .getData());
        helm("uninstall", "scoped", "--namespace", namespace, "--wait").requireSuccess();
    }

    @Test
    void rbacHelperLetsATestActAsTheChartsServiceAccount() {
        String operatorNamespace = cluster.createNamespace("operator");
        String watched = cluster.createNamespace("runs");

        ChartRbac.Grant grant = ChartRbac.apply(cluster, operatorNamespace, List.of(watched));
        KubernetesClient asOperator = cluster.clientForServiceAccount(operatorNamespace, grant.serviceAccount());

        ConfigMap script = new ConfigMapBuilder()
                .withNewMetadata()
                .withName("k6-script")
                .endMetadata()
                .addToData("script.js", "export default function () {}")
                .build();
        assertThat(asOperator.configMaps().inNamespace(watched).resource(script).create())
                .isNotNull();
        assertThat(asOperator.pods().inNamespace(watched).list().getItems()).isEmpty();
        assertThatThrownBy(() -> asOperator.secrets().inNamespace(watched).list())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode())
                        .isEqualTo(403));
        assertThatThrownBy(() ->
                        asOperator.configMaps().inNamespace(operatorNamespace).list())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode())
                        .isEqualTo(403));
        assertAllowed(
                "system:serviceaccount:" + operatorNamespace + ":" + grant.serviceAccount(),
                operatorNamespace,
                "update leases.coordination.k8s.io/" + grant.leaseName());
    }

    private String restrictedNamespace(String prefix) {
        String namespace = cluster.createNamespace(prefix);
        cluster.kubectl(
                        "label",
                        "namespace",
                        namespace,
                        "pod-security.kubernetes.io/enforce=restricted",
                        "pod-security.kubernetes.io/enforce-version=latest")
                .requireSuccess();
        return namespace;
    }

    private CommandResult helm(String... arguments) {
        List<String> command = new ArrayList<>(List.of(arguments));
        command.addAll(List.of("--kubeconfig", cluster.kubeconfig().toString()));
        return chart.helm(command);
    }

    /** Waits (briefly) for the authorizer to allow it: new roles take a moment to reach its cache. */
    private void assertAllowed(String user, String namespace, String action) {
        await(user + " may " + action + " in " + namespace)
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> canI(user, namespace, action));
    }

    private void assertDenied(String user, String namespace, String action) {
        assertThat(canI(user, namespace, action))
                .as("%s may not %s in %s", user, action, namespace)
                .isFalse();
    }

    /** Asks the API server's authorizer whether the user may do {@code action} ("verb resource [flags]"). */
    private boolean canI(String user, String namespace, String action) {
        List<String> command = new ArrayList<>(List.of("auth", "can-i"));
        command.addAll(List.of(action.split(" ")));
        command.addAll(List.of("--namespace", namespace, "--as", user));
        CommandResult result = cluster.kubectl(command.toArray(String[]::new));
        // "yes", or "no" possibly followed by the authorizer's reason.
        String answer = result.stdout().strip().split("\\s+", 2)[0];
        if (!answer.equals("yes") && !answer.equals("no")) {
            throw new IllegalStateException("kubectl auth can-i gave no answer:\n" + result.describe());
        }
        return answer.equals("yes");
    }
}
