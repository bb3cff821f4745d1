package dev.stackbench.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.stackbench.testcluster.CommandResult;
import dev.stackbench.testcluster.ProjectTools;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The chart as `helm lint` and `helm template` see it, for every value combination a user is likely to pick,
 * each rendered manifest validated offline by kubeconform against the real Kubernetes and CRD schemas.
 */
@Order(6)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChartRenderIT {

    private static final String RELEASE = "sb";
    private static final String NAMESPACE = "stackbench";
    private static final String FULLNAME = "sb-stackbench";

    private OfflineChart chart;
    private Kubeconform kubeconform;

    @BeforeAll
    void prepare() {
        chart = OfflineChart.create();
        kubeconform = Kubeconform.create(List.of(chart.prometheusOperatorCrds()));
    }

    @AfterAll
    void cleanUp() {
        if (chart != null) {
            chart.close();
        }
        if (kubeconform != null) {
            kubeconform.close();
        }
    }

    static Stream<Arguments> valueCombinations() {
        return Stream.concat(namedCombinations(), dependencySwitches());
    }

    /** Every combination of the chart's three dependency switches, with the real charts (none switched on: defaults). */
    static Stream<Arguments> dependencySwitches() {
        List<String> switches = List.of("postgresql.enabled", "k6.installOperator", "kube-prometheus-stack.enabled");
        List<Arguments> combinations = new ArrayList<>();
        for (int mask = 1; mask < 1 << switches.size(); mask++) {
            List<String> values = new ArrayList<>();
            List<String> on = new ArrayList<>();
            for (int i = 0; i < switches.size(); i++) {
                boolean enabled = (mask & 1 << i) != 0;
                values.addAll(List.of("--set", switches.get(i) + "=" + enabled));
                if (enabled) {
                    on.add(switches.get(i));
                }
            }
            combinations.add(Arguments.of("dependencies: " + String.join(" + ", on), values));
        }
        return combinations.stream();
    }

    static Stream<Arguments> namedCombinations() {
        return Stream.of(
                Arguments.of("defaults", List.of()),
                Arguments.of("crds off", List.of("--set", "crds.enabled=false")),
                Arguments.of("crds not kept", List.of("--set", "crds.keep=false")),
                Arguments.of("namespaced watch", List.of("--set", "watch.namespaces={team-a,team-b}")),
                Arguments.of("every namespace watched", List.of("--set", "watch.allNamespaces=true")),
                Arguments.of(
                        "policy widened",
                        List.of(
                                "--set",
                                "policy.targetImages.allowedRepositories={registry.example.com/bench/}",
                                "--set",
                                "policy.databaseSecrets.label=stackbench.dev/database=true",
                                "--set",
                                "policy.externalDatabases.allowedHosts={db.example.com}",
                                "--set",
                                "policy.targetEnv.denied={JAVA_OPTS}")),
                Arguments.of(
                        "prometheus on, namespaced watch",
                        List.of("--set", "kube-prometheus-stack.enabled=true", "--set", "watch.namespaces={team-a}")),
                Arguments.of(
                        "existing database",
                        List.of(
                                "--set",
                                "database.image=registry.example.com/postgres:17.6",
                                "--set",
                                "database.createSecret=false",
                                "--set",
                                "database.secretName=pg-credentials")),
                Arguments.of(
                        "custom images",
                        List.of(
                                "--set",
                                "image.repository=registry.example.com/sb/operator",
                                "--set",
                                "image.tag=1.2.3",
                                "--set",
                                "targetImages.tag=1.2.3",
                                "--set",
                                "k6.runnerImage=registry.example.com/k6:1.8.1",
                                "--set",
                                "imagePullSecrets[0].name=regcred")),
                Arguments.of(
                        "resources",
                        List.of(
                                "--set",
                                "resources.requests.cpu=250m",
                                "--set",
                                "resources.requests.memory=384Mi",
                                "--set",
                                "resources.limits.cpu=2",
                                "--set",
                                "resources.limits.memory=1Gi")),
                Arguments.of(
                        "no leader election, system pool",
                        List.of(
                                "--set", "operator.leaderElection.enabled=false",
                                "--set", "nodeSelector.stackbench\\.dev/pool=system")),
                Arguments.of(
                        "existing service account, no rbac",
                        List.of(
                                "--set",
                                "serviceAccount.create=false",
                                "--set",
                                "serviceAccount.name=platform-operator",
                                "--set",
                                "rbac.create=false")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valueCombinations")
    void everyCombinationLintsAndRendersSchemaValidRestrictedPods(String name, List<String> values) {
        List<String> lint = new ArrayList<>(List.of("lint", "chart", "--strict", "--namespace", NAMESPACE));
        lint.addAll(values);
        chart.helm(lint).requireSuccess();

        Manifests manifests = chart.template(RELEASE, NAMESPACE, values);

        CommandResult validation = kubeconform.validate(manifests.yaml());
        assertThat(validation.succeeded())
                .as("kubeconform on %s:\n%s", name, validation.describe())
                .isTrue();
        for (PodSpec pod : podSpecs(manifests)) {
            assertThat(RestrictedPodSecurity.violations(pod))
                    .as("Pod Security restricted + resources (%s)", name)
                    .isEmpty();
        }
    }

    /**
     * k6-operator's real chart (packaged by hack/setup.sh from its source): the controller, its RBAC and the
     * TestRun CRD come with the release, in the release namespace, on the image hack/images.sh builds; the
     * operator hands the runner and starter images to every TestRun.
     */
    @Test
    void installOperatorBringsTheRealK6OperatorControllerRbacAndTestRunCrd() {
        Manifests manifests = chart.template(RELEASE, NAMESPACE, List.of("--set", "k6.installOperator=true"));

        CommandResult validation = kubeconform.validate(manifests.yaml());
        assertThat(validation.succeeded())
                .as("kubeconform:\n%s", validation.describe())
                .isTrue();

        JsonNode crd = manifests.get("CustomResourceDefinition", "testruns.k6.io");
        assertThat(crd.path("spec").path("names").path("kind").asText()).isEqualTo("TestRun");
        List<String> versions = new ArrayList<>();
        crd.path("spec")
                .path("versions")
                .forEach(version -> versions.add(version.path("name").asText()));
        assertThat(versions).contains("v1alpha1");

        Deployment controller = Manifests.as(
                manifests.get("Deployment", RELEASE + "-k6-operator-controller-manager"), Deployment.class);
        assertThat(controller.getMetadata().getNamespace()).isEqualTo(NAMESPACE);
        Container manager =
                controller.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(manager.getImage()).isEqualTo("docker.io/stackbench/k6-operator:v1.6.0");
        assertThat(manager.getCommand()).containsExactly("/manager");
        assertThat(RestrictedPodSecurity.violations(
                        controller.getSpec().getTemplate().getSpec()))
                .as("k6-operator's controller meets Pod Security restricted")
                .isEmpty();
        assertThat(manifests.find("Namespace", NAMESPACE))
                .as("the release namespace is helm's, not a second owner's")
                .isEmpty();

        String serviceAccount = controller.getSpec().getTemplate().getSpec().getServiceAccountName();
        JsonNode binding = manifests.ofKind("ClusterRoleBinding").stream()
                .filter(b -> b.path("subjects").findValuesAsText("name").contains(serviceAccount))
                .filter(b -> b.path("roleRef").path("name").asText().endsWith("manager-role"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no ClusterRoleBinding for " + serviceAccount));
        JsonNode role = manifests.get(
                "ClusterRole", binding.path("roleRef").path("name").asText());
        assertThat(rules(role))
                .as("k6-operator may run TestRuns: it reads them and creates their Jobs")
                .contains("k6.io/testruns: create,delete,get,list,patch,update,watch")
                .contains("k6.io/testruns/status: get,patch,update")
                .contains("batch/jobs: create,delete,get,list,patch,update,watch");

        assertThat(env(operatorDeployment(manifests)))
                .containsEntry("STACKBENCH_K6_IMAGE", "stackbench/k6:v1.8.1")
                .containsEntry("STACKBENCH_K6_STARTER_IMAGE", "stackbench/k6-starter:v1.6.0");
    }

    @Test
    void k6OperatorImageAndTheK6ImagesFollowTheValues() {
        Manifests manifests = chart.template(
                RELEASE,
                NAMESPACE,
                List.of(
                        "--set", "k6.installOperator=true",
                        "--set", "k6-operator.manager.image.registry=ghcr.io",
                        "--set", "k6-operator.manager.image.repository=grafana/k6-operator",
                        "--set", "k6-operator.manager.image.tag=controller-v1.6.0",
                        "--set", "k6.runnerImage=grafana/k6:1.8.1",
                        "--set", "k6.starterImage=ghcr.io/grafana/k6-operator:latest-starter"));

        Deployment controller = Manifests.as(
                manifests.get("Deployment", RELEASE + "-k6-operator-controller-manager"), Deployment.class);
        assertThat(controller
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getImage())
                .isEqualTo("ghcr.io/grafana/k6-operator:controller-v1.6.0");
        assertThat(env(operatorDeployment(manifests)))
                .containsEntry("STACKBENCH_K6_IMAGE", "grafana/k6:1.8.1")
                .containsEntry("STACKBENCH_K6_STARTER_IMAGE", "ghcr.io/grafana/k6-operator:latest-starter");
    }

    @Test
    void withoutInstallOperatorNothingOfK6OperatorIsRendered() {
        Manifests manifests = chart.template(RELEASE, NAMESPACE, List.of());

        assertThat(manifests.kinds()).noneMatch(object -> object.contains("k6-operator"));
        assertThat(manifests.find("CustomResourceDefinition", "testruns.k6.io")).isEmpty();
    }

    /**
     * kube-prometheus-stack's real chart with stackbench's values: a Prometheus on the image hack/images.sh builds
     * that accepts remote write (k6's output) and scrapes native histograms, selecting every ServiceMonitor and
     * PodMonitor (stackbench's included); the operator and the config reloader it adds to Prometheus pods on the project's
     * images too. Nothing that needs an image not built here is rendered.
     */
    @Test
    void prometheusStackRunsOurPrometheusWithTheRemoteWriteReceiverAndNativeHistograms() {
        Manifests manifests =
                chart.template(RELEASE, NAMESPACE, List.of("--set", "kube-prometheus-stack.enabled=true"));

        CommandResult validation = kubeconform.validate(manifests.yaml());
        assertThat(validation.succeeded())
                .as("kubeconform:\n%s", validation.describe())
                .isTrue();
        assertThat(manifests.ofKind("Prometheus")).hasSize(1);
        JsonNode prometheus = manifests.ofKind("Prometheus").get(0).path("spec");
        assertThat(prometheus.path("image").asText()).isEqualTo("docker.io/stackbench/prometheus:v3.14.0");
        assertThat(prometheus.path("version").asText()).isEqualTo("v3.14.0");
        assertThat(prometheus.path("enableRemoteWriteReceiver").asBoolean())
                .as("--web.enable-remote-write-receiver")
                .isTrue();
        assertThat(prometheus.path("scrapeNativeHistograms").asBoolean())
                .as("scrape_native_histograms (Prometheus 3.8+ ignores the native-histograms feature flag)")
                .isTrue();
        assertThat(prometheus.path("serviceMonitorSelector").isObject()
                        && prometheus.path("serviceMonitorSelector").isEmpty())
                .as("every ServiceMonitor selected: %s", prometheus.path("serviceMonitorSelector"))
                .isTrue();
        assertThat(prometheus.path("podMonitorSelector").isObject()
                        && prometheus.path("podMonitorSelector").isEmpty())
                .as("every PodMonitor selected: %s", prometheus.path("podMonitorSelector"))
                .isTrue();
        assertThat(manifests
                        .get("PodMonitor", FULLNAME + "-runs")
                        .path("metadata")
                        .path("namespace")
                        .asText())
                .isEqualTo(NAMESPACE);

        Deployment operator = manifests.ofKind("Deployment").stream()
                .map(d -> Manifests.as(d, Deployment.class))
                .filter(d -> d.getMetadata().getName().endsWith("-operator"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no prometheus-operator Deployment in " + manifests.kinds()));
        Container container =
                operator.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(container.getImage()).isEqualTo("docker.io/stackbench/prometheus-operator:v0.93.0");
        assertThat(container.getArgs())
                .contains("--prometheus-config-reloader=docker.io/stackbench/prometheus-config-reloader:v0.93.0");
        assertThat(RestrictedPodSecurity.violations(
                        operator.getSpec().getTemplate().getSpec()))
                .as("prometheus-operator meets Pod Security restricted")
                .isEmpty();

        List<String> images = manifests.objects().stream()
                .filter(object -> object.path("metadata").path("name").asText().contains("kube-prometheus-stack"))
                .flatMap(object -> object.findValuesAsText("image").stream())
                .toList();
        assertThat(images)
                .as("the images of kube-prometheus-stack's objects")
                .hasSize(2)
                .allMatch(image -> image.startsWith("docker.io/stackbench/"));
        assertThat(manifests.kinds())
                .as("Grafana, Alertmanager, the admission webhook, kube-state-metrics and node-exporter are off")
                .noneMatch(object -> object.matches("(Deployment|StatefulSet|DaemonSet|Job|Service|Alertmanager"
                        + "|ValidatingWebhookConfiguration|MutatingWebhookConfiguration)/"
                        + ".*(grafana|alertmanager|admission|kube-state-metrics|node-exporter).*"))
                .noneMatch(object -> object.startsWith("DaemonSet/") || object.startsWith("Job/"));
    }

    @Test
    void strictValidationRejectsAnUnknownFieldSoTheChecksAboveMeanSomething() {
        String manifest = chart.template(RELEASE, NAMESPACE, List.of())
                .yaml()
                .replace("strategy:\n    type: Recreate", "strategy:\n    type: Recreate\n    surge: 1");

        CommandResult validation = kubeconform.validate(manifest);

        assertThat(validation.succeeded()).isFalse();
        assertThat(validation.stdout() + validation.stderr()).contains("surge");
    }

    static Stream<Arguments> watchVariants() {
        return Stream.of(
                Arguments.of("defaults", List.of(), "Role", false, List.of(NAMESPACE)),
                Arguments.of(
                        "listed namespaces",
                        List.of("--set", "watch.namespaces={team-a,team-b}"),
                        "Role",
                        false,
                        List.of("team-a", "team-b")),
                Arguments.of(
                        "database Secret label",
                        List.of("--set", "policy.databaseSecrets.label=stackbench.dev/database=true"),
                        "Role",
                        true,
                        List.of(NAMESPACE)),
                Arguments.of(
                        "every namespace",
                        List.of("--set", "watch.allNamespaces=true"),
                        "ClusterRole",
                        false,
                        List.of()));
    }

    /**
     * No rule of the chart is broader than {@link RbacAllowList}: the resources, verbs and kind of role written there,
     * no wildcard. The operator's rules sit in Roles of the watched namespaces, and in a ClusterRole only when every
     * namespace is watched on purpose; cluster-wide otherwise only the nodes and their metrics.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("watchVariants")
    void noRbacRuleIsBroaderThanTheAllowList(
            String name, List<String> values, String operatorKind, boolean readsSecrets, List<String> watched) {
        Manifests manifests = chart.template(RELEASE, NAMESPACE, values);
        List<JsonNode> roles = new ArrayList<>(manifests.ofKind("Role"));
        roles.addAll(manifests.ofKind("ClusterRole"));
        List<RbacAllowList.Grant> allowed = new ArrayList<>(RbacAllowList.operatorRules(operatorKind, readsSecrets));
        allowed.addAll(RbacAllowList.NODE_METRICS);
        allowed.addAll(RbacAllowList.LEADER_ELECTION);

        assertThat(RbacAllowList.excess(roles, allowed))
                .as("grants beyond the allow-list (%s)", name)
                .isEmpty();
        List<JsonNode> bindings = new ArrayList<>(manifests.ofKind("RoleBinding"));
        bindings.addAll(manifests.ofKind("ClusterRoleBinding"));
        Map<String, String> bound = RbacAllowList.bindings(bindings);
        if (watched.isEmpty()) {
            assertThat(bound)
                    .containsEntry("ClusterRole " + FULLNAME, "ClusterRoleBinding@")
                    .doesNotContainKey("Role " + FULLNAME);
        } else {
            assertThat(bound)
                    .containsEntry(
                            "Role " + FULLNAME,
                            watched.stream()
                                    .map(namespace -> "RoleBinding@" + namespace)
                                    .collect(Collectors.joining(",")))
                    .doesNotContainKey("ClusterRole " + FULLNAME);
        }
        assertThat(bound)
                .containsEntry("ClusterRole " + FULLNAME + "-node-metrics", "ClusterRoleBinding@")
                .containsEntry("Role " + FULLNAME + "-leader-election", "RoleBinding@" + NAMESPACE)
                .hasSize(3);
        String namespaces = args(operatorDeployment(manifests)).stream()
                .filter(argument -> argument.startsWith("--namespace="))
                .findFirst()
                .orElse("(every namespace)");
        assertThat(namespaces)
                .isEqualTo(watched.isEmpty() ? "(every namespace)" : "--namespace=" + String.join(",", watched));
    }

    /** The allow-list check catches what it is there for: a wildcard, an extra verb, a rule moved cluster-wide. */
    @Test
    void theAllowListNamesAWildcardAnExtraVerbAndAClusterWideRule() throws IOException {
        JsonNode widened = new ObjectMapper().readTree("""
                {"kind": "ClusterRole", "metadata": {"name": "x"}, "rules": [
                  {"apiGroups": [""], "resources": ["nodes/log"], "verbs": ["get"]},
                  {"apiGroups": [""], "resources": ["nodes"], "verbs": ["*"]},
                  {"apiGroups": ["apps"], "resources": ["deployments"], "verbs": ["create"]},
                  {"nonResourceURLs": ["/metrics"], "verbs": ["get"]}]}""");
        List<RbacAllowList.Grant> allowed = new ArrayList<>(RbacAllowList.operatorRules("Role", false));
        allowed.addAll(RbacAllowList.NODE_METRICS);

        assertThat(RbacAllowList.excess(List.of(widened), allowed))
                .containsExactly(
                        "ClusterRole x: /nodes/log [get]",
                        "ClusterRole x: /nodes [*]",
                        "ClusterRole x: apps/deployments [create]",
                        "ClusterRole x: nonResourceURLs [\"/metrics\"]");
    }

    /** Verification is on unless verification.enabled is false, which reaches the operator as STACKBENCH_VERIFY_WORK. */
    @Test
    void verificationIsOnByDefaultAndTheValueTurnsItOff() {
        assertThat(env(operatorDeployment(chart.template(RELEASE, NAMESPACE, List.of()))))
                .doesNotContainKey("STACKBENCH_VERIFY_WORK");
        assertThat(env(operatorDeployment(
                        chart.template(RELEASE, NAMESPACE, List.of("--set", "verification.enabled=false")))))
                .containsEntry("STACKBENCH_VERIFY_WORK", "false");
        assertThat(chart.helm("template", RELEASE, "chart", "--set", "verification.enabeld=false")
                        .succeeded())
                .as("a misspelt key is refused")
                .isFalse();
    }

    /**
     * The policy: values reach the operator as its STACKBENCH_POLICY_* variables; by default nothing beyond the chart's
     * own, and the chart's PostgreSQL host is allowed once it is installed.
     */
    @Test
    void thePolicyValuesReachTheOperator() {
        assertThat(env(operatorDeployment(chart.template(RELEASE, NAMESPACE, List.of()))))
                .containsEntry("STACKBENCH_POLICY_IMAGE_REPOSITORIES", "")
                .containsEntry("STACKBENCH_POLICY_DATABASE_SECRET_LABEL", "")
                .containsEntry("STACKBENCH_POLICY_DATABASE_HOSTS", "")
                .containsEntry(
                        "STACKBENCH_POLICY_DENIED_ENV", "JAVA_TOOL_OPTIONS,JDK_JAVA_OPTIONS,_JAVA_OPTIONS,JAVA_OPTS");

        Map<String, String> widened = env(operatorDeployment(chart.template(
                RELEASE,
                NAMESPACE,
                List.of(
                        "--set", "policy.targetImages.allowedRepositories={registry.example.com/bench/,stackbench/x}",
                        "--set", "policy.databaseSecrets.label=stackbench.dev/database=true",
                        "--set", "policy.externalDatabases.allowedHosts={db.example.com}",
                        "--set", "policy.targetEnv.denied={JAVA_OPTS,HTTP_PROXY}",
                        "--set", "postgresql.enabled=true"))));
        assertThat(widened)
                .containsEntry("STACKBENCH_POLICY_IMAGE_REPOSITORIES", "registry.example.com/bench/,stackbench/x")
                .containsEntry("STACKBENCH_POLICY_DATABASE_SECRET_LABEL", "stackbench.dev/database=true")
                .containsEntry(
                        "STACKBENCH_POLICY_DATABASE_HOSTS",
                        "db.example.com,sb-postgresql,sb-postgresql.stackbench,sb-postgresql.stackbench.svc,"
                                + "sb-postgresql.stackbench.svc.cluster.local")
                .containsEntry("STACKBENCH_POLICY_DENIED_ENV", "JAVA_OPTS,HTTP_PROXY");

        CommandResult badLabel =
                chart.helm("template", RELEASE, "chart", "--set", "policy.databaseSecrets.label=not a label");
        assertThat(badLabel.succeeded()).isFalse();
        assertThat(badLabel.stderr()).contains("/policy/databaseSecrets/label");
        CommandResult both = chart.helm(
                "template", RELEASE, "chart", "--set", "watch.allNamespaces=true", "--set", "watch.namespaces={a}");
        assertThat(both.succeeded()).isFalse();
        assertThat(both.stderr()).contains("watch.allNamespaces is true and watch.namespaces lists namespaces");
    }

    @Test
    void defaultsWatchTheReleaseNamespaceOnlyWithExactlyTheOperatorsRules() {
        Manifests manifests = chart.template(RELEASE, NAMESPACE, List.of());

        JsonNode clusterRole = manifests.get("Role", FULLNAME);
        assertThat(clusterRole.path("metadata").path("namespace").asText()).isEqualTo(NAMESPACE);
        assertThat(manifests.find("ClusterRole", FULLNAME)).isEmpty();
        assertThat(rules(clusterRole))
                .containsExactlyInAnyOrder(
                        "stackbench.dev/benchmarkruns: create,get,list,watch,patch,update",
                        "stackbench.dev/benchmarkruns/status: get,patch,update",
                        "stackbench.dev/benchmarkruns/finalizers: update,patch",
                        "stackbench.dev/benchmarkcomparisons: get,list,watch,patch,update",
                        "stackbench.dev/benchmarkcomparisons/status: get,patch,update",
                        "apps/deployments: create,get,list,watch,update,patch,delete",
                        "/services: create,get,list,watch,update,patch,delete",
                        "/configmaps: create,get,list,watch,update,patch,delete",
                        "/secrets: create,delete",
                        "k6.io/testruns: create,get,list,watch,update,patch,delete",
                        "/pods: get,list,watch",
                        "/pods: create,delete",
                        "/pods/log: get",
                        "batch/jobs: get,list,watch",
                        "/pods/proxy: get",
                        "networking.k8s.io/networkpolicies: create,get,list,watch,update,patch,delete",
                        "/events: create,patch");
        assertThat(clusterRole.path("rules").findValues("resourceNames")).isEmpty();
        JsonNode binding = manifests.get("RoleBinding", FULLNAME);
        assertThat(binding.path("subjects").get(0).path("name").asText()).isEqualTo(FULLNAME);
        assertThat(binding.path("subjects").get(0).path("namespace").asText()).isEqualTo(NAMESPACE);

        assertThat(rules(clusterRole))
                .as("the operator reads no Secrets (target pods reference them); it only creates and deletes the"
                        + " password Secret of a run's own database")
                .filteredOn(rule -> rule.contains("secrets"))
                .containsExactly("/secrets: create,delete");

        JsonNode leaderElection = manifests.get("Role", FULLNAME + "-leader-election");
        assertThat(leaderElection.path("metadata").path("namespace").asText()).isEqualTo(NAMESPACE);
        assertThat(rules(leaderElection))
                .containsExactlyInAnyOrder(
                        "coordination.k8s.io/leases: create",
                        "coordination.k8s.io/leases[stackbench-operator]: get,update,patch");

        Deployment deployment = operatorDeployment(manifests);
        assertThat(deployment.getSpec().getReplicas()).isEqualTo(1);
        Container operator =
                deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(operator.getImage()).isEqualTo("stackbench/operator:" + appVersion());
        assertThat(operator.getArgs())
                .containsExactly(
                        "--health-port=8080",
                        "--namespace=" + NAMESPACE,
                        "--database-image=postgres:17",
                        "--default-database-secret=stackbench-database");
        assertThat(env(deployment))
                .containsEntry("STACKBENCH_IMAGE_TAG", appVersion())
                .containsKey("JAVA_TOOL_OPTIONS");
        assertThat(operator.getEnv()).anySatisfy(variable -> {
            assertThat(variable.getName()).isEqualTo("POD_NAMESPACE");
            assertThat(variable.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.namespace");
        });
        assertThat(operator.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
        assertThat(operator.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
        assertThat(manifests.find("PodMonitor", FULLNAME + "-runs")).isEmpty();
        assertThat(env(deployment)).doesNotContainKey("STACKBENCH_DATABASE_EXPORTER_IMAGE");
    }

    @Test
    void namespacedWatchGrantsRulesOnlyInTheListedNamespaces() {
        Manifests manifests = chart.template(RELEASE, NAMESPACE, List.of("--set", "watch.namespaces={team-a,team-b}"));

        // Cluster-wide: only reading nodes and the kubelets' CPU counters (nodes are not namespaced).
        assertThat(manifests.ofKind("ClusterRole")).singleElement().satisfies(role -> {
            assertThat(role.path("metadata").path("name").asText()).isEqualTo(FULLNAME + "-node-metrics");
            assertThat(role.path("rules").toString())
                    .isEqualTo("[{\"apiGroups\":[\"\"],\"resources\":[\"nodes\"],\"verbs\":[\"get\"]},"
                            + "{\"apiGroups\":[\"\"],\"resources\":[\"nodes/metrics\"],\"verbs\":[\"get\"]}]");
        });
        assertThat(manifests.ofKind("ClusterRoleBinding"))
                .extracting(b -> b.path("roleRef").path("name").asText())
                .containsExactly(FULLNAME + "-node-metrics");
        Manifests withoutNodeMetrics = chart.template(
                RELEASE,
                NAMESPACE,
                List.of("--set", "watch.namespaces={team-a,team-b}", "--set", "rbac.nodeMetrics=false"));
        assertThat(withoutNodeMetrics.ofKind("ClusterRole")).isEmpty();
        assertThat(withoutNodeMetrics.ofKind("ClusterRoleBinding")).isEmpty();
        List<String> operatorRoles = manifests.ofKind("Role").stream()
                .filter(role -> role.path("metadata").path("name").asText().equals(FULLNAME))
                .map(role -> role.path("metadata").path("namespace").asText())
                .toList();
        assertThat(operatorRoles).containsExactly("team-a", "team-b");
        assertThat(manifests
                        .get("Role", FULLNAME + "-leader-election")
                        .path("metadata")
                        .path("namespace")
                        .asText())
                .isEqualTo(NAMESPACE);
        assertThat(manifests.ofKind("RoleBinding").stream()
                        .map(b -> b.path("metadata").path("namespace").asText() + ":"
                                + b.path("roleRef").path("name").asText())
                        .toList())
                .containsExactlyInAnyOrder(
                        "team-a:" + FULLNAME, "team-b:" + FULLNAME, NAMESPACE + ":" + FULLNAME + "-leader-election");
        assertThat(args(operatorDeployment(manifests))).contains("--namespace=team-a,team-b");
        List<JsonNode> secrets = manifests.ofKind("Secret");
        assertThat(secrets)
                .as("the database Secret where target pods of runs look for it")
                .extracting(secret -> secret.path("metadata").path("namespace").asText())
                .containsExactlyInAnyOrder(NAMESPACE, "team-a", "team-b");
        assertThat(secrets)
                .extracting(secret -> secret.path("data").path("password").asText())
                .containsOnly(secrets.get(0).path("data").path("password").asText());
    }

    @Test
    void withoutLeaderElectionTheOperatorGetsNoLeaseRights() {
        Manifests manifests =
                chart.template(RELEASE, NAMESPACE, List.of("--set", "operator.leaderElection.enabled=false"));

        assertThat(args(operatorDeployment(manifests))).contains("--no-leader-election");
        assertThat(manifests.find("Role", FULLNAME + "-leader-election")).isEmpty();
        assertThat(manifests.yaml()).doesNotContain("leases");
    }

    @ParameterizedTest
    @ValueSource(strings = {"benchmarkruns", "benchmarkcomparisons"})
    void crdIsInstalledAndKeptByDefaultAndCanBeLeftOut(String plural) throws IOException {
        String name = plural + ".stackbench.dev";
        String file = "crds/" + name + "-v1.yml";
        JsonNode crd = chart.template(RELEASE, NAMESPACE, List.of()).get("CustomResourceDefinition", name);
        assertThat(crd.path("metadata")
                        .path("annotations")
                        .path("helm.sh/resource-policy")
                        .asText())
                .isEqualTo("keep");
        JsonNode generated = new com.fasterxml.jackson.dataformat.yaml.YAMLMapper()
                .readTree(ProjectTools.repositoryRoot().resolve(file).toFile());
        // Helm's YAML round trip writes 65535.0 as 65535; the API server reads both as the same number.
        java.util.Comparator<JsonNode> sameValue = (a, b) ->
                a.isNumber() && b.isNumber() ? a.decimalValue().compareTo(b.decimalValue()) : a.equals(b) ? 0 : 1;
        assertThat(crd.path("spec").equals(sameValue, generated.path("spec")))
                .as("the chart's CRD spec is the generated one (%s)", file)
                .isTrue();

        assertThat(chart.template(RELEASE, NAMESPACE, List.of("--set", "crds.keep=false"))
                        .get("CustomResourceDefinition", name)
                        .path("metadata")
                        .path("annotations")
                        .path("helm.sh/resource-policy")
                        .isMissingNode())
                .isTrue();
        assertThat(chart.template(RELEASE, NAMESPACE, List.of("--set", "crds.enabled=false"))
                        .ofKind("CustomResourceDefinition"))
                .isEmpty();
    }

    /**
     * Bitnami PostgreSQL's real chart with stackbench's values: its StatefulSet runs the image the project builds
     * (stackbench/postgres, the official image's conventions) as that image's user, with the server settings as
     * its arguments, a writable socket directory and the password from the chart's Secret as a file, on the
     * backend pool with requests equal to limits.
     */
    @Test
    void chartsOwnPostgresqlRunsTheProjectsImageWithGuaranteedResources() {
        Manifests manifests = chart.template(RELEASE, NAMESPACE, List.of("--set", "postgresql.enabled=true"));

        // The runs keep getting a database of their own; the chart's is there for those that name it.
        assertThat(args(operatorDeployment(manifests)))
                .contains("--database-image=postgres:17", "--default-database-secret=stackbench-database");
        JsonNode secret = manifests.get("Secret", "stackbench-database");
        assertThat(decode(secret.path("data").path("username").asText())).isEqualTo("stackbench");
        assertThat(decode(secret.path("data").path("password").asText())).hasSize(24);

        CommandResult validation = kubeconform.validate(manifests.yaml());
        assertThat(validation.succeeded())
                .as("kubeconform:\n%s", validation.describe())
                .isTrue();
        StatefulSet statefulSet =
                Manifests.as(manifests.get("StatefulSet", RELEASE + "-postgresql"), StatefulSet.class);
        PodSpec pod = statefulSet.getSpec().getTemplate().getSpec();
        assertThat(RestrictedPodSecurity.violations(pod))
                .as("PostgreSQL meets Pod Security restricted")
                .isEmpty();
        Container postgres = pod.getContainers().get(0);
        assertThat(postgres.getImage()).isEqualTo("docker.io/stackbench/postgres:15");
        assertThat(postgres.getCommand()).as("the image's own entrypoint").isEmpty();
        assertThat(postgres.getArgs()).containsExactly("-c", "max_connections=300");
        assertThat(postgres.getResources().getRequests())
                .isEqualTo(postgres.getResources().getLimits());
        assertThat(postgres.getSecurityContext().getRunAsUser()).isEqualTo(65532L);
        assertThat(pod.getSecurityContext().getFsGroup()).isEqualTo(65532L);
        Map<String, String> env = postgres.getEnv().stream()
                .filter(e -> e.getValue() != null)
                .collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue));
        assertThat(env)
                .containsEntry("POSTGRES_USER", "stackbench")
                .containsEntry("POSTGRES_PASSWORD_FILE", "/opt/bitnami/postgresql/secrets/password")
                .containsEntry("PGDATA", "/bitnami/postgresql/data");
        assertThat(postgres.getVolumeMounts())
                .anyMatch(m -> m.getMountPath().equals("/var/run/postgresql"))
                .anyMatch(m -> m.getMountPath().equals("/bitnami/postgresql"));
        assertThat(pod.getVolumes())
                .anyMatch(v -> v.getSecret() != null
                        && "stackbench-database".equals(v.getSecret().getSecretName()));
        assertThat(pod.getNodeSelector()).containsEntry("stackbench.dev/pool", "backend");
    }

    @Test
    void runDatabaseImageAndExternalSecretAreTheOperatorsSettings() {
        Manifests manifests = chart.template(
                RELEASE,
                NAMESPACE,
                List.of(
                        "--set",
                        "database.image=registry.example.com/postgres:17.6",
                        "--set",
                        "database.createSecret=false",
                        "--set",
                        "database.secretName=pg-credentials"));

        assertThat(manifests.ofKind("Secret")).isEmpty();
        assertThat(args(operatorDeployment(manifests)))
                .contains(
                        "--database-image=registry.example.com/postgres:17.6",
                        "--default-database-secret=pg-credentials");
        // A removed setting is refused by name, not ignored.
        CommandResult old = chart.helm(
                "template", RELEASE, "chart", "--namespace", NAMESPACE, "--set", "database.host=pg.databases.svc");
        assertThat(old.succeeded()).isFalse();
        assertThat(old.stderr()).contains("host");
    }

    /**
     * The dashboard the chart ships follows Grafana's own dashboard schema (the Dashboard type of @grafana/schema,
     * checked by hack/check-dashboard.sh with the TypeScript compiler); the same check refuses a dashboard with a
     * misspelt panel field or a grid position that is not a number, naming the file and line.
     */
    @Test
    void dashboardFollowsGrafanasDashboardSchema() throws IOException {
        Path root = ProjectTools.repositoryRoot();
        Path script = root.resolve("hack/check-dashboard.sh");
        JsonNode dashboardMap = chart.template(RELEASE, NAMESPACE, List.of("--set", "metrics.monitors=true"))
                .get("ConfigMap", FULLNAME + "-dashboard");
        Path rendered = Files.createTempFile("dashboard-", ".json");
        Path broken = Files.createTempFile("dashboard-broken-", ".json");
        try {
            Files.writeString(
                    rendered,
                    dashboardMap
                            .path("data")
                            .path("stackbench-benchmarkrun.json")
                            .asText());
            CommandResult check = CommandResult.run(
                    List.of("bash", script.toString(), rendered.toString()),
                    null,
                    java.time.Duration.ofMinutes(2),
                    root);
            assertThat(check.succeeded()).as(check.describe()).isTrue();

            ObjectMapper json = new ObjectMapper();
            com.fasterxml.jackson.databind.node.ObjectNode dashboard =
                    (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(rendered.toFile());
            // Two panels, one fault each: the compiler reports one fault per object.
            com.fasterxml.jackson.databind.node.ObjectNode panel = (com.fasterxml.jackson.databind.node.ObjectNode)
                    dashboard.path("panels").get(0);
            panel.put("titel", "misspelt");
            ((com.fasterxml.jackson.databind.node.ObjectNode)
                            dashboard.path("panels").get(1).path("gridPos"))
                    .put("x", "left");
            json.writerWithDefaultPrettyPrinter().writeValue(broken.toFile(), dashboard);
            CommandResult refused = CommandResult.run(
                    List.of("bash", script.toString(), broken.toString()), null, java.time.Duration.ofMinutes(2), root);
            assertThat(refused.succeeded()).isFalse();
            assertThat(refused.stderr())
                    .contains(broken + ":")
                    .contains("'\"titel\"' does not exist in type 'Panel")
                    .contains("Type 'string' is not assignable to type 'number'");
        } finally {
            Files.deleteIfExists(rendered);
            Files.deleteIfExists(broken);
        }
    }

    @Test
    void prometheusAddsThePodMonitorTheDatabaseExporterAndTheLiveDashboard() throws IOException {
        Manifests manifests = chart.template(
                RELEASE,
                NAMESPACE,
                List.of("--set", "kube-prometheus-stack.enabled=true", "--set", "watch.allNamespaces=true"));

        JsonNode monitor = manifests.get("PodMonitor", FULLNAME + "-runs");
        assertThat(monitor.path("spec")
                        .path("selector")
                        .path("matchLabels")
                        .path("app.kubernetes.io/managed-by")
                        .asText())
                .isEqualTo("stackbench");
        assertThat(monitor.path("spec").path("namespaceSelector").path("any").asBoolean())
                .isTrue();
        JsonNode endpoints = monitor.path("spec").path("podMetricsEndpoints");
        assertThat(endpoints.get(0).path("port").asText()).isEqualTo("management");
        assertThat(endpoints.get(0).path("path").asText()).isEqualTo("/actuator/prometheus");
        // The exporter beside each run's own database, on the port the operator names.
        assertThat(endpoints.get(1).path("port").asText()).isEqualTo("metrics");
        assertThat(endpoints.get(1).path("path").asText()).isEqualTo("/metrics");
        assertThat(monitor.path("spec").path("podTargetLabels").toString())
                .contains("stackbench.dev/run", "stackbench.dev/role");
        assertThat(env(operatorDeployment(manifests)))
                .containsEntry(
                        "STACKBENCH_DATABASE_EXPORTER_IMAGE", "quay.io/prometheuscommunity/postgres-exporter:v0.17.1");

        JsonNode dashboardMap = manifests.get("ConfigMap", FULLNAME + "-dashboard");
        assertThat(dashboardMap
                        .path("metadata")
                        .path("labels")
                        .path("grafana_dashboard")
                        .asText())
                .isEqualTo("1");
        JsonNode dashboard = JsonMapper.builder()
                .build()
                .readTree(dashboardMap
                        .path("data")
                        .path("stackbench-benchmarkrun.json")
                        .asText());
        String queries =
                dashboard.path("panels").findValuesAsText("expr").stream().collect(Collectors.joining("\n"));
        assertThat(queries)
                .contains(
                        "jvm_threads_live_threads",
                        "process_cpu_usage",
                        "jvm_memory_used_bytes",
                        "area=\"heap\"",
                        "http_server_requests_seconds_bucket",
                        "http_server_requests_seconds_count",
                        "jvm_gc_pause_seconds_sum",
                        "container_cpu_cfs_throttled_seconds_total",
                        "pg_stat_database_xact_commit",
                        "pg_stat_activity_count");
        assertThat(dashboard.path("panels").findValuesAsText("title"))
                .contains(
                        "Throughput",
                        "Latency (server side)",
                        "Threads",
                        "CPU and throttling",
                        "Heap",
                        "GC",
                        "Database connections");

        assertThat(chart.template(
                                RELEASE,
                                NAMESPACE,
                                List.of(
                                        "--set",
                                        "kube-prometheus-stack.enabled=true",
                                        "--set",
                                        "watch.namespaces={team-a}"))
                        .get("PodMonitor", FULLNAME + "-runs")
                        .path("spec")
                        .path("namespaceSelector")
                        .path("matchNames")
                        .get(0)
                        .asText())
                .isEqualTo("team-a");
    }

    /**
     * A cluster that already runs a Prometheus operator gets the PodMonitor, the database exporter and the dashboard
     * without the bundled stack, labelled as its Prometheus selects them; a cluster without one gets none of them,
     * and "false" turns them off (the exporter separately too).
     */
    @Test
    void monitorsComeWheneverTheClusterServesPodMonitors() {
        String serviceMonitors = "monitoring.coreos.com/v1/PodMonitor";
        Manifests existing = chart.template(
                RELEASE,
                NAMESPACE,
                List.of("--api-versions", serviceMonitors, "--set", "metrics.monitorLabels.release=kps"));
        assertThat(existing.get("PodMonitor", FULLNAME + "-runs")
                        .path("metadata")
                        .path("labels")
                        .path("release")
                        .asText())
                .isEqualTo("kps");
        assertThat(existing.find("ConfigMap", FULLNAME + "-dashboard")).isPresent();
        assertThat(existing.ofKind("Prometheus")).isEmpty();
        assertThat(env(operatorDeployment(existing))).containsKey("STACKBENCH_DATABASE_EXPORTER_IMAGE");

        Manifests none = chart.template(RELEASE, NAMESPACE, List.of());
        assertThat(none.find("PodMonitor", FULLNAME + "-runs")).isEmpty();
        assertThat(none.find("ConfigMap", FULLNAME + "-dashboard")).isEmpty();
        assertThat(env(operatorDeployment(none))).doesNotContainKey("STACKBENCH_DATABASE_EXPORTER_IMAGE");
        Manifests off = chart.template(
                RELEASE, NAMESPACE, List.of("--api-versions", serviceMonitors, "--set", "metrics.monitors=false"));
        assertThat(off.find("PodMonitor", FULLNAME + "-runs")).isEmpty();
        Manifests always = chart.template(RELEASE, NAMESPACE, List.of("--set", "metrics.monitors=true"));
        assertThat(always.find("PodMonitor", FULLNAME + "-runs")).isPresent();
        Manifests noExporter = chart.template(
                RELEASE,
                NAMESPACE,
                List.of("--set", "metrics.monitors=true", "--set", "metrics.databaseExporter.enabled=false"));
        assertThat(env(operatorDeployment(noExporter))).doesNotContainKey("STACKBENCH_DATABASE_EXPORTER_IMAGE");
    }

    /**
     * With the bundled stack the runners send k6's metrics to its Prometheus, named as kube-prometheus-stack names
     * it (its fullname cut at 26 characters); a URL of the user's goes as given; without either, nothing.
     */
    @Test
    void k6RemoteWriteGoesToTheBundledPrometheusOrTheGivenReceiver() {
        // Release "stackbench": the operator's Deployment is named "stackbench", the stack's fullname is cut short.
        Map<String, String> bundled = env(Manifests.as(
                chart.template("stackbench", NAMESPACE, List.of("--set", "kube-prometheus-stack.enabled=true"))
                        .get("Deployment", "stackbench"),
                Deployment.class));
        assertThat(bundled)
                .containsEntry(
                        "STACKBENCH_K6_REMOTE_WRITE_URL",
                        "http://stackbench-kube-prometheus-prometheus.stackbench.svc:9090/api/v1/write")
                .containsEntry("STACKBENCH_K6_REMOTE_WRITE_NAMESPACE", NAMESPACE)
                .containsEntry("STACKBENCH_K6_REMOTE_WRITE_POD_LABELS", "app.kubernetes.io/name=prometheus")
                // The same Prometheus evaluates PromQL checks.
                .containsEntry(
                        "STACKBENCH_PROMETHEUS_URL",
                        "http://stackbench-kube-prometheus-prometheus.stackbench.svc:9090");
        Map<String, String> given = env(operatorDeployment(chart.template(
                RELEASE,
                NAMESPACE,
                List.of(
                        "--set",
                        "k6.remoteWrite.url=http://prometheus-operated.monitoring:9090/api/v1/write",
                        "--set",
                        "k6.remoteWrite.namespace=monitoring"))));
        assertThat(given)
                .containsEntry(
                        "STACKBENCH_K6_REMOTE_WRITE_URL", "http://prometheus-operated.monitoring:9090/api/v1/write")
                .containsEntry("STACKBENCH_K6_REMOTE_WRITE_NAMESPACE", "monitoring");
        assertThat(env(operatorDeployment(chart.template(RELEASE, NAMESPACE, List.of()))))
                .doesNotContainKey("STACKBENCH_K6_REMOTE_WRITE_URL");
        assertThat(env(operatorDeployment(chart.template(
                        RELEASE,
                        NAMESPACE,
                        List.of(
                                "--set",
                                "kube-prometheus-stack.enabled=true",
                                "--set",
                                "k6.remoteWrite.enabled=false")))))
                .doesNotContainKey("STACKBENCH_K6_REMOTE_WRITE_URL");
    }

    @Test
    void customImagesReachTheOperatorAndTheTargetsItDeploys() {
        Manifests manifests = chart.template(
                RELEASE,
                NAMESPACE,
                List.of(
                        "--set",
                        "image.repository=registry.example.com/sb/operator",
                        "--set",
                        "image.tag=1.2.3",
                        "--set",
                        "image.pullPolicy=Always",
                        "--set",
                        "targetImages.tag=1.2.3",
                        "--set",
                        "k6.runnerImage=registry.example.com/k6:1.8.1",
                        "--set",
                        "imagePullSecrets[0].name=regcred"));

        Deployment deployment = operatorDeployment(manifests);
        Container operator =
                deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(operator.getImage()).isEqualTo("registry.example.com/sb/operator:1.2.3");
        assertThat(operator.getImagePullPolicy()).isEqualTo("Always");
        assertThat(deployment
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getImagePullSecrets()
                        .get(0)
                        .getName())
                .isEqualTo("regcred");
        assertThat(env(deployment))
                .containsEntry("STACKBENCH_IMAGE_TAG", "1.2.3")
                .containsEntry("STACKBENCH_K6_IMAGE", "registry.example.com/k6:1.8.1");
    }

    @Test
    void containerResourcesFollowTheValues() {
        Deployment deployment = operatorDeployment(chart.template(
                RELEASE,
                NAMESPACE,
                List.of(
                        "--set",
                        "resources.requests.cpu=250m",
                        "--set",
                        "resources.requests.memory=384Mi",
                        "--set",
                        "resources.limits.cpu=2",
                        "--set",
                        "resources.limits.memory=1Gi")));

        var resources = deployment
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getResources();
        assertThat(resources.getRequests())
                .containsEntry("cpu", new Quantity("250m"))
                .containsEntry("memory", new Quantity("384Mi"));
        assertThat(resources.getLimits())
                .containsEntry("cpu", new Quantity("2"))
                .containsEntry("memory", new Quantity("1Gi"));
    }

    @Test
    void valuesSchemaRejectsUnknownKeysAndWrongTypesNamingThem() {
        CommandResult misspelt = chart.helm("template", RELEASE, "chart", "--set", "watch.namespace={a}");
        assertThat(misspelt.succeeded()).isFalse();
        assertThat(misspelt.stderr()).contains("namespace").contains("not allowed");

        CommandResult wrongType = chart.helm("template", RELEASE, "chart", "--set", "crds.enabled=maybe");
        assertThat(wrongType.succeeded()).isFalse();
        assertThat(wrongType.stderr()).contains("/crds/enabled");

        CommandResult missingLimit = chart.helm("template", RELEASE, "chart", "--set", "resources.limits=null");
        assertThat(missingLimit.succeeded()).isFalse();
        assertThat(missingLimit.stderr()).contains("limits");
    }

    @Test
    void helmTestHookChecksTheOperatorsReadinessEndpoint() {
        Pod test = Manifests.as(
                chart.template(RELEASE, NAMESPACE, List.of()).get("Pod", FULLNAME + "-test-ready"), Pod.class);

        assertThat(test.getMetadata().getAnnotations()).containsEntry("helm.sh/hook", "test");
        assertThat(test.getSpec().getContainers().get(0).getCommand())
                .contains("http://" + FULLNAME + "." + NAMESPACE + ".svc:8080/readyz");
    }

    @Test
    void exampleBenchmarkRunsAndComparisonsMatchTheCrdSchemas() throws IOException {
        Path examples = ProjectTools.repositoryRoot().resolve("examples");
        List<Path> files;
        try (var paths = Files.walk(examples)) {
            files = paths.filter(p -> p.toString().endsWith(".yaml"))
                    .filter(ChartRenderIT::isBenchmarkRun)
                    .sorted()
                    .toList();
        }
        assertThat(files).as("BenchmarkRun examples under %s", examples).isNotEmpty();
        assertThat(files)
                .as("BenchmarkComparison examples under %s", examples)
                .anyMatch(file -> file.startsWith(examples.resolve("comparison")));
        for (Path file : files) {
            CommandResult validation = kubeconform.validate(Files.readString(file));
            assertThat(validation.succeeded())
                    .as("%s:\n%s", file, validation.describe())
                    .isTrue();
        }
    }

    private static boolean isBenchmarkRun(Path file) {
        try {
            String text = Files.readString(file);
            return text.contains("kind: BenchmarkRun") || text.contains("kind: BenchmarkComparison");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static List<PodSpec> podSpecs(Manifests manifests) {
        List<PodSpec> pods = new ArrayList<>();
        manifests
                .ofKind("Deployment")
                .forEach(d -> pods.add(Manifests.as(d, Deployment.class)
                        .getSpec()
                        .getTemplate()
                        .getSpec()));
        manifests.ofKind("Pod").forEach(p -> pods.add(Manifests.as(p, Pod.class).getSpec()));
        assertThat(pods).as("pods in the rendered chart").isNotEmpty();
        return pods;
    }

    private static Deployment operatorDeployment(Manifests manifests) {
        return Manifests.as(manifests.get("Deployment", FULLNAME), Deployment.class);
    }

    private static List<String> args(Deployment deployment) {
        return deployment
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getArgs();
    }

    private static Map<String, String> env(Deployment deployment) {
        return deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                .filter(e -> e.getValue() != null)
                .collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue));
    }

    /** Each rule as "group/resource: verbs", or "group/resource[name,...]: verbs", one entry per resource. */
    private static List<String> rules(JsonNode role) {
        List<String> rules = new ArrayList<>();
        for (JsonNode rule : role.path("rules")) {
            String verbs = String.join(",", textList(rule.path("verbs")));
            String names =
                    rule.has("resourceNames") ? "[" + String.join(",", textList(rule.path("resourceNames"))) + "]" : "";
            for (String group : textList(rule.path("apiGroups"))) {
                for (String resource : textList(rule.path("resources"))) {
                    rules.add(group + "/" + resource + names + ": " + verbs);
                }
            }
        }
        return rules;
    }

    private static List<String> textList(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asText()));
        return values;
    }

    private static String decode(String base64) {
        return new String(java.util.Base64.getDecoder().decode(base64), java.nio.charset.StandardCharsets.UTF_8);
    }

    private String appVersion() {
        try {
            JsonNode metadata = new com.fasterxml.jackson.dataformat.yaml.YAMLMapper()
                    .readTree(chart.directory().resolve("Chart.yaml").toFile());
            return metadata.path("appVersion").asText();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
