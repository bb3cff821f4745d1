package dev.stackbench.operator.objects;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.operator.RunLabels;
import io.fabric8.kubernetes.api.model.Service;

/** The target's Service, the address the k6 runners send load to. */
public final class TargetService {

    public Service desired(BenchmarkRun run) {
        return ServiceDesign.of(
                run,
                RunLabels.targetName(run),
                RunLabels.ROLE_TARGET,
                TargetDeployment.HTTP_PORT,
                TargetDeployment.MANAGEMENT_PORT);
    }

    /** The target's API base URL as the runners see it. */
    public static String url(BenchmarkRun run) {
        return ServiceDesign.url(run, RunLabels.targetName(run), TargetDeployment.HTTP_PORT);
    }
}
