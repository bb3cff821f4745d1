package dev.stackbench.chart;

import static org.awaitility.Awaitility.await;

import dev.stackbench.testcluster.TestCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Puts the operator's ServiceAccount and RBAC into a test cluster exactly as the chart renders them, so an
 * operator integration test can run with the chart's permissions and nothing more, proving they are enough:
 *
 * <pre>{@code
 * String namespace = cluster.createNamespace("operator");
 * ChartRbac.Grant grant = ChartRbac.apply(cluster, namespace, List.of());          // watch every namespace
 * KubernetesClient asOperator = cluster.clientForServiceAccount(namespace, grant.serviceAccount());
 * // start the operator with asOperator; leader election must use grant.leaseName() in grant.namespace()
 * }</pre>
 *
 * <p>The CRD is not part of the grant (install it as administrator, as the tests already do).
 */
public final class ChartRbac {

    /**
     * What the chart granted: the ServiceAccount to run as, and the only Lease it may hold (the operator's fixed
     * leader-election Lease, in the operator's namespace).
     */
    public record Grant(String namespace, String serviceAccount, String leaseName) {}

    private ChartRbac() {}

    /**
     * Renders the chart's ServiceAccount and RBAC for an operator in {@code operatorNamespace} watching
     * {@code watchNamespaces} (empty: all, the chart's {@code watch.allNamespaces}) and applies them as administrator. Extra helm arguments (e.g.
     * {@code --set database.secretName=...}) go to `helm template`.
     */
    public static Grant apply(
            TestCluster cluster, String operatorNamespace, List<String> watchNamespaces, String... extraHelmArguments) {
        // The release name carries the namespace, so grants of several tests never share cluster-wide objects.
        String release = "stackbench-" + operatorNamespace;
        List<String> arguments = new ArrayList<>(List.of(
                "--show-only",
                "templates/serviceaccount.yaml",
                "--show-only",
                "templates/rbac.yaml",
                "--set",
                "crds.enabled=false"));
        if (watchNamespaces.isEmpty()) {
            arguments.addAll(List.of("--set", "watch.allNamespaces=true"));
        } else {
            arguments.addAll(List.of("--set", "watch.namespaces={" + String.join(",", watchNamespaces) + "}"));
        }
        arguments.addAll(List.of(extraHelmArguments));
        String rbac;
        try (OfflineChart chart = OfflineChart.create()) {
            rbac = chart.template(release, operatorNamespace, arguments).yaml();
        }
        cluster.kubectlWithInput(rbac, "apply", "-f", "-").requireSuccess();
        String fullname = release.length() > 63 ? release.substring(0, 63) : release;
        Grant grant = new Grant(operatorNamespace, fullname, "stackbench-operator");
        awaitEffective(cluster, grant, watchNamespaces.isEmpty() ? List.of(operatorNamespace) : watchNamespaces);
        return grant;
    }

    /** The API server's authorizer sees new roles moments after they are created; return only once it does. */
    private static void awaitEffective(TestCluster cluster, Grant grant, List<String> watchedNamespaces) {
        String user = "system:serviceaccount:" + grant.namespace() + ":" + grant.serviceAccount();
        await("the chart's RBAC in effect for " + user)
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    boolean watches = watchedNamespaces.stream()
                            .allMatch(namespace ->
                                    allowed(cluster, user, namespace, "watch", "benchmarkruns.stackbench.dev"));
                    return watches
                            && allowed(
                                    cluster,
                                    user,
                                    grant.namespace(),
                                    "update",
                                    "leases.coordination.k8s.io/" + grant.leaseName());
                });
    }

    private static boolean allowed(TestCluster cluster, String user, String namespace, String verb, String resource) {
        return cluster.kubectl("auth", "can-i", verb, resource, "--namespace", namespace, "--as", user)
                .stdout()
                .strip()
                .startsWith("yes");
    }
}
