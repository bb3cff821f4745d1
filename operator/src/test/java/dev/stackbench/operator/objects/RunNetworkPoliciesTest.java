package dev.stackbench.operator.objects;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.DatabaseSpec;
import dev.stackbench.api.run.ExternalDatabaseSpec;
import dev.stackbench.operator.ExampleRuns;
import dev.stackbench.operator.RunLabels;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class RunNetworkPoliciesTest {

    /** An operator that starts loads unverified (verification.enabled=false): the policies of the pods of every run. */
    private final RunNetworkPolicies policies = new RunNetworkPolicies(
            ExampleRuns.settings(), java.util.Optional.empty(), java.util.Optional.empty(), false);

    /** The chart's default: each run's verification pod gets a policy of its own and its peers admit it. */
    private final RunNetworkPolicies verifying = new RunNetworkPolicies(
            ExampleRuns.settings(), java.util.Optional.empty(), java.util.Optional.empty(), true);

    @Test
    void theVerificationPodReachesOnlyTheTargetsApiAndHealthTheDelayServicesCounterAndTheDatabase() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        Map<String, NetworkPolicy> byRole = byRole(verifying.desired(run));
        Map<String, String> verifier = RunLabels.selector(run, RunLabels.ROLE_VERIFICATION);

        assertThat(byRole).containsOnlyKeys("database", "target", "delay-service", "loadgen", "verification");
        NetworkPolicy verification = byRole.get("verification");
        assertThat(verification.getSpec().getPodSelector().getMatchLabels()).isEqualTo(verifier);
        assertThat(new VerificationPod(ExampleRuns.settings())
                        .desired(run, "198.18.2.5", List.of("198.18.3.7"), java.time.Duration.ofMinutes(5))
                        .getMetadata()
                        .getLabels())
                .containsAllEntriesOf(verifier);
        assertThat(verification.getSpec().getIngress()).isEmpty();
        assertThat(verification.getSpec().getEgress())
                .extracting(rule -> ports(rule.getPorts()))
                .containsExactly(
                        List.of("TCP/8080"),
                        List.of("TCP/" + TargetDeployment.MANAGEMENT_PORT),
                        List.of("TCP/" + DelayServiceDeployment.MANAGEMENT_PORT),
                        List.of("TCP/5432"),
                        List.of("UDP/53", "TCP/53"));
        assertThat(verification.getSpec().getEgress().get(3).getTo())
                .singleElement()
                .satisfies(to -> samePodsOfThisNamespace(to, RunLabels.selector(run, RunLabels.ROLE_DATABASE)));
        // Its peers admit it: the database on its port, the target on its API, the delay service on its counter.
        assertThat(byRole.get("database").getSpec().getIngress()).anySatisfy(rule -> {
            assertThat(ports(rule.getPorts())).containsExactly("TCP/5432");
            assertThat(rule.getFrom()).singleElement().satisfies(from -> samePodsOfThisNamespace(from, verifier));
        });
        assertThat(byRole.get("target").getSpec().getIngress()).anySatisfy(rule -> {
            assertThat(ports(rule.getPorts())).containsExactly("TCP/8080");
            assertThat(rule.getFrom()).singleElement().satisfies(from -> samePodsOfThisNamespace(from, verifier));
        });
        // Its health endpoint too: the pod is made while the target starts and waits for it.
        assertThat(byRole.get("target").getSpec().getIngress()).anySatisfy(rule -> {
            assertThat(ports(rule.getPorts())).containsExactly("TCP/" + TargetDeployment.MANAGEMENT_PORT);
            assertThat(rule.getFrom()).singleElement().satisfies(from -> samePodsOfThisNamespace(from, verifier));
        });
        assertThat(byRole.get("delay-service").getSpec().getIngress()).anySatisfy(rule -> {
            assertThat(ports(rule.getPorts())).containsExactly("TCP/" + DelayServiceDeployment.MANAGEMENT_PORT);
            assertThat(rule.getFrom()).singleElement().satisfies(from -> samePodsOfThisNamespace(from, verifier));
        });
    }

    @Test
    void fencesEveryPodOfTheRunThatTheOperatorCreatesWithItsOwnPolicy() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();

        Map<String, NetworkPolicy> byRole = byRole(policies.desired(run));

        assertThat(byRole).containsOnlyKeys("database", "target", "delay-service", "loadgen");
        for (NetworkPolicy policy : byRole.values()) {
            assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress", "Egress");
            assertThat(policy.getMetadata().getNamespace()).isEqualTo("bench");
            // Deleted with the run, and found by Cleanup's selector (run + managed-by).
            assertThat(policy.getMetadata().getOwnerReferences())
                    .singleElement()
                    .satisfies(owner -> assertThat(owner.getName()).isEqualTo("webflux-r2dbc"));
            assertThat(policy.getMetadata().getLabels()).containsAllEntriesOf(RunLabels.forRun(run));
        }
        // Each policy selects exactly the pods its builder creates.
        TargetDeployment target = new TargetDeployment(ExampleRuns.catalogue(), ExampleRuns.settings());
        assertThat(byRole.get("target").getSpec().getPodSelector().getMatchLabels())
                .isEqualTo(target.desired(run).getSpec().getSelector().getMatchLabels());
        assertThat(byRole.get("database").getSpec().getPodSelector().getMatchLabels())
                .isEqualTo(new RunDatabase(ExampleRuns.settings())
                        .deployment(run)
                        .getSpec()
                        .getSelector()
                        .getMatchLabels());
        assertThat(byRole.get("delay-service").getSpec().getPodSelector().getMatchLabels())
                .isEqualTo(new DelayServiceDeployment(ExampleRuns.catalogue(), ExampleRuns.settings())
                        .desired(run)
                        .getSpec()
                        .getSelector()
                        .getMatchLabels());
        assertThat(runnerLabels(run))
                .containsAllEntriesOf(
                        byRole.get("loadgen").getSpec().getPodSelector().getMatchLabels());
    }

    @Test
    void theDatabaseAndTheDelayServiceAnswerOnlyTheTargetAndReachNothing() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        Map<String, NetworkPolicy> byRole = byRole(policies.desired(run));
        Map<String, String> targetPods = RunLabels.selector(run, RunLabels.ROLE_TARGET);

        NetworkPolicy database = byRole.get("database");
        assertThat(database.getSpec().getIngress()).singleElement().satisfies(rule -> {
            assertThat(ports(rule.getPorts())).containsExactly("TCP/5432");
            assertThat(rule.getFrom()).singleElement().satisfies(from -> samePodsOfThisNamespace(from, targetPods));
        });
        assertThat(database.getSpec().getEgress()).isEmpty();

        NetworkPolicy delay = byRole.get("delay-service");
        assertThat(delay.getSpec().getIngress()).hasSize(2);
        assertThat(delay.getSpec().getIngress().getFirst()).satisfies(rule -> {
            assertThat(ports(rule.getPorts())).containsExactly("TCP/8090");
            assertThat(rule.getFrom()).singleElement().satisfies(from -> samePodsOfThisNamespace(from, targetPods));
        });
        // The runners' readiness gate asks its health endpoint.
        assertThat(delay.getSpec().getIngress().get(1)).satisfies(rule -> {
            assertThat(ports(rule.getPorts())).containsExactly("TCP/" + DelayServiceDeployment.MANAGEMENT_PORT);
            assertThat(rule.getFrom())
                    .singleElement()
                    .satisfies(from -> samePodsOfThisNamespace(from, RunLabels.selector(run, RunLabels.ROLE_LOADGEN)));
        });
        assertThat(delay.getSpec().getEgress()).isEmpty();
    }

    @Test
    void theTargetAnswersOnlyTheRunnersAndReachesOnlyItsDatabaseTheDelayServiceAndDns() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        NetworkPolicy target = byRole(policies.desired(run)).get("target");

        // The load on the API port, the runners' readiness gate on the health endpoint of the management port.
        assertThat(target.getSpec().getIngress()).hasSize(2).allSatisfy(rule -> assertThat(rule.getFrom())
                .singleElement()
                .satisfies(from -> samePodsOfThisNamespace(from, RunLabels.selector(run, RunLabels.ROLE_LOADGEN))));
        assertThat(target.getSpec().getIngress())
                .extracting(rule -> ports(rule.getPorts()))
                .containsExactly(List.of("TCP/8080"), List.of("TCP/" + TargetDeployment.MANAGEMENT_PORT));
        assertThat(target.getSpec().getEgress()).hasSize(3);
        assertThat(target.getSpec().getEgress().get(0)).satisfies(rule -> {
            assertThat(ports(rule.getPorts())).containsExactly("TCP/5432");
            assertThat(rule.getTo())
                    .singleElement()
                    .satisfies(to -> samePodsOfThisNamespace(to, RunLabels.selector(run, RunLabels.ROLE_DATABASE)));
        });
        assertThat(target.getSpec().getEgress().get(1)).satisfies(rule -> {
            assertThat(ports(rule.getPorts())).containsExactly("TCP/8090");
            assertThat(rule.getTo())
                    .singleElement()
                    .satisfies(
                            to -> samePodsOfThisNamespace(to, RunLabels.selector(run, RunLabels.ROLE_DELAY_SERVICE)));
        });
        assertDns(target.getSpec().getEgress().get(2));
    }

    @Test
    void aRunWithAnExternalDatabaseHasNoDatabasePolicyAndReachesTheDatabasePortAnywhere() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        run.getSpec()
                .getBackend()
                .setDatabase(new DatabaseSpec()
                        .withExternal(new ExternalDatabaseSpec()
                                .withHost("pg.shared.svc")
                                .withPort(6543)));

        Map<String, NetworkPolicy> byRole = byRole(policies.desired(run));

        assertThat(byRole).containsOnlyKeys("target", "delay-service", "loadgen");
        assertThat(byRole.get("target").getSpec().getEgress().getFirst()).satisfies(rule -> {
            assertThat(ports(rule.getPorts())).containsExactly("TCP/6543");
            assertThat(rule.getTo()).isEmpty();
        });
    }

    @Test
    void theRunnersAnswerOnlyOnK6sRestApiAndReachOnlyTheTargetAndDns() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        NetworkPolicy runners = byRole(policies.desired(run)).get("loadgen");

        // From any source: k6-operator's starter calls the moment it starts, before an enforcer knows its address.
        assertThat(runners.getSpec().getIngress()).singleElement().satisfies(rule -> {
            assertThat(ports(rule.getPorts())).containsExactly("TCP/6565");
            assertThat(rule.getFrom()).isEmpty();
        });
        assertThat(runners.getSpec().getEgress()).hasSize(4);
        assertThat(runners.getSpec().getEgress().get(0)).satisfies(rule -> {
            assertThat(ports(rule.getPorts())).containsExactly("TCP/8080");
            assertThat(rule.getTo())
                    .singleElement()
                    .satisfies(to -> samePodsOfThisNamespace(to, RunLabels.selector(run, RunLabels.ROLE_TARGET)));
        });
        assertDns(runners.getSpec().getEgress().get(1));
        // The readiness gate: the health endpoints of the target and the delay service, nothing else of them.
        assertThat(runners.getSpec().getEgress().get(2)).satisfies(rule -> {
            assertThat(ports(rule.getPorts())).containsExactly("TCP/" + TargetDeployment.MANAGEMENT_PORT);
            assertThat(rule.getTo())
                    .singleElement()
                    .satisfies(to -> samePodsOfThisNamespace(to, RunLabels.selector(run, RunLabels.ROLE_TARGET)));
        });
        assertThat(runners.getSpec().getEgress().get(3)).satisfies(rule -> {
            assertThat(ports(rule.getPorts())).containsExactly("TCP/" + DelayServiceDeployment.MANAGEMENT_PORT);
            assertThat(rule.getTo())
                    .singleElement()
                    .satisfies(
                            to -> samePodsOfThisNamespace(to, RunLabels.selector(run, RunLabels.ROLE_DELAY_SERVICE)));
        });
    }

    @Test
    void aRunWithoutTheReadinessGateOpensNoManagementPortToTheRunners() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        run.getSpec().getTarget().setReplicas(2);

        Map<String, NetworkPolicy> byRole = byRole(policies.desired(run));

        assertThat(byRole.get("loadgen").getSpec().getEgress())
                .extracting(rule -> ports(rule.getPorts()))
                .containsExactly(List.of("TCP/8080"), List.of("UDP/53", "TCP/53"));
        assertThat(byRole.get("target").getSpec().getIngress()).singleElement();
        assertThat(byRole.get("delay-service").getSpec().getIngress()).singleElement();
    }

    private static void assertDns(io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule rule) {
        assertThat(ports(rule.getPorts())).containsExactly("UDP/53", "TCP/53");
        assertThat(rule.getTo()).isEmpty();
    }

    private static void samePodsOfThisNamespace(NetworkPolicyPeer peer, Map<String, String> labels) {
        assertThat(peer.getNamespaceSelector()).isNull();
        assertThat(peer.getIpBlock()).isNull();
        assertThat(peer.getPodSelector().getMatchLabels()).isEqualTo(labels);
    }

    private static List<String> ports(List<NetworkPolicyPort> ports) {
        return ports.stream()
                .map(port -> port.getProtocol() + "/" + port.getPort().getIntVal())
                .toList();
    }

    private static Map<String, NetworkPolicy> byRole(List<NetworkPolicy> policies) {
        return policies.stream()
                .collect(Collectors.toMap(
                        policy -> policy.getMetadata().getLabels().get(RunLabels.ROLE), Function.identity()));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> testRunPod(BenchmarkRun run, String pod) {
        GenericKubernetesResource testRun = new K6TestRun(ExampleRuns.settings()).desired(run);
        Map<String, Object> spec =
                (Map<String, Object>) testRun.getAdditionalProperties().get("spec");
        return (Map<String, Object>) spec.get(pod);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> runnerLabels(BenchmarkRun run) {
        return (Map<String, String>)
                ((Map<String, Object>) testRunPod(run, "runner").get("metadata")).get("labels");
    }
}
