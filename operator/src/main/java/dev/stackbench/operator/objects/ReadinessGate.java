package dev.stackbench.operator.objects;

import dev.stackbench.api.Durations;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.BenchmarkRunDefaults;
import dev.stackbench.k6.K6Env;
import dev.stackbench.model.SpringApp;
import dev.stackbench.operator.OperatorSettings;
import dev.stackbench.operator.RunLabels;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The early start of a run's load: its TestRun is created with the target rather than after it is Ready, so that
 * k6-operator prepares the runners (their Jobs, pods, k6 processes) while the target's JVM starts. Each runner pod
 * holds its k6 back with one more init container, which asks the target's and the delay service's health endpoints
 * (through their Services, on their management ports) until both answer 200; only then does the runner start, and
 * k6-operator's starter releases every runner at once as before. The load's figures do not change: it starts at a
 * Ready target, its runners released together, and its window is taken from the runners' own clocks.
 *
 * <p>Only where a Service answering means the whole of it is Ready: one target replica and one delay-service
 * replica, and one load (a sweep or capacity search creates each step's TestRun when the step before it is done).
 * Elsewhere the operator creates the TestRun once it has seen every replica Ready, as before.
 */
public final class ReadinessGate {

    /** The init container's name in each runner pod. */
    public static final String CONTAINER = "wait-for-target";
    /** The gate's k6 script, a key of the run's script ConfigMap (mounted at /test in every runner container). */
    public static final String SCRIPT_KEY = "readiness-gate.js";
    /** Marks a TestRun created before the target was Ready: its creation says nothing about the target's readiness. */
    public static final String EARLY_ANNOTATION = "stackbench.dev/created-before-target-ready";

    static final String URLS_ENV = "STACKBENCH_READY_URLS";
    static final String SECONDS_ENV = "STACKBENCH_READY_SECONDS";
    /** How long the gate waits beyond the operator's readiness limit, so the operator's clearer failure comes first. */
    static final Duration MARGIN = Duration.ofSeconds(60);
    /** k6-operator's runner image when the TestRun names none. */
    static final String K6_OPERATOR_DEFAULT_IMAGE = "grafana/k6:latest";

    /**
     * One iteration of one VU that asks every URL every 200 ms until all answer 200 (each request times out after
     * 2 s), or aborts the test once the deadline passed: k6 then exits non-zero, the runner pod fails, and the run
     * with it, unless the operator already failed it for a target that was not Ready in time.
     */
    static final String SCRIPT = """
            import http from 'k6/http';
            import { sleep } from 'k6';
            import exec from 'k6/execution';

            const urls = __ENV.%1$s.split(' ');
            const seconds = Number(__ENV.%2$s);

            export const options = {
              scenarios: {
                gate: { executor: 'shared-iterations', vus: 1, iterations: 1, maxDuration: (seconds + 10) + 's' },
              },
            };

            export default function () {
              const deadline = Date.now() + seconds * 1000;
              while (Date.now() < deadline) {
                if (urls.every((url) => http.get(url, { timeout: '2s' }).status === 200)) {
                  return;
                }
                sleep(0.2);
              }
              exec.test.abort('not Ready within ' + seconds + ' s: ' + urls.join(', '));
            }
            """.formatted(URLS_ENV, SECONDS_ENV);

    private ReadinessGate() {}

    /** Whether the run's load starts early, its runners gated on the target's readiness. */
    public static boolean applies(BenchmarkRun run) {
        var spec = run.getSpec();
        Integer delayReplicas = spec.getBackend() == null || spec.getBackend().getDelayService() == null
                ? null
                : spec.getBackend().getDelayService().getReplicas();
        // A step's view of a sweep or capacity search ({@link RunLabels#forStep}) carries one load of its own: it is
        // still a step, created once the step before it is done, and the run's policies have no gate rules.
        return RunLabels.step(run).isEmpty()
                && !spec.getWorkload().isStepped()
                && Objects.requireNonNullElse(spec.getTarget().getReplicas(), BenchmarkRunDefaults.REPLICAS) == 1
                && Objects.requireNonNullElse(delayReplicas, BenchmarkRunDefaults.REPLICAS) == 1;
    }

    /**
     * Whether the run's one runner starts its k6 unpaused (TestRun {@code spec.paused: "false"}): behind the gate, its
     * load begins the moment the target answers, without waiting for k6-operator's starter pod. Several runners stay
     * paused, so that the starter releases them together.
     */
    public static boolean startsUnpaused(BenchmarkRun run) {
        return applies(run)
                && Objects.requireNonNullElse(run.getSpec().getWorkload().getParallelism(), 1) == 1;
    }

    /** Whether this TestRun's runners start unpaused. */
    public static boolean unpaused(GenericKubernetesResource testRun) {
        return testRun != null && "false".equals(testRun.get("spec", "paused"));
    }

    /** Whether this TestRun was created before the target was Ready (by the early start). */
    public static boolean createdEarly(GenericKubernetesResource testRun) {
        return testRun != null
                && testRun.getMetadata().getAnnotations() != null
                && "true".equals(testRun.getMetadata().getAnnotations().get(EARLY_ANNOTATION));
    }

    /**
     * The longest the target may take to become Ready: the operator's limit, at most half the run's timeout (the
     * operator fails the run after it).
     */
    public static Duration readyLimit(BenchmarkRun run, OperatorSettings settings) {
        Duration half = Durations.parse(run.getSpec().getTimeout()).dividedBy(2);
        return half.compareTo(settings.targetReadyLimit()) < 0 ? half : settings.targetReadyLimit();
    }

    /** The health endpoints the gate waits for, as the runners reach them. */
    static List<String> urls(BenchmarkRun run) {
        return List.of(
                ServiceDesign.url(run, RunLabels.targetName(run), TargetDeployment.MANAGEMENT_PORT)
                        + SpringApp.HEALTH_PATH,
                ServiceDesign.url(run, RunLabels.delayServiceName(run), DelayServiceDeployment.MANAGEMENT_PORT)
                        + SpringApp.HEALTH_PATH);
    }

    /**
     * The init container of each runner (k6-operator mounts the script ConfigMap at /test in it), sized like the
     * runner so the pod stays Guaranteed.
     */
    static Map<String, Object> initContainer(
            BenchmarkRun run, OperatorSettings settings, Map<String, String> resources) {
        // The verification of the work (VerificationPod) comes between the target's readiness and the gate's opening.
        long seconds = readyLimit(run, settings)
                .plus(MARGIN)
                .plus(VerificationPod.LIMIT)
                .toSeconds();
        return Map.of(
                "name",
                CONTAINER,
                "image",
                settings.k6Image() != null ? settings.k6Image() : K6_OPERATOR_DEFAULT_IMAGE,
                "command",
                List.of("k6", "run", "--quiet", "--no-summary", "--log-output=none", "/test/" + SCRIPT_KEY),
                "env",
                List.of(
                        Map.of("name", K6Env.NO_USAGE_REPORT, "value", "true"),
                        Map.of("name", URLS_ENV, "value", String.join(" ", urls(run))),
                        Map.of("name", SECONDS_ENV, "value", Long.toString(seconds))),
                "resources",
                Map.of("requests", resources, "limits", resources));
    }
}
