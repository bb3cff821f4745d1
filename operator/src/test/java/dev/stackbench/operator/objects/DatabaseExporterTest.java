package dev.stackbench.operator.objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.operator.ExampleRuns;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DatabaseExporterTest {

    private static final DatabaseExporter EXPORTER = new DatabaseExporter("stackbench/postgres-exporter:v0.17.1");

    @Test
    void sitsBesideTheServerReadingTheRunsPasswordOverTheLoopback() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        PodSpec pod = new RunDatabase(ExampleRuns.settings(), Optional.of(EXPORTER))
                .deployment(run)
                .getSpec()
                .getTemplate()
                .getSpec();

        assertThat(pod.getContainers()).extracting(Container::getName).containsExactly("postgresql", "metrics");
        Container exporter = pod.getContainers().get(1);
        assertThat(exporter.getImage()).isEqualTo("stackbench/postgres-exporter:v0.17.1");
        assertThat(exporter.getPorts()).singleElement().satisfies(port -> {
            assertThat(port.getName()).isEqualTo("metrics");
            assertThat(port.getContainerPort()).isEqualTo(9187);
        });
        assertThat(exporter.getEnv())
                .extracting(EnvVar::getName)
                .containsExactly("DATA_SOURCE_URI", "DATA_SOURCE_USER", "DATA_SOURCE_PASS");
        assertThat(exporter.getEnv().get(0).getValue()).isEqualTo("127.0.0.1:5432/stackbench?sslmode=disable");
        // The password is never in the pod spec: the run's own Secret, as the server reads it.
        assertThat(exporter.getEnv().get(2).getValue()).isNull();
        assertThat(exporter.getEnv().get(2).getValueFrom().getSecretKeyRef().getName())
                .isEqualTo(RunDatabase.name(run));
        assertThat(exporter.getResources().getRequests())
                .isEqualTo(exporter.getResources().getLimits());
        assertThat(exporter.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();

        // Without an exporter image, the server alone.
        assertThat(new RunDatabase(ExampleRuns.settings(), Optional.empty())
                        .deployment(run)
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers())
                .extracting(Container::getName)
                .containsExactly("postgresql");
    }

    @Test
    void aSmallDatabaseKeepsAllOfItsShare() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        run.getSpec()
                .getBackend()
                .getDatabase()
                .setResources(new dev.stackbench.api.run.ResourcesSpec()
                        .withCpu("250m")
                        .withMemory("512Mi"));
        PodSpec pod = new RunDatabase(ExampleRuns.settings(), Optional.of(EXPORTER))
                .deployment(run)
                .getSpec()
                .getTemplate()
                .getSpec();
        assertThat(pod.getContainers()).extracting(Container::getName).containsExactly("postgresql");
        assertThat(pod.getContainers().get(0).getResources().getLimits())
                .containsEntry("cpu", new io.fabric8.kubernetes.api.model.Quantity("250m"));
    }

    @Test
    void onlyThePrometheusThatReceivesK6ReachesTheExporter() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        Optional<K6RemoteWrite> receiver = Optional.of(new K6RemoteWrite(
                "http://prometheus.stackbench:9090/api/v1/write",
                "stackbench",
                Map.of("app.kubernetes.io/name", "prometheus")));

        List<NetworkPolicyIngressRule> ingress = new RunNetworkPolicies(
                        ExampleRuns.settings(), receiver, Optional.of(EXPORTER))
                .database(run)
                .getSpec()
                .getIngress();
        assertThat(ingress).hasSize(2);
        assertThat(ingress.get(0).getPorts().get(0).getPort().getIntVal()).isEqualTo(RunDatabase.PORT);
        assertThat(ingress.get(1).getPorts().get(0).getPort().getIntVal()).isEqualTo(DatabaseExporter.PORT);
        assertThat(ingress.get(1).getFrom().get(0).getPodSelector().getMatchLabels())
                .isEqualTo(Map.of("app.kubernetes.io/name", "prometheus"));

        // No exporter, or no known Prometheus: the server's port to the target only.
        assertThat(new RunNetworkPolicies(ExampleRuns.settings(), receiver, Optional.empty())
                        .database(run)
                        .getSpec()
                        .getIngress())
                .hasSize(1);
        assertThat(new RunNetworkPolicies(ExampleRuns.settings(), Optional.empty(), Optional.of(EXPORTER))
                        .database(run)
                        .getSpec()
                        .getIngress())
                .hasSize(1);
    }

    @Test
    void readsItsImageFromTheEnvironmentTheChartSets() {
        assertThat(DatabaseExporter.from(Map.of())).isEmpty();
        assertThat(DatabaseExporter.from(Map.of(DatabaseExporter.IMAGE_ENV, " ")))
                .isEmpty();
        assertThat(DatabaseExporter.from(Map.of(DatabaseExporter.IMAGE_ENV, "quay.io/x/postgres-exporter:v1 ")))
                .contains(new DatabaseExporter("quay.io/x/postgres-exporter:v1"));
        assertThatThrownBy(() -> new DatabaseExporter("")).hasMessageContaining("metrics.databaseExporter.image");
    }
}
