package dev.stackbench.operator.objects;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.BenchmarkRunDefaults;
import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.run.ResourcesSpec;
import dev.stackbench.k6.K6Env;
import dev.stackbench.operator.ExampleRuns;
import dev.stackbench.operator.OperatorSettings;
import dev.stackbench.operator.RunLabels;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class K6TestRunTest {

    @Test
    void aStepOfASweepHasATestRunAndAScriptOfItsOwnAtItsLevel() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        run.getSpec().getWorkload().getLoad().setRate(null);
        run.getSpec().getWorkload().setSweep(List.of(10, 20));

        BenchmarkRun step = RunLabels.forStep(run, 2, dev.stackbench.lifecycle.SteppedLoad.specFor(run.getSpec(), 20));
        GenericKubernetesResource testRun = new K6TestRun(ExampleRuns.settings()).desired(step);
        ConfigMap script = new K6ScriptConfigMap().desired(step, null);
        ConfigMap runsOwn = new K6ScriptConfigMap().desired(run, null);

        assertThat(testRun.getMetadata().getName()).isEqualTo("webflux-r2dbc-s2");
        assertThat(testRun.getMetadata().getLabels())
                .containsEntry(RunLabels.RUN, "webflux-r2dbc")
                .containsEntry(RunLabels.STEP, "2");
        assertThat(spec(testRun))
                .containsEntry(
                        "script", Map.of("configMap", Map.of("name", "webflux-r2dbc-s2-script", "file", "test.js")));
        assertThat(script.getMetadata().getName()).isEqualTo("webflux-r2dbc-s2-script");
        assertThat(script.getMetadata().getLabels()).containsEntry(RunLabels.STEP, "2");
        assertThat(script.getData().get(K6ScriptConfigMap.SCRIPT_KEY)).contains("\"rate\" : 20");
        assertThat(runsOwn.getMetadata().getName()).isEqualTo("webflux-r2dbc-k6-script");
        assertThat(runsOwn.getData())
                .as("the run's own ConfigMap keeps the spec; the steps have the scripts")
                .containsOnlyKeys(K6ScriptConfigMap.SPEC_KEY);
        // A step is created once the target is Ready and the step before it is done: no readiness gate (the run's
        // policies open no health endpoint to its runners), paused until k6-operator's starter, as always.
        assertThat(ReadinessGate.applies(step)).isFalse();
        assertThat(map(spec(testRun).get("runner"))).doesNotContainKey("initContainers");
        assertThat(spec(testRun)).doesNotContainKey("paused");
        assertThat(script.getData()).doesNotContainKey(ReadinessGate.SCRIPT_KEY);
        assertThat(RunLabels.testRunName(run))
                .as("the run itself keeps its names")
                .isEqualTo("webflux-r2dbc-k6");
        assertThat(run.getSpec().getWorkload().getSweep())
                .as("the run's spec stays whole")
                .containsExactly(10, 20);
    }

    @Test
    void runsParallelismRunnersOfTheScriptOnTheLoadgenPoolWithoutCleanup() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        run.getSpec().getWorkload().setParallelism(2);

        GenericKubernetesResource testRun = new K6TestRun(ExampleRuns.settings()).desired(run);

        assertThat(testRun.getApiVersion()).isEqualTo("k6.io/v1alpha1");
        assertThat(testRun.getKind()).isEqualTo("TestRun");
        assertThat(testRun.getMetadata().getName()).isEqualTo("webflux-r2dbc-k6");
        assertThat(testRun.getMetadata().getOwnerReferences())
                .singleElement()
                .satisfies(owner -> assertThat(owner.getName()).isEqualTo("webflux-r2dbc"));
        Map<String, Object> spec = spec(testRun);
        assertThat(spec)
                .doesNotContainKey("cleanup")
                .containsEntry("parallelism", 2)
                .containsEntry("separate", false)
                .containsEntry(
                        "script", Map.of("configMap", Map.of("name", "webflux-r2dbc-k6-script", "file", "test.js")));
        Map<String, Object> runner = map(spec.get("runner"));
        assertThat(runner.get("nodeSelector")).isEqualTo(Map.of("stackbench.dev/pool", "loadgen"));
        assertThat(runner.get("tolerations"))
                .isEqualTo(List.of(Map.of(
                        "key",
                        "stackbench.dev/pool",
                        "operator",
                        "Equal",
                        "value",
                        "loadgen",
                        "effect",
                        "NoSchedule")));
        assertThat(runner.get("env"))
                .isEqualTo(List.of(
                        Map.of("name", K6Env.NO_USAGE_REPORT, "value", "true"),
                        Map.of("name", K6Env.BASE_URL, "value", "http://webflux-r2dbc-target.bench.svc:8080"),
                        Map.of("name", K6Env.VARIANT, "value", "webflux-r2dbc")));
        Map<String, Object> initializer = map(spec.get("initializer"));
        assertThat(initializer.get("nodeSelector"))
                .as("the initializer runs on the loadgen pool too")
                .isEqualTo(runner.get("nodeSelector"));
        assertThat(initializer.get("tolerations")).isEqualTo(runner.get("tolerations"));
        assertThat(map(map(runner.get("metadata")).get("labels")))
                .containsEntry("app.kubernetes.io/managed-by", "stackbench")
                .containsEntry("stackbench.dev/run", "webflux-r2dbc");
    }

    @Test
    void runsTheConfiguredImagesForRunnerInitializerAndStarterAndLeavesK6OperatorsDefaultsOtherwise() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        OperatorSettings defaults = ExampleRuns.settings();
        OperatorSettings local = new OperatorSettings(
                defaults.imageTag(),
                defaults.databaseImage(),
                defaults.defaultDatabaseSecret(),
                "stackbench/k6:v1.8.1",
                "stackbench/k6-starter:v1.6.0",
                defaults.pollInterval(),
                defaults.targetReadyLimit());

        Map<String, Object> spec = spec(new K6TestRun(local).desired(run));
        assertThat(map(spec.get("runner"))).containsEntry("image", "stackbench/k6:v1.8.1");
        assertThat(map(spec.get("initializer"))).containsEntry("image", "stackbench/k6:v1.8.1");
        assertThat(map(spec.get("starter"))).containsEntry("image", "stackbench/k6-starter:v1.6.0");

        // The runner's image also prints its k6 version, in an init container sized like the runner (Guaranteed QoS).
        assertThat(map(spec.get("runner")).get("initContainers"))
                .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.LIST)
                .hasSize(2)
                .first()
                .satisfies(init -> {
                    Map<String, Object> container = map(init);
                    assertThat(container)
                            .containsEntry("name", "k6-version")
                            .containsEntry("image", "stackbench/k6:v1.8.1")
                            .containsEntry("command", List.of("k6", "version"));
                    assertThat(container.get("resources"))
                            .isEqualTo(map(spec.get("runner")).get("resources"));
                });
        assertThat(K6TestRun.printedVersion("k6 v1.8.1 (commit/devel, go1.24.4, linux/amd64)\n"))
                .contains("k6 v1.8.1 (commit/devel, go1.24.4, linux/amd64)");
        assertThat(K6TestRun.printedVersion("")).isEmpty();

        Map<String, Object> unset = spec(new K6TestRun(defaults).desired(run));
        assertThat(map(unset.get("runner"))).doesNotContainKey("image");
        // The readiness gate alone, with k6-operator's own runner image.
        assertThat(map(unset.get("runner")).get("initContainers"))
                .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.LIST)
                .singleElement()
                .satisfies(init -> assertThat(map(init))
                        .containsEntry("name", ReadinessGate.CONTAINER)
                        .containsEntry("image", "grafana/k6:latest"));
        assertThat(map(unset.get("initializer"))).doesNotContainKey("image");
        assertThat(map(unset.get("starter"))).doesNotContainKey("image");
    }

    @Test
    void eachRunnerWaitsInItsReadinessGateForTheTargetAndTheDelayServiceAndTheScriptNeedsNoInitializer() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();

        Map<String, Object> spec = spec(new K6TestRun(ExampleRuns.settings()).desired(run));
        Map<String, Object> runner = map(spec.get("runner"));
        Map<String, Object> gate = map(((List<?>) runner.get("initContainers")).getLast());

        assertThat(gate)
                .containsEntry("name", ReadinessGate.CONTAINER)
                .containsEntry(
                        "command",
                        List.of(
                                "k6",
                                "run",
                                "--quiet",
                                "--no-summary",
                                "--log-output=none",
                                "/test/readiness-gate.js"));
        assertThat(gate.get("resources")).isEqualTo(runner.get("resources"));
        assertThat(gate.get("env"))
                .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.LIST)
                .contains(
                        Map.of("name", "K6_NO_USAGE_REPORT", "value", "true"),
                        Map.of(
                                "name",
                                "STACKBENCH_READY_URLS",
                                "value",
                                "http://webflux-r2dbc-target.bench.svc:" + TargetDeployment.MANAGEMENT_PORT
                                        + "/actuator/health http://webflux-r2dbc-delay.bench.svc:"
                                        + DelayServiceDeployment.MANAGEMENT_PORT + "/actuator/health"),
                        // The operator's readiness limit, the verification's and a minute more, so the operator's own
                        // failure comes first.
                        Map.of(
                                "name",
                                "STACKBENCH_READY_SECONDS",
                                "value",
                                Long.toString(ReadinessGate.readyLimit(run, ExampleRuns.settings())
                                                .toSeconds()
                                        + VerificationPod.LIMIT.toSeconds()
                                        + 60)));
        assertThat(map(spec.get("initializer"))).containsEntry("disabled", true);
        // One runner starts unpaused behind its gate; several wait for k6-operator's starter, which releases them
        // together.
        assertThat(spec).containsEntry("paused", "false");
        run.getSpec().getWorkload().setParallelism(2);
        assertThat(spec(new K6TestRun(ExampleRuns.settings()).desired(run))).doesNotContainKey("paused");
        run.getSpec().getWorkload().setParallelism(1);
        assertThat(new K6ScriptConfigMap().desired(run, null).getData())
                .containsEntry(ReadinessGate.SCRIPT_KEY, ReadinessGate.SCRIPT);
        // The gate asks the health endpoints through the Services, which route to the pods before their probe passes.
        assertThat(new TargetService().desired(run).getSpec().getPublishNotReadyAddresses())
                .isTrue();
        assertThat(new DelayServiceService().desired(run).getSpec().getPublishNotReadyAddresses())
                .isTrue();

        // A user's module keeps k6-operator's initializer, which checks it before any runner starts.
        run.getSpec().getWorkload().setScenario(dev.stackbench.api.run.Scenario.CUSTOM);
        assertThat(map(spec(new K6TestRun(ExampleRuns.settings()).desired(run)).get("initializer")))
                .doesNotContainKey("disabled");
        // Several target replicas: a Service answering does not mean all are Ready, so no gate and no early start.
        run.getSpec().getWorkload().setScenario(dev.stackbench.api.run.Scenario.UPSTREAM);
        run.getSpec().getTarget().setReplicas(2);
        assertThat(ReadinessGate.applies(run)).isFalse();
        assertThat(map(spec(new K6TestRun(ExampleRuns.settings()).desired(run)).get("runner")))
                .doesNotContainKey("initContainers");
        assertThat(new K6ScriptConfigMap().desired(run, null).getData()).doesNotContainKey(ReadinessGate.SCRIPT_KEY);
        // Nor may a replica get load before it is Ready.
        assertThat(new TargetService().desired(run).getSpec().getPublishNotReadyAddresses())
                .isFalse();
        assertThat(new DelayServiceService().desired(run).getSpec().getPublishNotReadyAddresses())
                .isFalse();
    }

    @Test
    void probesTheRunnersWithRoomForASlowAnswerUnderLoad() {
        Map<String, Object> runner = map(spec(new K6TestRun(ExampleRuns.settings()).desired(ExampleRuns.webfluxR2dbc()))
                .get("runner"));
        for (String probe : List.of("livenessProbe", "readinessProbe")) {
            assertThat(map(runner.get(probe)))
                    .as(probe)
                    .containsEntry("httpGet", Map.of("path", "/v1/status", "port", 6565))
                    .containsEntry("timeoutSeconds", 5);
        }
        // Liveness: a minute of failed answers before the kubelet kills a runner.
        assertThat(map(runner.get("livenessProbe")))
                .containsEntry("periodSeconds", 10)
                .containsEntry("failureThreshold", 6);
        // Readiness gates k6-operator's start through the runner's Service: probed every second, so the load starts
        // about a second after k6 listens rather than at the next of 10 s probes; a minute of failures unreadies it.
        assertThat(map(runner.get("readinessProbe")))
                .containsEntry("periodSeconds", 1)
                .containsEntry("failureThreshold", 60);
    }

    @Test
    void everyPodK6OperatorCreatesMeetsPodSecurityRestricted() {
        Map<String, Object> spec = spec(new K6TestRun(ExampleRuns.settings()).desired(ExampleRuns.webfluxR2dbc()));
        for (String pod : List.of("runner", "initializer", "starter")) {
            assertThat(map(map(spec.get(pod)).get("securityContext")))
                    .as(pod)
                    .containsEntry("runAsNonRoot", true)
                    .containsEntry("seccompProfile", Map.of("type", "RuntimeDefault"));
            assertThat(map(map(spec.get(pod)).get("containerSecurityContext")))
                    .as(pod)
                    .containsEntry("allowPrivilegeEscalation", false)
                    .containsEntry("capabilities", Map.of("drop", List.of("ALL")));
            // k6 and the starter's curl call no Kubernetes API: no service-account token (a string in the CRD).
            assertThat(map(spec.get(pod))).as(pod).containsEntry("automountServiceAccountToken", "false");
        }
    }

    @Test
    void givesEveryRunnerItsResourcesAsRequestsAndLimits() {
        BenchmarkRun defaulted = ExampleRuns.webfluxR2dbc();
        BenchmarkRun sized = ExampleRuns.webfluxR2dbc();
        sized.getSpec()
                .getWorkload()
                .setRunnerResources(new ResourcesSpec().withCpu("3").withMemory("4Gi"));

        K6TestRun testRuns = new K6TestRun(ExampleRuns.settings());
        Map<String, Object> defaults =
                map(map(spec(testRuns.desired(defaulted)).get("runner")).get("resources"));
        Map<String, Object> given =
                map(map(spec(testRuns.desired(sized)).get("runner")).get("resources"));

        Map<String, String> defaultSize =
                Map.of("cpu", BenchmarkRunDefaults.CPU, "memory", BenchmarkRunDefaults.MEMORY);
        assertThat(defaults).isEqualTo(Map.of("requests", defaultSize, "limits", defaultSize));
        Map<String, String> size = Map.of("cpu", "3", "memory", "4Gi");
        assertThat(given).isEqualTo(Map.of("requests", size, "limits", size));
    }

    @Test
    void scriptConfigMapHoldsTheGeneratedScriptAndTheSpecTheRunStartedWith() throws Exception {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();

        ConfigMap configMap = new K6ScriptConfigMap().desired(run, null);

        assertThat(configMap.getMetadata().getName()).isEqualTo("webflux-r2dbc-k6-script");
        assertThat(configMap.getData().get("test.js"))
                .contains("export const options", "handleSummary", K6Env.BASE_URL);
        BenchmarkRunSpec recorded =
                BenchmarkRuns.yamlMapper().readValue(configMap.getData().get("spec.yaml"), BenchmarkRunSpec.class);
        assertThat(BenchmarkRuns.toYaml(recorded)).isEqualTo(BenchmarkRuns.toYaml(run.getSpec()));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource resource) {
        return (Map<String, Object>) resource.getAdditionalProperties().get("spec");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }
}
