package dev.stackbench.operator.objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.operator.ExampleRuns;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class K6RemoteWriteTest {

    private static final Map<String, String> ENV = Map.of(
            K6RemoteWrite.URL_ENV, "http://sb-kube-prometheus-stack-prometheus.stackbench:9090/api/v1/write",
            K6RemoteWrite.NAMESPACE_ENV, "stackbench",
            K6RemoteWrite.POD_LABELS_ENV, "app.kubernetes.io/name=prometheus");

    @Test
    void noUrlMeansNoRemoteWrite() {
        assertThat(K6RemoteWrite.from(Map.of())).isEmpty();
        assertThat(K6RemoteWrite.from(Map.of(K6RemoteWrite.URL_ENV, " "))).isEmpty();
    }

    @Test
    void aReceiverWithoutItsPodsOrWithABadUrlIsRefusedSayingWhatToSet() {
        assertThatThrownBy(
                        () -> K6RemoteWrite.from(Map.of(K6RemoteWrite.URL_ENV, "http://prometheus:9090/api/v1/write")))
                .hasMessageContaining("k6.remoteWrite.namespace");
        assertThatThrownBy(() -> K6RemoteWrite.from(Map.of(
                        K6RemoteWrite.URL_ENV, "prometheus:9090",
                        K6RemoteWrite.NAMESPACE_ENV, "x",
                        K6RemoteWrite.POD_LABELS_ENV, "a=b")))
                .hasMessageContaining("k6.remoteWrite.url");
        assertThatThrownBy(() -> K6RemoteWrite.from(Map.of(
                        K6RemoteWrite.URL_ENV, "http://p:9090/api/v1/write",
                        K6RemoteWrite.NAMESPACE_ENV, "x",
                        K6RemoteWrite.POD_LABELS_ENV, "justakey")))
                .hasMessageContaining("not key=value");
    }

    /** With a runner image whose k6 has stackbench's output, each runner prints its seconds into its log. */
    @Test
    void runnersPrintTheirPerSecondCountsOnlyWhenTheirK6HasTheOutput() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        @SuppressWarnings("unchecked")
        Map<String, Object> with = (Map<String, Object>) new K6TestRun(ExampleRuns.settings(), Optional.empty(), true)
                .desired(run)
                .getAdditionalProperties()
                .get("spec");
        assertThat((String) with.get("arguments")).isEqualTo("--tag stackbench_run=webflux-r2dbc --out stackbench=-");
        @SuppressWarnings("unchecked")
        Map<String, Object> without =
                (Map<String, Object>) new K6TestRun(ExampleRuns.settings(), Optional.empty(), false)
                        .desired(run)
                        .getAdditionalProperties()
                        .get("spec");
        assertThat((String) without.get("arguments")).doesNotContain("--out stackbench");
    }

    @Test
    void runnersSendTheirMetricsAsNativeHistogramsAndMayReachOnlyThePrometheusPodsBesides() {
        Optional<K6RemoteWrite> receiver = K6RemoteWrite.from(ENV);
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();

        @SuppressWarnings("unchecked")
        Map<String, Object> spec = (Map<String, Object>) new K6TestRun(ExampleRuns.settings(), receiver)
                .desired(run)
                .getAdditionalProperties()
                .get("spec");
        assertThat((String) spec.get("arguments"))
                .isEqualTo("--tag stackbench_run=webflux-r2dbc --out experimental-prometheus-rw");
        @SuppressWarnings("unchecked")
        List<Map<String, String>> env =
                (List<Map<String, String>>) ((Map<String, Object>) spec.get("runner")).get("env");
        assertThat(env)
                .contains(
                        Map.of("name", "K6_PROMETHEUS_RW_SERVER_URL", "value", ENV.get(K6RemoteWrite.URL_ENV)),
                        Map.of("name", "K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM", "value", "true"));

        NetworkPolicy runners = new RunNetworkPolicies(ExampleRuns.settings(), receiver).runners(run);
        List<NetworkPolicyEgressRule> egress = runners.getSpec().getEgress();
        // The target, DNS, the readiness gate's two health endpoints, then Prometheus.
        assertThat(egress).hasSize(5);
        NetworkPolicyEgressRule prometheus = egress.getLast();
        assertThat(prometheus.getPorts())
                .singleElement()
                .satisfies(port -> assertThat(port.getPort().getIntVal()).isEqualTo(9090));
        assertThat(prometheus.getTo()).singleElement().satisfies(peer -> {
            assertThat(peer.getNamespaceSelector().getMatchLabels())
                    .isEqualTo(Map.of("kubernetes.io/metadata.name", "stackbench"));
            assertThat(peer.getPodSelector().getMatchLabels())
                    .isEqualTo(Map.of("app.kubernetes.io/name", "prometheus"));
        });

        // The same Prometheus scrapes the target's and the delay service's Actuator metrics.
        RunNetworkPolicies withReceiver = new RunNetworkPolicies(ExampleRuns.settings(), receiver);
        assertThat(withReceiver.target(run).getSpec().getIngress()).anySatisfy(rule -> {
            assertThat(rule.getPorts().get(0).getPort().getIntVal()).isEqualTo(TargetDeployment.MANAGEMENT_PORT);
            assertThat(rule.getFrom().get(0).getPodSelector().getMatchLabels())
                    .isEqualTo(Map.of("app.kubernetes.io/name", "prometheus"));
        });
        assertThat(withReceiver.delayService(run).getSpec().getIngress()).hasSize(3);

        // Without a receiver, neither the output nor the rules.
        GenericKubernetesResource plain = new K6TestRun(ExampleRuns.settings(), Optional.empty()).desired(run);
        assertThat(plain.getAdditionalProperties().get("spec").toString()).doesNotContain("prometheus");
        assertThat(new RunNetworkPolicies(ExampleRuns.settings(), Optional.empty())
                        .runners(run)
                        .getSpec()
                        .getEgress())
                .hasSize(4);
    }
}
