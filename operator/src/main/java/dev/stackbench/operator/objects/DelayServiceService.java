package dev.stackbench.operator.objects;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.operator.RunLabels;
import io.fabric8.kubernetes.api.model.Service;

/** The delay service's Service, named by DELAY_SERVICE_URL in the target's environment. */
public final class DelayServiceService {

    public Service desired(BenchmarkRun run) {
        return ServiceDesign.of(
                run,
                RunLabels.delayServiceName(run),
                RunLabels.ROLE_DELAY_SERVICE,
                DelayServiceDeployment.HTTP_PORT,
                DelayServiceDeployment.MANAGEMENT_PORT);
    }

    public static String url(BenchmarkRun run) {
        return ServiceDesign.url(run, RunLabels.delayServiceName(run), DelayServiceDeployment.HTTP_PORT);
    }
}
