package dev.stackbench.operator.objects;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.operator.RunLabels;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;

/**
 * A ClusterIP Service in front of one role's pods, with its API and management ports.
 *
 * <p>Where the runners wait in their readiness gate ({@link ReadinessGate#applies}: one replica), the Service also
 * routes to the pod before its readiness probe passes: the gate asks the same health endpoint the probe does and
 * lets the load go the moment it answers, instead of up to a probe period plus the time the endpoint takes to reach
 * the Service (1-2 s on the test cluster's real nodes). With one replica that is also what a run wants later: a
 * target that stops answering its probe under load stays the run's target, answering or not, rather than leaving
 * its Service and turning the rest of the run into refused connections.
 */
final class ServiceDesign {

    private ServiceDesign() {}

    static Service of(BenchmarkRun run, String name, String role, int httpPort, int managementPort) {
        return new ServiceBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(run.getMetadata().getNamespace())
                .withLabels(RunLabels.forRole(run, role))
                .withOwnerReferences(RunLabels.ownerReference(run))
                .endMetadata()
                .withNewSpec()
                .withType("ClusterIP")
                .withSelector(RunLabels.selector(run, role))
                .withPublishNotReadyAddresses(ReadinessGate.applies(run))
                .addNewPort()
                .withName("http")
                .withPort(httpPort)
                .withTargetPort(new IntOrString("http"))
                .endPort()
                .addNewPort()
                .withName("management")
                .withPort(managementPort)
                .withTargetPort(new IntOrString("management"))
                .endPort()
                .endSpec()
                .build();
    }

    /** The Service's DNS name inside the cluster. */
    static String url(BenchmarkRun run, String name, int port) {
        return "http://" + name + "." + run.getMetadata().getNamespace() + ".svc:" + port;
    }
}
