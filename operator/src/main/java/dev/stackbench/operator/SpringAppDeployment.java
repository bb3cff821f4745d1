package dev.stackbench.operator;

import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.PoolPlacement;
import dev.stackbench.api.ResourcesSpec;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.List;
import java.util.Map;

/**
 * The Deployment shape every Spring Boot app of a run shares (target and delay service): one role of the run on its
 * pool, requests equal to limits (Guaranteed QoS), the API and management ports, and readiness from Actuator health.
 */
final class SpringAppDeployment {

    static final String HEALTH_PATH = "/actuator/health";

    private SpringAppDeployment() {}

    record App(
            String name,
            String role,
            String container,
            String image,
            int replicas,
            PoolPlacement placement,
            ResourcesSpec resources,
            int httpPort,
            int managementPort,
            List<EnvVar> env) {}

    static Deployment desired(BenchmarkRun run, App app) {
        Map<String, Quantity> limits = Map.of(
                "cpu", new Quantity(app.resources().getCpu()),
                "memory", new Quantity(app.resources().getMemory()));
        return new DeploymentBuilder()
                .withNewMetadata()
                .withName(app.name())
                .withNamespace(run.getMetadata().getNamespace())
                .withLabels(RunLabels.forRole(run, app.role()))
                .withOwnerReferences(RunLabels.ownerReference(run))
                .endMetadata()
                .withNewSpec()
                .withReplicas(app.replicas())
                .withNewSelector()
                .withMatchLabels(RunLabels.selector(run, app.role()))
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .withLabels(RunLabels.forRole(run, app.role()))
                .endMetadata()
                .withNewSpec()
                .withNodeSelector(app.placement().getNodeSelector())
                .withTolerations(app.placement().getTolerations())
                .withEnableServiceLinks(false)
                .addNewContainer()
                .withName(app.container())
                .withImage(app.image())
                .addNewPort()
                .withName("http")
                .withContainerPort(app.httpPort())
                .endPort()
                .addNewPort()
                .withName("management")
                .withContainerPort(app.managementPort())
                .endPort()
                .withEnv(app.env())
                .withNewResources()
                .withRequests(limits)
                .withLimits(limits)
                .endResources()
                .withNewReadinessProbe()
                .withNewHttpGet()
                .withPath(HEALTH_PATH)
                .withNewPort("management")
                .endHttpGet()
                .withPeriodSeconds(2)
                .withFailureThreshold(3)
                .withTimeoutSeconds(2)
                .endReadinessProbe()
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }
}
