package dev.stackbench.operator.objects;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.model.AppWiring;
import dev.stackbench.model.RunApps;
import dev.stackbench.model.SpringApp;
import dev.stackbench.operator.OperatorSettings;
import dev.stackbench.operator.RunLabels;
import io.fabric8.kubernetes.api.model.apps.Deployment;

/** The delay service answering the target's upstream calls ({@link RunApps#delayService}) on the backend pool. */
public final class DelayServiceDeployment {

    public static final int HTTP_PORT = AppWiring.CLUSTER_DELAY_SERVICE.httpPort();
    public static final int MANAGEMENT_PORT = AppWiring.CLUSTER_DELAY_SERVICE.managementPort();

    private final VariantCatalogue catalogue;
    private final OperatorSettings settings;

    public DelayServiceDeployment(VariantCatalogue catalogue, OperatorSettings settings) {
        this.catalogue = catalogue;
        this.settings = settings;
    }

    public String image() {
        return catalogue.delayService().image() + ":" + settings.imageTag();
    }

    public Deployment desired(BenchmarkRun run) {
        SpringApp app = RunApps.delayService(
                run.getSpec(), new AppWiring(AppWiring.CLUSTER_TARGET, AppWiring.CLUSTER_DELAY_SERVICE, null, null));
        return SpringAppDeployment.desired(
                run,
                new SpringAppDeployment.App(
                        RunLabels.delayServiceName(run),
                        RunLabels.ROLE_DELAY_SERVICE,
                        "delay-service",
                        image(),
                        run.getSpec().getBackend().getDelayService().getReplicas(),
                        Placements.backend(run.getSpec()),
                        app,
                        SpringAppDeployment.plainEnv(app)));
    }
}
