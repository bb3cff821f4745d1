package dev.stackbench.operator.objects;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.PoolPlacement;
import dev.stackbench.api.run.ResourcesSpec;
import dev.stackbench.api.run.Scenario;
import dev.stackbench.k6.K6Env;
import dev.stackbench.operator.OperatorSettings;
import dev.stackbench.operator.RunLabels;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The k6-operator TestRun (k6.io/v1alpha1) that drives the load: parallelism runners on the loadgen pool, each
 * with spec.workload.runnerResources as requests and limits, running its execution segment of the generated script
 * against the target's Service. No {@code cleanup: post}:
 * k6-operator would delete the TestRun, and with it the runners whose logs hold the results, before they are read.
 */
public final class K6TestRun {

    public static final String API_VERSION = "k6.io/v1alpha1";
    public static final String KIND = "TestRun";
    public static final ResourceDefinitionContext CONTEXT = new ResourceDefinitionContext.Builder()
            .withGroup("k6.io")
            .withVersion("v1alpha1")
            .withKind(KIND)
            .withPlural("testruns")
            .withNamespaced(true)
            .build();

    /** The port of k6's REST API in a runner pod (k6-operator starts k6 with --address 0.0.0.0:6565). */
    static final int K6_API_PORT = 6565;

    /**
     * The init container of each runner that prints the version of the k6 in the runner's image ({@code k6 version}),
     * for the run's manifest; the runner's own log holds only the results.
     */
    public static final String VERSION_CONTAINER = "k6-version";

    /**
     * "true" when the runners' k6 has stackbench's per-second output (the chart's stackbench/k6 image; chart value
     * k6.perSecondOutput): each runner then prints its per-second counts at the end of its log ({@code --out
     * stackbench=-}), which the run keeps after cleanup. A k6 without the output would refuse the option.
     */
    public static final String PER_SECOND_ENV = "STACKBENCH_K6_PER_SECOND";

    private final OperatorSettings settings;
    private final Optional<K6RemoteWrite> remoteWrite;
    private final boolean perSecond;

    public K6TestRun(OperatorSettings settings) {
        this(settings, K6RemoteWrite.fromEnvironment(), perSecondFromEnvironment());
    }

    /** Whether the runners' k6 has stackbench's output, as the operator's environment says ({@link #PER_SECOND_ENV}). */
    static boolean perSecondFromEnvironment() {
        return "true".equalsIgnoreCase(System.getenv(PER_SECOND_ENV));
    }

    K6TestRun(OperatorSettings settings, Optional<K6RemoteWrite> remoteWrite) {
        this(settings, remoteWrite, false);
    }

    K6TestRun(OperatorSettings settings, Optional<K6RemoteWrite> remoteWrite, boolean perSecond) {
        this.settings = settings;
        this.remoteWrite = remoteWrite;
        this.perSecond = perSecond;
    }

    public GenericKubernetesResource desired(BenchmarkRun run) {
        PoolPlacement placement = Placements.loadgen(run.getSpec());
        Map<String, Object> runner = new LinkedHashMap<>();
        if (settings.k6Image() != null) {
            runner.put("image", settings.k6Image());
        }
        runner.put("metadata", Map.of("labels", RunLabels.forRole(run, RunLabels.ROLE_LOADGEN)));
        ResourcesSpec resources = run.getSpec().getWorkload().getRunnerResources();
        Map<String, String> limits = Map.of("cpu", resources.getCpu(), "memory", resources.getMemory());
        runner.put("resources", Map.of("requests", limits, "limits", limits));
        List<Map<String, Object>> initContainers = new ArrayList<>();
        if (settings.k6Image() != null) {
            // Sized like the runner, so the pod stays Guaranteed; it ends before the runner starts.
            initContainers.add(Map.of(
                    "name",
                    VERSION_CONTAINER,
                    "image",
                    settings.k6Image(),
                    "command",
                    List.of("k6", "version"),
                    "resources",
                    Map.of("requests", limits, "limits", limits)));
        }
        if (ReadinessGate.applies(run)) {
            initContainers.add(ReadinessGate.initContainer(run, settings, limits));
        }
        if (!initContainers.isEmpty()) {
            runner.put("initContainers", initContainers);
        }
        runner.put("nodeSelector", placement.getNodeSelector());
        runner.put("tolerations", placement.getTolerations());
        restricted(runner);
        // k6 reads its script from a ConfigMap volume and talks to no API: no service-account token in its pods.
        runner.put("automountServiceAccountToken", "false");
        // k6-operator probes each runner's REST API with Kubernetes' default 1 s timeout; a k6 busy sending load can
        // take longer to answer, and a failed liveness probe kills the load generator in the middle of the run.
        runner.put("livenessProbe", statusProbe(10, 6));
        // k6-operator starts the load through each runner's Service, which routes only to a Ready pod: probed every
        // 10 s, a runner listening a second after its start waited up to 10 s more for its next probe, and the run
        // with it. Probed every second, it costs k6 one status answer a second; a minute of failures unreadies it.
        runner.put("readinessProbe", statusProbe(1, 60));
        List<Map<String, String>> env = new ArrayList<>(List.of(
                // Without it k6 looks up stats.grafana.org to report its usage: nothing may leave the run.
                Map.of("name", K6Env.NO_USAGE_REPORT, "value", "true"),
                Map.of("name", K6Env.BASE_URL, "value", TargetService.url(run)),
                Map.of("name", K6Env.VARIANT, "value", run.getSpec().getTarget().getVariant())));
        remoteWrite.ifPresent(receiver -> env.addAll(List.of(
                Map.of("name", "K6_PROMETHEUS_RW_SERVER_URL", "value", receiver.url()),
                // Request durations as native histograms: percentiles over all runners, not per runner.
                Map.of("name", "K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM", "value", "true"),
                Map.of("name", "K6_PROMETHEUS_RW_PUSH_INTERVAL", "value", "5s"),
                // The series end when the runner ends, instead of lingering for 5 minutes.
                Map.of("name", "K6_PROMETHEUS_RW_STALE_MARKERS", "value", "true"))));
        runner.put("env", env);

        // k6-operator's initializer pod (k6 archive + inspect of the script) takes its placement and image from
        // spec.initializer, not from the runner: without them it would need an untainted node and the public image.
        Map<String, Object> initializer = new LinkedHashMap<>();
        if (settings.k6Image() != null) {
            initializer.put("image", settings.k6Image());
        }
        initializer.put("nodeSelector", placement.getNodeSelector());
        initializer.put("tolerations", placement.getTolerations());
        restricted(initializer);
        initializer.put("automountServiceAccountToken", "false");
        // The generated script needs no initializer (k6 archive + inspect, a pod of its own before the runners): the
        // generator's tests run k6 inspect on the script of every valid spec. A user's module (scenario custom) is
        // still checked by it before any runner starts.
        if (run.getSpec().getWorkload().getScenario() != Scenario.CUSTOM) {
            initializer.put("disabled", true);
        }

        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("parallelism", run.getSpec().getWorkload().getParallelism());
        if (ReadinessGate.startsUnpaused(run)) {
            spec.put("paused", "false");
        }
        spec.put("separate", false);
        spec.put(
                "arguments",
                "--tag stackbench_run=" + run.getMetadata().getName()
                        + (perSecond ? " --out stackbench=-" : "")
                        + remoteWrite
                                .map(receiver -> " --out experimental-prometheus-rw")
                                .orElse(""));
        spec.put(
                "script",
                Map.of(
                        "configMap",
                        Map.of("name", RunLabels.scriptConfigMapName(run), "file", K6ScriptConfigMap.SCRIPT_KEY)));
        spec.put("runner", runner);
        spec.put("initializer", initializer);
        // The starter un-pauses the runners with `sh -c "curl ..."`; k6-operator's default is a public image.
        Map<String, Object> starter = new LinkedHashMap<>();
        if (settings.k6StarterImage() != null) {
            starter.put("image", settings.k6StarterImage());
        }
        restricted(starter);
        starter.put("automountServiceAccountToken", "false");
        spec.put("starter", starter);

        return new GenericKubernetesResourceBuilder()
                .withApiVersion(API_VERSION)
                .withKind(KIND)
                .withNewMetadata()
                .withName(RunLabels.testRunName(run))
                .withNamespace(run.getMetadata().getNamespace())
                .withLabels(RunLabels.forRole(run, RunLabels.ROLE_LOADGEN))
                .withOwnerReferences(RunLabels.ownerReference(run))
                .endMetadata()
                // Through JSON so tolerations become plain maps, as the generic resource holds them.
                .addToAdditionalProperties("spec", Serialization.unmarshal(Serialization.asJson(spec), Map.class))
                .build();
    }

    /** GET /v1/status on k6's REST API, as k6-operator probes it, with room for a slow answer under load. */
    private static Map<String, Object> statusProbe(int periodSeconds, int failureThreshold) {
        return Map.of(
                "httpGet",
                Map.of("path", "/v1/status", "port", K6_API_PORT),
                "periodSeconds",
                periodSeconds,
                "timeoutSeconds",
                5,
                "failureThreshold",
                failureThreshold);
    }

    /** Pod Security "restricted" for one of the pods k6-operator creates (it copies these fields as they are). */
    private static void restricted(Map<String, Object> pod) {
        pod.put("securityContext", RestrictedPods.podAsMap());
        pod.put("containerSecurityContext", RestrictedPods.containerAsMap());
    }

    /** The TestRun's status.stage, null before k6-operator wrote one. */
    public static String stage(GenericKubernetesResource testRun) {
        Object status =
                testRun == null ? null : testRun.getAdditionalProperties().get("status");
        if (status instanceof Map<?, ?> map && map.get("stage") instanceof String stage) {
            return stage;
        }
        return null;
    }

    /**
     * The first line `k6 version` printed, e.g. "k6 v1.8.1 (commit/devel, go1.24.4, linux/amd64)". Public for the
     * run's environment record.
     */
    public static java.util.Optional<String> printedVersion(String log) {
        if (log == null) {
            return java.util.Optional.empty();
        }
        return log.lines()
                .map(String::trim)
                .filter(line -> line.startsWith("k6 v"))
                .findFirst();
    }
}
