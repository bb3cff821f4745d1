package dev.stackbench.operator.objects;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.operator.OperatorSettings;
import dev.stackbench.operator.RunLabels;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRuleBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRuleBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeerBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPortBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The NetworkPolicies of a run, one per role, so that each of its pods talks only to the pods of the same run it has
 * to: the database (when the run has its own) only to the target, the delay service only to the target, the target
 * only to the run's k6 runners, and the runners only on k6's REST API (through which k6-operator starts them). The
 * egress of the target (its database, the delay service, DNS) and of the runners (the target, DNS) is closed too, so
 * a run reaches nothing else in the cluster, and nothing else reaches it but on the runners' REST API. With k6's
 * remote write ({@link K6RemoteWrite}) the Prometheus pods that receive it are one more peer: the runners send to
 * them, and they scrape the target's and the delay service's management ports and the database's exporter
 * ({@link DatabaseExporter}). The pod that verifies the run's work before its load ({@link VerificationPod}) reaches
 * the target's API, the delay service's management port and the database. A run whose load starts early ({@link ReadinessGate}) also lets its runners reach the
 * health endpoints of the target and the delay service on their management ports, which their gate asks.
 *
 * <p>Not listed, because they come from the pod's node rather than from a pod: kubelet probes and the API server's
 * pod proxy, through which the operator reads the target's Actuator. Enforcers let a pod's own node reach it (on the
 * test cluster's real nodes the pod proxy's source is the pod subnet's gateway on the machine); where the API server
 * reaches pods from elsewhere, an extra policy must admit it to the target's management port.
 */
public final class RunNetworkPolicies {

    private static final int DNS_PORT = 53;

    /** The label Kubernetes puts on every namespace with its name. */
    static final String NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

    private final OperatorSettings settings;
    private final java.util.Optional<K6RemoteWrite> remoteWrite;
    private final java.util.Optional<DatabaseExporter> exporter;
    private final boolean verifyWork;

    public RunNetworkPolicies(OperatorSettings settings) {
        this(
                settings,
                K6RemoteWrite.fromEnvironment(),
                DatabaseExporter.fromEnvironment(),
                VerificationPod.enabledFromEnvironment());
    }

    RunNetworkPolicies(OperatorSettings settings, java.util.Optional<K6RemoteWrite> remoteWrite) {
        this(settings, remoteWrite, java.util.Optional.empty());
    }

    RunNetworkPolicies(
            OperatorSettings settings,
            java.util.Optional<K6RemoteWrite> remoteWrite,
            java.util.Optional<DatabaseExporter> exporter) {
        this(settings, remoteWrite, exporter, false);
    }

    RunNetworkPolicies(
            OperatorSettings settings,
            java.util.Optional<K6RemoteWrite> remoteWrite,
            java.util.Optional<DatabaseExporter> exporter,
            boolean verifyWork) {
        this.settings = settings;
        this.remoteWrite = remoteWrite;
        this.exporter = exporter;
        this.verifyWork = verifyWork;
    }

    public static String name(BenchmarkRun run, String role) {
        return run.getMetadata().getName() + "-" + role;
    }

    /** The policies of the run: database (own database only), target, delay service, runners. */
    public List<NetworkPolicy> desired(BenchmarkRun run) {
        List<NetworkPolicy> policies = new ArrayList<>();
        if (RunDatabase.ownDatabase(run)) {
            policies.add(database(run));
        }
        policies.add(target(run));
        policies.add(delayService(run));
        policies.add(runners(run));
        if (verifies(run)) {
            policies.add(verification(run));
        }
        return policies;
    }

    private boolean verifies(BenchmarkRun run) {
        return VerificationPod.applies(run, verifyWork);
    }

    /**
     * The verification pod ({@link VerificationPod}) waits for the target's and the delay service's health endpoints
     * (management ports), sends requests to the target, reads the delay service's call counter and counts the
     * statements on the run's database; nothing reaches it.
     */
    NetworkPolicy verification(BenchmarkRun run) {
        return policy(
                run,
                RunLabels.ROLE_VERIFICATION,
                List.of(),
                List.of(
                        egress(TargetDeployment.HTTP_PORT, role(run, RunLabels.ROLE_TARGET)),
                        egress(TargetDeployment.MANAGEMENT_PORT, role(run, RunLabels.ROLE_TARGET)),
                        egress(DelayServiceDeployment.MANAGEMENT_PORT, role(run, RunLabels.ROLE_DELAY_SERVICE)),
                        egress(RunDatabase.PORT, role(run, RunLabels.ROLE_DATABASE)),
                        dns()));
    }

    /**
     * Only the target reaches the server; the Prometheus pods reach the exporter beside it, when there are both (the
     * exporter connects to the server over the pod's loopback, which no policy governs).
     */
    NetworkPolicy database(BenchmarkRun run) {
        List<NetworkPolicyIngressRule> ingress =
                new ArrayList<>(List.of(ingress(RunDatabase.PORT, role(run, RunLabels.ROLE_TARGET))));
        if (verifies(run)) {
            ingress.add(ingress(RunDatabase.PORT, role(run, RunLabels.ROLE_VERIFICATION)));
        }
        if (exporter.isPresent()) {
            prometheus().ifPresent(peer -> ingress.add(ingress(DatabaseExporter.PORT, peer)));
        }
        return policy(run, RunLabels.ROLE_DATABASE, ingress, List.of());
    }

    NetworkPolicy target(BenchmarkRun run) {
        List<NetworkPolicyEgressRule> egress = new ArrayList<>();
        egress.add(
                RunDatabase.ownDatabase(run)
                        ? egress(RunDatabase.PORT, role(run, RunLabels.ROLE_DATABASE))
                        // An external database is an address the operator cannot select by labels: its port, anywhere.
                        : egress(TargetDeployment.database(run, settings).getPort()));
        egress.add(egress(DelayServiceDeployment.HTTP_PORT, role(run, RunLabels.ROLE_DELAY_SERVICE)));
        egress.add(dns());
        List<NetworkPolicyIngressRule> ingress =
                new ArrayList<>(List.of(ingress(TargetDeployment.HTTP_PORT, role(run, RunLabels.ROLE_LOADGEN))));
        if (verifies(run)) {
            ingress.add(ingress(TargetDeployment.HTTP_PORT, role(run, RunLabels.ROLE_VERIFICATION)));
            ingress.add(ingress(TargetDeployment.MANAGEMENT_PORT, role(run, RunLabels.ROLE_VERIFICATION)));
        }
        if (ReadinessGate.applies(run)) {
            // The runners' readiness gate asks the health endpoint, on the management port.
            ingress.add(ingress(TargetDeployment.MANAGEMENT_PORT, role(run, RunLabels.ROLE_LOADGEN)));
        }
        prometheus().ifPresent(peer -> ingress.add(ingress(TargetDeployment.MANAGEMENT_PORT, peer)));
        return policy(run, RunLabels.ROLE_TARGET, ingress, egress);
    }

    NetworkPolicy delayService(BenchmarkRun run) {
        List<NetworkPolicyIngressRule> ingress =
                new ArrayList<>(List.of(ingress(DelayServiceDeployment.HTTP_PORT, role(run, RunLabels.ROLE_TARGET))));
        if (ReadinessGate.applies(run)) {
            ingress.add(ingress(DelayServiceDeployment.MANAGEMENT_PORT, role(run, RunLabels.ROLE_LOADGEN)));
        }
        if (verifies(run)) {
            ingress.add(ingress(DelayServiceDeployment.MANAGEMENT_PORT, role(run, RunLabels.ROLE_VERIFICATION)));
        }
        prometheus().ifPresent(peer -> ingress.add(ingress(DelayServiceDeployment.MANAGEMENT_PORT, peer)));
        return policy(run, RunLabels.ROLE_DELAY_SERVICE, ingress, List.of());
    }

    /**
     * The Prometheus pods that receive k6's metrics, when there are: the runners send to them, and they scrape the
     * target's and the delay service's Actuator metrics (the chart's PodMonitor) on the management ports.
     */
    private java.util.Optional<NetworkPolicyPeer> prometheus() {
        return remoteWrite.map(receiver -> new NetworkPolicyPeerBuilder()
                .withNamespaceSelector(labels(Map.of(NAMESPACE_NAME_LABEL, receiver.namespace())))
                .withPodSelector(labels(receiver.podLabels()))
                .build());
    }

    /**
     * The runners' REST API, on which k6-operator's starter un-pauses them and its manager reads their status, is open
     * to any source: the starter is a new pod that calls the moment it starts, before an enforcer has learnt its
     * address (kube-router rejected it on the test cluster's real nodes, and curl does not retry a refused connection),
     * so a rule naming it by labels would fail the run at random. Nothing else of the runners is reachable.
     */
    NetworkPolicy runners(BenchmarkRun run) {
        NetworkPolicyIngressRule restApi = new NetworkPolicyIngressRuleBuilder()
                .withPorts(tcp(K6TestRun.K6_API_PORT))
                .build();
        List<NetworkPolicyEgressRule> egress =
                new ArrayList<>(List.of(egress(TargetDeployment.HTTP_PORT, role(run, RunLabels.ROLE_TARGET)), dns()));
        if (ReadinessGate.applies(run)) {
            // The readiness gate of each runner: the health endpoints of the target and the delay service.
            egress.add(egress(TargetDeployment.MANAGEMENT_PORT, role(run, RunLabels.ROLE_TARGET)));
            egress.add(egress(DelayServiceDeployment.MANAGEMENT_PORT, role(run, RunLabels.ROLE_DELAY_SERVICE)));
        }
        // With k6's remote-write output: the Prometheus pods that receive it, on its port.
        remoteWrite.ifPresent(
                receiver -> egress.add(egress(receiver.port(), prometheus().orElseThrow())));
        return policy(run, RunLabels.ROLE_LOADGEN, List.of(restApi), egress);
    }

    private static NetworkPolicy policy(
            BenchmarkRun run,
            String role,
            List<NetworkPolicyIngressRule> ingress,
            List<NetworkPolicyEgressRule> egress) {
        return new NetworkPolicyBuilder()
                .withNewMetadata()
                .withName(name(run, role))
                .withNamespace(run.getMetadata().getNamespace())
                .withLabels(RunLabels.forRole(run, role))
                .withOwnerReferences(RunLabels.ownerReference(run))
                .endMetadata()
                .withNewSpec()
                .withPodSelector(labels(RunLabels.selector(run, role)))
                .withPolicyTypes("Ingress", "Egress")
                .withIngress(ingress)
                .withEgress(egress)
                .endSpec()
                .build();
    }

    /** The pods of one role of the run, in the run's namespace. */
    private static NetworkPolicyPeer role(BenchmarkRun run, String role) {
        return new NetworkPolicyPeerBuilder()
                .withPodSelector(labels(RunLabels.selector(run, role)))
                .build();
    }

    private static LabelSelector labels(Map<String, String> labels) {
        return new LabelSelectorBuilder().withMatchLabels(labels).build();
    }

    private static NetworkPolicyIngressRule ingress(int port, NetworkPolicyPeer... from) {
        return new NetworkPolicyIngressRuleBuilder()
                .withPorts(tcp(port))
                .withFrom(from)
                .build();
    }

    private static NetworkPolicyEgressRule egress(int port, NetworkPolicyPeer... to) {
        return new NetworkPolicyEgressRuleBuilder()
                .withPorts(tcp(port))
                .withTo(to)
                .build();
    }

    /**
     * Name lookups, to any address: the cluster DNS answers from its own pods or, as on the test cluster, from a
     * node address, which no pod selector matches.
     */
    private static NetworkPolicyEgressRule dns() {
        return new NetworkPolicyEgressRuleBuilder()
                .withPorts(port("UDP", DNS_PORT), port("TCP", DNS_PORT))
                .build();
    }

    private static NetworkPolicyPort tcp(int port) {
        return port("TCP", port);
    }

    private static NetworkPolicyPort port(String protocol, int port) {
        return new NetworkPolicyPortBuilder()
                .withProtocol(protocol)
                .withPort(new IntOrString(port))
                .build();
    }
}
