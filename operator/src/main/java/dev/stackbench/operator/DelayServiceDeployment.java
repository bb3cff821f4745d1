package dev.stackbench.operator;

import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.DelayServiceSpec;
import dev.stackbench.catalogue.VariantCatalogue;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.List;

/** The delay service answering the target's upstream calls, on the backend pool with Guaranteed QoS. */
public final class DelayServiceDeployment {

    public static final int HTTP_PORT = 8090;
    public static final int MANAGEMENT_PORT = 8091;

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
        DelayServiceSpec delay = run.getSpec().getBackend().getDelayService();
        List<EnvVar> env = List.of(
                new EnvVar("PORT", Integer.toString(HTTP_PORT), null),
                new EnvVar("MANAGEMENT_PORT", Integer.toString(MANAGEMENT_PORT), null),
                new EnvVar("BIND_ADDRESS", "0.0.0.0", null),
                new EnvVar(JvmSizing.ENV, JvmSizing.options(delay.getResources(), null), null));
        return SpringAppDeployment.desired(
                run,
                new SpringAppDeployment.App(
                        RunLabels.delayServiceName(run),
                        RunLabels.ROLE_DELAY_SERVICE,
                        "delay-service",
                        image(),
                        delay.getReplicas(),
                        Placements.backend(run.getSpec()),
                        delay.getResources(),
                        HTTP_PORT,
                        MANAGEMENT_PORT,
                        env));
    }
}
