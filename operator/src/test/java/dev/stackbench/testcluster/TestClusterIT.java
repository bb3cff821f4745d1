package dev.stackbench.testcluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Proves the test cluster behaves like a real one: scheduling, controllers, RBAC, pod logs, CRD validation. */
@Order(1)
@ExtendWith(TestClusterExtension.class)
class TestClusterIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final ResourceDefinitionContext TEST_RUNS = new ResourceDefinitionContext.Builder()
            .withGroup("k6.io")
            .withVersion("v1alpha1")
            .withKind("TestRun")
            .withPlural("testruns")
            .withNamespaced(true)
            .build();

    private static TestCluster cluster;
    private static KubernetesClient client;
    private String namespace;

    @BeforeAll
    static void useCluster(TestCluster sharedCluster) {
        cluster = sharedCluster;
        client = cluster.client();
    }

    @BeforeEach
    void createNamespace() {
        namespace = cluster.createNamespace("smoke");
    }

    @AfterEach
    void deleteNamespace() {
        client.namespaces().withName(namespace).delete();
    }

    @Test
    void placesPodWithPoolSelectorAndTolerationOnThePoolNodeAndMakesItReady() {
        client.apps()
                .deployments()
                .inNamespace(namespace)
                .resource(deployment(
                        "target-app", 1, Map.of(TestCluster.POOL_KEY, "target"), List.of(poolToleration("target"))))
                .create();

        await().atMost(WAIT).untilAsserted(() -> {
            List<Pod> pods = podsLabelled("target-app");
            assertThat(pods).hasSize(1);
            assertThat(pods.getFirst().getSpec().getNodeName()).isEqualTo(TestCluster.TARGET_NODE);
            assertThat(isReady(pods.getFirst())).isTrue();
        });
        await().atMost(WAIT).untilAsserted(() -> assertThat(client.apps()
                        .deployments()
                        .inNamespace(namespace)
                        .withName("target-app")
                        .get()
                        .getStatus()
                        .getReadyReplicas())
                .isEqualTo(1));
    }

    @Test
    void renewsEveryNodesLeaseSoNodesStayReadyAndTheirPodsKeepReady() {
        List<String> nodes = new java.util.ArrayList<>(
                List.of(TestCluster.SYSTEM_NODE, TestCluster.TARGET_NODE, TestCluster.BACKEND_NODE));
        nodes.addAll(TestCluster.LOADGEN_NODES);
        Map<String, java.time.ZonedDateTime> first = new java.util.HashMap<>();
        await().atMost(WAIT).untilAsserted(() -> {
            for (String node : nodes) {
                var lease = client.leases()
                        .inNamespace("kube-node-lease")
                        .withName(node)
                        .get();
                assertThat(lease).as("Lease of node %s", node).isNotNull();
                assertThat(lease.getSpec().getRenewTime())
                        .as("renewTime of node %s", node)
                        .isNotNull();
                first.put(node, lease.getSpec().getRenewTime());
            }
        });
        // kwok renews every lease duration / 4 (10 s), well inside the controller manager's grace period.
        await().atMost(WAIT).untilAsserted(() -> {
            for (String node : nodes) {
                assertThat(client.leases()
                                .inNamespace("kube-node-lease")
                                .withName(node)
                                .get()
                                .getSpec()
                                .getRenewTime())
                        .as("renewTime of node %s", node)
                        .isAfter(first.get(node));
            }
        });
        assertThat(client.nodes().list().getItems())
                .allSatisfy(node -> assertThat(node.getStatus().getConditions())
                        .filteredOn(condition -> "Ready".equals(condition.getType()))
                        .singleElement()
                        .satisfies(ready -> assertThat(ready.getStatus())
                                .as(node.getMetadata().getName())
                                .isEqualTo("True")));
    }

    @Test
    void neverPlacesPodWithoutTolerationOnATaintedNode() {
        client.apps()
                .deployments()
                .inNamespace(namespace)
                .resource(deployment("untolerated", 4, Map.of(), List.of()))
                .create();
        Pod wantsTarget = new PodBuilder()
                .withNewMetadata()
                .withName("wants-target")
                .endMetadata()
                .withNewSpec()
                .withNodeSelector(Map.of(TestCluster.POOL_KEY, "target"))
                .addNewContainer()
                .withName("main")
                .withImage("example.invalid/app:1")
                .endContainer()
                .endSpec()
                .build();
        client.pods().inNamespace(namespace).resource(wantsTarget).create();

        await().atMost(WAIT).untilAsserted(() -> {
            List<Pod> pods = podsLabelled("untolerated");
            assertThat(pods).hasSize(4).allSatisfy(pod -> {
                assertThat(pod.getSpec().getNodeName()).isEqualTo(TestCluster.SYSTEM_NODE);
                assertThat(isReady(pod)).isTrue();
            });
        });
        await().atMost(WAIT).untilAsserted(() -> {
            Pod pod = client.pods()
                    .inNamespace(namespace)
                    .withName("wants-target")
                    .get();
            assertThat(pod.getSpec().getNodeName()).isNull();
            assertThat(condition(pod, "PodScheduled")).isNotNull().satisfies(scheduled -> {
                assertThat(scheduled.getStatus()).isEqualTo("False");
                assertThat(scheduled.getReason()).isEqualTo("Unschedulable");
                assertThat(scheduled.getMessage()).contains("untolerated taint");
            });
        });
    }

    @Test
    void runsJobPodToCompletionAndMarksTheJobComplete() {
        Job job = new JobBuilder()
                .withNewMetadata()
                .withName("one-shot")
                .endMetadata()
                .withNewSpec()
                .withBackoffLimit(0)
                .withNewTemplate()
                .withNewMetadata()
                .addToLabels("app", "one-shot")
                .endMetadata()
                .withNewSpec()
                .withRestartPolicy("Never")
                .withNodeSelector(Map.of(TestCluster.POOL_KEY, "loadgen"))
                .withTolerations(poolToleration("loadgen"))
                .addNewContainer()
                .withName("main")
                .withImage("example.invalid/job:1")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
        client.batch().v1().jobs().inNamespace(namespace).resource(job).create();

        await().atMost(WAIT).untilAsserted(() -> {
            Job current = client.batch()
                    .v1()
                    .jobs()
                    .inNamespace(namespace)
                    .withName("one-shot")
                    .get();
            assertThat(current.getStatus().getConditions()).anySatisfy(c -> {
                assertThat(c.getType()).isEqualTo("Complete");
                assertThat(c.getStatus()).isEqualTo("True");
            });
            assertThat(current.getStatus().getSucceeded()).isEqualTo(1);
        });
        List<Pod> pods = podsLabelled("one-shot");
        assertThat(pods).singleElement().satisfies(pod -> {
            assertThat(pod.getStatus().getPhase()).isEqualTo("Succeeded");
            assertThat(pod.getSpec().getNodeName()).isIn(TestCluster.LOADGEN_NODES);
        });
    }

    @Test
    void finishesBarePodsWithTheAnnotatedExitCodeAndHelmHookPodsSuccessfully() {
        client.pods()
                .inNamespace(namespace)
                .resource(barePod("fails", Map.of(TestCluster.EXIT_CODE_ANNOTATION, "3")))
                .create();
        client.pods()
                .inNamespace(namespace)
                .resource(barePod("helm-test", Map.of("helm.sh/hook", "test")))
                .create();
        client.pods()
                .inNamespace(namespace)
                .resource(barePod("server", Map.of()))
                .create();

        await().atMost(WAIT).untilAsserted(() -> {
            Pod failed = client.pods().inNamespace(namespace).withName("fails").get();
            assertThat(failed.getStatus().getPhase()).isEqualTo("Failed");
            assertThat(failed.getStatus()
                            .getContainerStatuses()
                            .getFirst()
                            .getState()
                            .getTerminated()
                            .getExitCode())
                    .isEqualTo(3);
            assertThat(client.pods()
                            .inNamespace(namespace)
                            .withName("helm-test")
                            .get()
                            .getStatus()
                            .getPhase())
                    .isEqualTo("Succeeded");
        });
        Pod server = client.pods().inNamespace(namespace).withName("server").get();
        assertThat(server.getStatus().getPhase()).isEqualTo("Running");
        assertThat(isReady(server)).isTrue();
    }

    @Test
    void garbageCollectsDependentsOfADeletedOwner() {
        client.apps()
                .deployments()
                .inNamespace(namespace)
                .resource(deployment("owned", 2, Map.of(), List.of()))
                .create();
        await().atMost(WAIT)
                .untilAsserted(
                        () -> assertThat(podsLabelled("owned")).hasSize(2).allMatch(this::isReady));
        var owner = client.configMaps()
                .inNamespace(namespace)
                .resource(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("owner")
                        .endMetadata()
                        .build())
                .create();
        client.configMaps()
                .inNamespace(namespace)
                .resource(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("dependent")
                        .addNewOwnerReference()
                        .withApiVersion("v1")
                        .withKind("ConfigMap")
                        .withName("owner")
                        .withUid(owner.getMetadata().getUid())
                        .endOwnerReference()
                        .endMetadata()
                        .build())
                .create();

        client.apps().deployments().inNamespace(namespace).withName("owned").delete();
        client.configMaps().inNamespace(namespace).withName("owner").delete();

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(client.apps()
                            .replicaSets()
                            .inNamespace(namespace)
                            .withLabel("app", "owned")
                            .list()
                            .getItems())
                    .isEmpty();
            assertThat(podsLabelled("owned")).isEmpty();
            assertThat(client.configMaps()
                            .inNamespace(namespace)
                            .withName("dependent")
                            .get())
                    .isNull();
        });
    }

    @Test
    void servesRegisteredLogContentThroughKubectlLogs() throws Exception {
        String content = "first line\n  second line with  spaces \n\nlast line without newline";
        client.pods()
                .inNamespace(namespace)
                .resource(barePod("logger", Map.of()))
                .create();
        await().atMost(WAIT)
                .until(() -> isReady(
                        client.pods().inNamespace(namespace).withName("logger").get()));

        Path file = cluster.servePodLogs(namespace, "logger", content);

        assertThat(Files.readString(file)).contains(" stdout F first line");
        CommandResult logs =
                cluster.kubectl("logs", "--namespace", namespace, "logger").requireSuccess();
        assertThat(logs.stdout()).isEqualTo(content);
        assertThat(client.pods().inNamespace(namespace).withName("logger").getLog())
                .isEqualTo(content);
    }

    @Test
    void servesLogsForPodsMatchingALabelSelectorIncludingJobPods() {
        try (PodLogServing serving = cluster.servePodLogs(
                namespace,
                Map.of("app", "runner"),
                pod -> "{\"runner\":\"" + pod.getMetadata().getName() + "\"}\n")) {
            Job job = new JobBuilder()
                    .withNewMetadata()
                    .withName("runner")
                    .endMetadata()
                    .withNewSpec()
                    .withCompletions(2)
                    .withParallelism(2)
                    .withNewTemplate()
                    .withNewMetadata()
                    .addToLabels("app", "runner")
                    .endMetadata()
                    .withNewSpec()
                    .withRestartPolicy("Never")
                    .addNewContainer()
                    .withName("k6")
                    .withImage("example.invalid/k6:1")
                    .endContainer()
                    .endSpec()
                    .endTemplate()
                    .endSpec()
                    .build();
            client.batch().v1().jobs().inNamespace(namespace).resource(job).create();

            await().atMost(WAIT).untilAsserted(() -> {
                List<Pod> pods = podsLabelled("runner");
                assertThat(pods).hasSize(2);
                for (Pod pod : pods) {
                    String name = pod.getMetadata().getName();
                    CommandResult logs = cluster.kubectl("logs", "--namespace", namespace, name);
                    assertThat(logs.exitCode()).as(logs.describe()).isZero();
                    assertThat(logs.stdout()).isEqualTo("{\"runner\":\"" + name + "\"}\n");
                }
            });
            assertThat(serving.servedPodUids()).hasSize(2);
        }
    }

    @Test
    void enforcesRbacForServiceAccounts() {
        client.serviceAccounts()
                .inNamespace(namespace)
                .resource(new ServiceAccountBuilder()
                        .withNewMetadata()
                        .withName("reader")
                        .endMetadata()
                        .build())
                .create();
        KubernetesClient reader = cluster.clientForServiceAccount(namespace, "reader");

        assertThatThrownBy(() -> reader.pods().inNamespace(namespace).list())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode())
                        .isEqualTo(403));

        client.rbac()
                .roles()
                .inNamespace(namespace)
                .resource(new RoleBuilder()
                        .withNewMetadata()
                        .withName("pod-reader")
                        .endMetadata()
                        .addNewRule()
                        .withApiGroups("")
                        .withResources("pods")
                        .withVerbs("get", "list")
                        .endRule()
                        .build())
                .create();
        client.rbac()
                .roleBindings()
                .inNamespace(namespace)
                .resource(new RoleBindingBuilder()
                        .withNewMetadata()
                        .withName("reader-reads-pods")
                        .endMetadata()
                        .withNewRoleRef()
                        .withApiGroup("rbac.authorization.k8s.io")
                        .withKind("Role")
                        .withName("pod-reader")
                        .endRoleRef()
                        .addNewSubject()
                        .withKind("ServiceAccount")
                        .withName("reader")
                        .withNamespace(namespace)
                        .endSubject()
                        .build())
                .create();

        await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(
                        reader.pods().inNamespace(namespace).list().getItems())
                .isEmpty());
        assertThatThrownBy(() -> reader.configMaps().inNamespace(namespace).list())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode())
                        .isEqualTo(403));
    }

    @Test
    void validatesTestRunsAgainstK6OperatorsRealSchema() throws Exception {
        GenericKubernetesResource valid = testRun("valid", """
                {"parallelism": 2, "arguments": "--tag run=smoke",
                 "script": {"configMap": {"name": "scripts", "file": "test.js"}},
                 "runner": {"nodeSelector": {"stackbench.dev/pool": "loadgen"}}}""");
        GenericKubernetesResource created = client.genericKubernetesResources(TEST_RUNS)
                .inNamespace(namespace)
                .resource(valid)
                .create();
        assertThat(created.getMetadata().getUid()).isNotBlank();

        GenericKubernetesResource invalid = testRun("invalid", """
                {"parallelism": "two", "script": {"configMap": {"name": "scripts", "file": "test.js"}}}""");
        assertThatThrownBy(() -> client.genericKubernetesResources(TEST_RUNS)
                        .inNamespace(namespace)
                        .resource(invalid)
                        .create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(422);
                    assertThat(e.getMessage()).contains("spec.parallelism");
                });
    }

    @Test
    void kubectlParsesTheServerVersion() throws Exception {
        CommandResult version = cluster.kubectl("version", "--output", "json").requireSuccess();

        JsonNode json = new ObjectMapper().readTree(version.stdout());
        String expected = kubernetesVersionOfTheBuild();
        assertThat(json.at("/serverVersion/gitVersion").asText()).isEqualTo(expected);
        assertThat(json.at("/clientVersion/gitVersion").asText()).isEqualTo(expected);
        assertThat(json.at("/serverVersion/major").asText() + "."
                        + json.at("/serverVersion/minor").asText())
                .isEqualTo(expected.substring(1, expected.lastIndexOf('.')));
        assertThat(version.stderr()).doesNotContain("WARNING");
    }

    private static String kubernetesVersionOfTheBuild() throws Exception {
        Path goMod = ProjectTools.repositoryRoot().resolve("hack/cluster/kube/go.mod");
        return Files.readAllLines(goMod).stream()
                .map(String::strip)
                .filter(line -> line.startsWith("k8s.io/kubernetes "))
                .map(line -> line.split("\\s+")[1])
                .findFirst()
                .orElseThrow();
    }

    private GenericKubernetesResource testRun(String name, String specJson) throws Exception {
        GenericKubernetesResource testRun = new GenericKubernetesResource();
        testRun.setApiVersion("k6.io/v1alpha1");
        testRun.setKind("TestRun");
        testRun.setMetadata(new ObjectMetaBuilder().withName(name).build());
        testRun.setAdditionalProperty("spec", new ObjectMapper().readValue(specJson, Map.class));
        return testRun;
    }

    private Deployment deployment(
            String name, int replicas, Map<String, String> nodeSelector, List<Toleration> tolerations) {
        return new DeploymentBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withReplicas(replicas)
                .withNewSelector()
                .addToMatchLabels("app", name)
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .addToLabels("app", name)
                .endMetadata()
                .withNewSpec()
                .withNodeSelector(nodeSelector)
                .withTolerations(tolerations)
                .addNewContainer()
                .withName("main")
                .withImage("example.invalid/app:1")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }

    private static Pod barePod(String name, Map<String, String> annotations) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withAnnotations(annotations)
                .endMetadata()
                .withNewSpec()
                .withRestartPolicy("Never")
                .addNewContainer()
                .withName("main")
                .withImage("example.invalid/app:1")
                .endContainer()
                .endSpec()
                .build();
    }

    private static Toleration poolToleration(String pool) {
        return new TolerationBuilder()
                .withKey(TestCluster.POOL_KEY)
                .withOperator("Equal")
                .withValue(pool)
                .withEffect("NoSchedule")
                .build();
    }

    private List<Pod> podsLabelled(String app) {
        return client.pods().inNamespace(namespace).withLabel("app", app).list().getItems();
    }

    private boolean isReady(Pod pod) {
        PodCondition ready = condition(pod, "Ready");
        return ready != null && "True".equals(ready.getStatus());
    }

    private static PodCondition condition(Pod pod, String type) {
        if (pod == null || pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return null;
        }
        return pod.getStatus().getConditions().stream()
                .filter(c -> type.equals(c.getType()))
                .findFirst()
                .orElse(null);
    }
}
