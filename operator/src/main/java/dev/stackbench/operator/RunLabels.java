package dev.stackbench.operator;

import dev.stackbench.api.run.BenchmarkRun;
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
    /**
     * The step of a sweep or a capacity search an object belongs to (1 for the first): on its script ConfigMap, its
     * TestRun and the runners' pods. On the step's view of the run ({@link #forStep}) it is an annotation that gives
     * the step's own names to the TestRun and the script.
     */
    public static final String STEP = "stackbench.dev/step";
    /** Label selector of every object the operator manages, for its informers. */
    public static final String MANAGED_SELECTOR = MANAGED_BY + "=" + MANAGED_BY_VALUE;

    public static final String ROLE_TARGET = "target";
    public static final String ROLE_DELAY_SERVICE = "delay-service";
    public static final String ROLE_LOADGEN = "loadgen";
    public static final String ROLE_DATABASE = "database";
    /** The pod that verifies the target's work per request before the load, and its scripts. */
    public static final String ROLE_VERIFICATION = "verification";

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

    /**
     * Labels of the objects of one role of the run; also the pod selector of that role. The objects of one step of a
     * stepped run also carry its number.
     */
    public static Map<String, String> forRole(BenchmarkRun run, String role) {
        Map<String, String> labels = forRun(run);
        labels.put(ROLE, role);
        labels.put(NAME, "stackbench-" + role);
        labels.put(INSTANCE, run.getMetadata().getName());
        step(run).ifPresent(step -> labels.put(STEP, Integer.toString(step)));
        return labels;
    }

    /**
     * One step of a sweep or a capacity search seen as a run of its own: the same run (name, uid, status) with the
     * step's spec, marked with the step's number so that its TestRun and script get names of their own ({@code
     * <run>-s<step>}, {@code <run>-s<step>-script}). The run's target, delay service and database keep theirs.
     */
    public static BenchmarkRun forStep(BenchmarkRun run, int step, dev.stackbench.api.run.BenchmarkRunSpec stepSpec) {
        BenchmarkRun view = new BenchmarkRun();
        view.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder(run.getMetadata()).build());
        Map<String, String> annotations = new LinkedHashMap<>();
        if (run.getMetadata().getAnnotations() != null) {
            annotations.putAll(run.getMetadata().getAnnotations());
        }
        annotations.put(STEP, Integer.toString(step));
        view.getMetadata().setAnnotations(annotations);
        view.setSpec(stepSpec);
        view.setStatus(run.getStatus());
        return view;
    }

    /** The step a view of the run ({@link #forStep}) stands for; empty for the run itself. */
    public static java.util.Optional<Integer> step(BenchmarkRun run) {
        Map<String, String> annotations = run.getMetadata().getAnnotations();
        String step = annotations == null ? null : annotations.get(STEP);
        return step == null ? java.util.Optional.empty() : java.util.Optional.of(Integer.valueOf(step));
    }

    /** The TestRun of a step of the run. */
    public static String stepTestRunName(BenchmarkRun run, int step) {
        return run.getMetadata().getName() + "-s" + step;
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

    /** The run's script and started spec; for a step's view, the step's script. */
    public static String scriptConfigMapName(BenchmarkRun run) {
        return step(run)
                .map(step -> stepTestRunName(run, step) + "-script")
                .orElseGet(() -> run.getMetadata().getName() + "-k6-script");
    }

    /** The run's TestRun; for a step's view, the step's. */
    public static String testRunName(BenchmarkRun run) {
        return step(run)
                .map(step -> stepTestRunName(run, step))
                .orElseGet(() -> run.getMetadata().getName() + "-k6");
    }
}
