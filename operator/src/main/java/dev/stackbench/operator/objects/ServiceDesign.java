package dev.stackbench.operator.objects;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.operator.RunLabels;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;

/** A ClusterIP Service in front of one role's pods, with its API and management ports. */
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
