package dev.stackbench.operator;

import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.DelayServiceSpec;
import dev.stackbench.api.PoolPlacement;
import dev.stackbench.catalogue.VariantCatalogue;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.List;
import java.util.Map;

/** The delay service answering the target's upstream calls, on the backend pool with Guaranteed QoS. */
public final class DelayServiceDeploymentDependentResource {

    public static final int HTTP_PORT = 8090;
    public static final int MANAGEMENT_PORT = 8091;

    private final VariantCatalogue catalogue;
    private final OperatorSettings settings;

    public DelayServiceDeploymentDependentResource(VariantCatalogue catalogue, OperatorSettings settings) {
        this.catalogue = catalogue;
        this.settings = settings;
    }

    public String image() {
        return catalogue.delayService().image() + ":" + settings.imageTag();
    }

    public Deployment desired(BenchmarkRun run) {
        DelayServiceSpec delay = run.getSpec().getBackend().getDelayService();
        PoolPlacement placement = Placements.backend(run.getSpec());
        Map<String, Quantity> limits = Map.of(
                "cpu", new Quantity(delay.getResources().getCpu()),
                "memory", new Quantity(delay.getResources().getMemory()));
        List<EnvVar> env = List.of(
                new EnvVar("PORT", Integer.toString(HTTP_PORT), null),
                new EnvVar("MANAGEMENT_PORT", Integer.toString(MANAGEMENT_PORT), null),
                new EnvVar("BIND_ADDRESS", "0.0.0.0", null),
                new EnvVar(JvmSizing.ENV, JvmSizing.options(delay.getResources(), null), null));
        return new DeploymentBuilder()
                .withNewMetadata()
                .withName(RunLabels.delayServiceName(run))
                .withNamespace(run.getMetadata().getNamespace())
                .withLabels(RunLabels.forRole(run, RunLabels.ROLE_DELAY_SERVICE))
                .withOwnerReferences(RunLabels.ownerReference(run))
                .endMetadata()
                .withNewSpec()
                .withReplicas(delay.getReplicas())
                .withNewSelector().withMatchLabels(RunLabels.selector(run, RunLabels.ROLE_DELAY_SERVICE))
                .endSelector()
                .withNewTemplate()
                .withNewMetadata().withLabels(RunLabels.forRole(run, RunLabels.ROLE_DELAY_SERVICE)).endMetadata()
                .withNewSpec()
                .withNodeSelector(placement.getNodeSelector())
                .withTolerations(placement.getTolerations())
                .withEnableServiceLinks(false)
                .addNewContainer()
                .withName("delay-service")
                .withImage(image())
                .addNewPort().withName("http").withContainerPort(HTTP_PORT).endPort()
                .addNewPort().withName("management").withContainerPort(MANAGEMENT_PORT).endPort()
                .withEnv(env)
                .withNewResources().withRequests(limits).withLimits(limits).endResources()
                .withNewReadinessProbe()
                .withNewHttpGet().withPath(TargetDeploymentDependentResource.HEALTH_PATH)
                .withNewPort("management").endHttpGet()
                .withPeriodSeconds(2).withFailureThreshold(3).withTimeoutSeconds(2)
                .endReadinessProbe()
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }
}
