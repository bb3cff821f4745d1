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

    /**
     * The Service while the target's work is verified ({@link VerificationPod#gatesTheLoad}): its selector also asks
     * for a label no target pod has, so it routes nowhere and the runners' readiness gate stays shut; the verdict
     * applies {@link #desired} over it.
     */
    public Service closed(BenchmarkRun run) {
        Service service = desired(run);
        java.util.Map<String, String> selector =
                new java.util.LinkedHashMap<>(service.getSpec().getSelector());
        selector.put(VerificationPod.GATE_KEY, VerificationPod.GATE_CLOSED);
        service.getSpec().setSelector(selector);
        return service;
    }

    /** Whether this Service is the closed one. */
    public static boolean isClosed(Service service) {
        return service.getSpec() != null
                && service.getSpec().getSelector() != null
                && service.getSpec().getSelector().containsKey(VerificationPod.GATE_KEY);
    }

    /** The target's API base URL as the runners see it. */
    public static String url(BenchmarkRun run) {
        return ServiceDesign.url(run, RunLabels.targetName(run), TargetDeployment.HTTP_PORT);
    }
}
