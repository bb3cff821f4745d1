package dev.stackbench.operator;

import dev.stackbench.api.BenchmarkRun;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Labels, names and owner references of everything the operator creates for a run. The managed-by label scopes the
 * operator's informers; the run label maps an object back to its BenchmarkRun.
 */
public final class RunLabels {

    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    public static final String MANAGED_BY_VALUE = "stackbench";
    public static final String RUN = "stackbench.dev/run";
    public static final String ROLE = "stackbench.dev/role";
    public static final String NAME = "app.kubernetes.io/name";
    public static final String INSTANCE = "app.kubernetes.io/instance";
    /** Label selector of every object the operator manages, for its informers. */
    public static final String MANAGED_SELECTOR = MANAGED_BY + "=" + MANAGED_BY_VALUE;

    public static final String ROLE_TARGET = "target";
    public static final String ROLE_DELAY_SERVICE = "delay-service";
    public static final String ROLE_LOADGEN = "loadgen";
    public static final String ROLE_DATABASE = "database";

    /** k6-operator's labels on runner pods. */
    public static final String K6_APP = "app";

    public static final String K6_APP_VALUE = "k6";
    public static final String K6_TEST_RUN = "k6_cr";
    public static final String K6_RUNNER = "runner";

    private RunLabels() {}

    /** Labels of every object of the run. */
    public static Map<String, String> forRun(BenchmarkRun run) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(MANAGED_BY, MANAGED_BY_VALUE);
        labels.put(RUN, run.getMetadata().getName());
        return labels;
    }

    /** Labels of the objects of one role of the run; also the pod selector of that role. */
    public static Map<String, String> forRole(BenchmarkRun run, String role) {
        Map<String, String> labels = forRun(run);
        labels.put(ROLE, role);
        labels.put(NAME, "stackbench-" + role);
        labels.put(INSTANCE, run.getMetadata().getName());
        return labels;
    }

    /** Selector of a role's pods (stable across spec changes, so Deployments can be updated in place). */
    public static Map<String, String> selector(BenchmarkRun run, String role) {
        return Map.of(RUN, run.getMetadata().getName(), ROLE, role);
    }

    /** Labels k6-operator puts on the runner pods of a TestRun. */
    public static Map<String, String> runnerPods(String testRunName) {
        return Map.of(K6_APP, K6_APP_VALUE, K6_TEST_RUN, testRunName, K6_RUNNER, "true");
    }

    /** Makes the run own the object, so deleting the run deletes it (garbage collection). */
    public static OwnerReference ownerReference(BenchmarkRun run) {
        return new OwnerReferenceBuilder()
                .withApiVersion(BenchmarkRun.API_VERSION)
                .withKind(BenchmarkRun.KIND)
                .withName(run.getMetadata().getName())
                .withUid(run.getMetadata().getUid())
                .withController(true)
                .build();
    }

    public static String targetName(BenchmarkRun run) {
        return run.getMetadata().getName() + "-target";
    }

    public static String delayServiceName(BenchmarkRun run) {
        return run.getMetadata().getName() + "-delay";
    }

    public static String scriptConfigMapName(BenchmarkRun run) {
        return run.getMetadata().getName() + "-k6-script";
    }

    public static String testRunName(BenchmarkRun run) {
        return run.getMetadata().getName() + "-k6";
    }
}
