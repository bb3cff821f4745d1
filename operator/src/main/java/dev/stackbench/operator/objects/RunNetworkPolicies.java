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
 * only to the run's k6 runners, and the runners only to k6-operator (which starts them through k6's REST API). The
 * egress of the target (its database, the delay service, DNS) and of the runners (the target, DNS) is closed too, so
 * a run neither reaches nor is reached by another run or anything else in the cluster.
 *
 * <p>Not listed, because they come from the pod's node rather than from a pod: kubelet probes and the API server's
 * pod proxy, through which the operator reads the target's Actuator. Enforcers let a pod's own node reach it (on the
 * test cluster's real nodes the pod proxy's source is the pod subnet's gateway on the machine); where the API server
 * reaches pods from elsewhere, an extra policy must admit it to the target's management port.
 */
public final class RunNetworkPolicies {

    /**
     * The label the run's k6 starter pod carries (the run's name), so that the runners admit it; not {@link
     * RunLabels#RUN}, which would count the starter among the run's pods.
     */
    public static final String STARTER_OF = "stackbench.dev/starter-of";

    /** k6-operator's own pods (its chart's {@code app.kubernetes.io/name}), which ask each runner for its status. */
    static final Map<String, String> K6_OPERATOR_PODS = Map.of(RunLabels.NAME, "k6-operator");

    private static final int DNS_PORT = 53;

    private final OperatorSettings settings;

    public RunNetworkPolicies(OperatorSettings settings) {
        this.settings = settings;
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
        return policies;
    }

    NetworkPolicy database(BenchmarkRun run) {
        return reachedOnlyByTheTarget(run, RunLabels.ROLE_DATABASE, RunDatabase.PORT);
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
        return policy(
                run,
                RunLabels.ROLE_TARGET,
                List.of(ingress(TargetDeployment.HTTP_PORT, role(run, RunLabels.ROLE_LOADGEN))),
                egress);
    }

    NetworkPolicy delayService(BenchmarkRun run) {
        return reachedOnlyByTheTarget(run, RunLabels.ROLE_DELAY_SERVICE, DelayServiceDeployment.HTTP_PORT);
    }

    /** A role that only the target calls, on one port, and that calls nothing itself. */
    private static NetworkPolicy reachedOnlyByTheTarget(BenchmarkRun run, String role, int port) {
        return policy(run, role, List.of(ingress(port, role(run, RunLabels.ROLE_TARGET))), List.of());
    }

    NetworkPolicy runners(BenchmarkRun run) {
        NetworkPolicyPeer starter = new NetworkPolicyPeerBuilder()
                .withPodSelector(labels(Map.of(STARTER_OF, run.getMetadata().getName())))
                .build();
        NetworkPolicyPeer k6Operator = new NetworkPolicyPeerBuilder()
                .withNamespaceSelector(new LabelSelector())
                .withPodSelector(labels(K6_OPERATOR_PODS))
                .build();
        return policy(
                run,
                RunLabels.ROLE_LOADGEN,
                List.of(ingress(K6TestRun.K6_API_PORT, starter, k6Operator)),
                List.of(egress(TargetDeployment.HTTP_PORT, role(run, RunLabels.ROLE_TARGET)), dns()));
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
