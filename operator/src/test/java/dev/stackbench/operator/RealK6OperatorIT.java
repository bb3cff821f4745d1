package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.operator.objects.K6ScriptConfigMap;
import dev.stackbench.operator.objects.K6TestRun;
import dev.stackbench.operator.objects.ReadinessGate;
import dev.stackbench.testcluster.ProjectTools;
import dev.stackbench.testcluster.TestCluster;
import dev.stackbench.testcluster.TestClusterExtension;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The real k6-operator controller (built from source by hack/setup.sh), run as a process against the test
 * cluster, accepts the TestRun the operator builds and starts it: without an initializer (the generated script needs
 * none), its runner Job runs our k6 image on the loadgen pool, behind the readiness gate. The rest of a run needs
 * real kubelets (k6-operator asks each runner's REST API before it starts them), so the kwok suite keeps
 * K6OperatorStandIn for whole runs.
 */
@Order(3)
@ExtendWith(TestClusterExtension.class)
class RealK6OperatorIT {

    private static final String RUNNER_IMAGE = "stackbench/k6:v1.8.1";
    private static final String STARTER_IMAGE = "stackbench/k6-starter:v1.6.0";

    @Test
    void acceptsTheOperatorsTestRunAndCreatesItsGatedRunnerJobsOnTheLoadgenPoolWithoutAnInitializer(TestCluster cluster)
            throws IOException, InterruptedException {
        Path controller = ProjectTools.requireExecutable("STACKBENCH_K6_OPERATOR", "the k6-operator controller");
        KubernetesClient client = cluster.client();
        String namespace = cluster.createNamespace("real-k6-operator");

        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        run.getMetadata().setNamespace(namespace);
        OperatorSettings defaults = ExampleRuns.settings();
        OperatorSettings settings = new OperatorSettings(
                defaults.imageTag(),
                defaults.databaseImage(),
                defaults.defaultDatabaseSecret(),
                RUNNER_IMAGE,
                STARTER_IMAGE,
                defaults.pollInterval(),
                defaults.targetReadyLimit());
        ConfigMap script = new K6ScriptConfigMap().desired(run, null);
        GenericKubernetesResource testRun = new K6TestRun(settings).desired(run);
        // No BenchmarkRun exists in this test: the garbage collector would delete what a missing run owns.
        script.getMetadata().setOwnerReferences(List.of());
        testRun.getMetadata().setOwnerReferences(List.of());

        Path log = Files.createTempFile("k6-operator-", ".log");
        ProcessBuilder builder = new ProcessBuilder(
                        controller.toString(), "--metrics-bind-address=0", "--health-probe-bind-address=0")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        // Only this test's namespace: other tests' TestRuns belong to K6OperatorStandIn.
        builder.environment().put("KUBECONFIG", cluster.kubeconfig().toString());
        builder.environment().put("WATCH_NAMESPACE", namespace);
        String name = testRun.getMetadata().getName();
        // Every stage k6-operator writes, in order: a watch sees each status update.
        List<String> stages = new CopyOnWriteArrayList<>();
        Watch watch = client.genericKubernetesResources(K6TestRun.CONTEXT)
                .inNamespace(namespace)
                .withName(name)
                .watch(new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, GenericKubernetesResource resource) {
                        Object stage = resource.get("status", "stage");
                        if (stage != null
                                && (stages.isEmpty() || !stages.getLast().equals(stage))) {
                            stages.add(stage.toString());
                        }
                    }

                    @Override
                    public void onClose(WatcherException cause) {}
                });
        Process process = builder.start();
        try {
            client.resource(script).create();
            client.resource(testRun).create();

            // The generated script needs no initializer: k6-operator goes straight to its runner Jobs.
            Job runner = await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(500))
                    .failFast("k6-operator exited:\n" + tail(log), () -> !process.isAlive())
                    .until(
                            () -> client.batch()
                                    .v1()
                                    .jobs()
                                    .inNamespace(namespace)
                                    .withName(name + "-1")
                                    .get(),
                            job -> job != null);

            PodSpec pod = runner.getSpec().getTemplate().getSpec();
            assertThat(pod.getContainers()).singleElement().satisfies(container -> assertThat(container.getImage())
                    .isEqualTo(RUNNER_IMAGE));
            assertThat(pod.getNodeSelector()).isEqualTo(Map.of("stackbench.dev/pool", "loadgen"));
            assertThat(pod.getTolerations())
                    .anySatisfy(toleration -> assertThat(toleration.getValue()).isEqualTo("loadgen"));
            // The readiness gate runs before k6, with the script ConfigMap (and so its gate script) mounted.
            assertThat(pod.getInitContainers())
                    .extracting(Container::getName)
                    .containsExactly(K6TestRun.VERSION_CONTAINER, ReadinessGate.CONTAINER);
            assertThat(pod.getInitContainers().getLast().getCommand()).contains("/test/" + ReadinessGate.SCRIPT_KEY);
            assertThat(pod.getInitContainers().getLast().getVolumeMounts())
                    .anySatisfy(mount -> assertThat(mount.getMountPath()).isEqualTo("/test"));
            assertThat(stages)
                    .as("stages k6-operator wrote (log:\n%s)", tail(log))
                    .startsWith("initialized");
            assertThat(client.batch()
                            .v1()
                            .jobs()
                            .inNamespace(namespace)
                            .withName(name + "-initializer")
                            .get())
                    .isNull();
        } finally {
            watch.close();
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            client.namespaces().withName(namespace).delete();
            Files.deleteIfExists(log);
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e.getMessage() + ")";
        }
    }
}
