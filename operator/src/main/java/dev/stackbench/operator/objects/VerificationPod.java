package dev.stackbench.operator.objects;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.Scenario;
import dev.stackbench.k6.K6Env;
import dev.stackbench.k6.K6ScriptGenerator;
import dev.stackbench.model.SpringApp;
import dev.stackbench.operator.OperatorSettings;
import dev.stackbench.operator.RunLabels;
import dev.stackbench.verification.VerificationLoad;
import dev.stackbench.verification.WorkQueries;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pod that verifies a run's work per request before its load, on the run's load-generator pool. Its init container
 * ({@value #COPY_K6}) copies k6 out of the k6 image; its one container ({@value #RUN_STEPS}), of the database image
 * (psql and a shell), then runs the four steps one after the other ({@link VerificationSteps}), each answer in its log
 * for the operator. One container for the four steps: each container of a pod costs about a second of the kubelet's
 * sequencing. The operator creates the pod as soon as the target and delay-service pods have addresses, while their
 * JVMs still start, so the copy is done and the first step waits for the target by the time it answers.
 *
 * <ol>
 *   <li>{@value VerificationSteps#WARMUP}: k6 waits until the target's and the delay service's health endpoints
 *       answer 200 (its setup), then sends {@link VerificationLoad#WARMUP_ITERATIONS} uncounted iterations
 *       (connections open, classes load);
 *   <li>{@value VerificationSteps#RESET}: psql creates pg_stat_statements in the run's database and resets its
 *       counters;
 *   <li>{@value VerificationSteps#COUNTED}: k6 reads the delay service's call counter on every delay-service pod (its
 *       setup), sends {@link VerificationLoad#COUNTED_ITERATIONS} iterations with the run's own script (every response
 *       checked), reads the counters again (its teardown) and prints its summary;
 *   <li>{@value VerificationSteps#STATEMENTS}: psql prints the statements and rows the target's role ran, then removes
 *       the orders the requests wrote and resets the counters, so the load starts from the state the target started
 *       with.
 * </ol>
 *
 * <p>It talks to the target pod and the delay-service pods by address: the target's Service lets nothing through
 * until the verdict where the runners wait behind their gate ({@link ReadinessGate}). Its CPU is not reserved (the
 * runners may hold the pool's CPUs already): it measures counts, never time.
 */
public final class VerificationPod {

    /** The init container that copies k6 for the steps, and the container that runs them. */
    public static final String COPY_K6 = "copy-k6";

    public static final String RUN_STEPS = "steps";

    /**
     * The lines the counted pass prints before and after its iterations: the marker, then the sum of the delay
     * service's call counter over every delay-service pod.
     */
    public static final String CALLS_BEFORE = "STACKBENCH_UPSTREAM_CALLS_BEFORE";

    public static final String CALLS_AFTER = "STACKBENCH_UPSTREAM_CALLS_AFTER";

    static final String WARMUP_SCRIPT = "warmup.js";
    static final String COUNTED_SCRIPT = "counted.js";
    static final String STEPS_SCRIPT = "steps.sh";
    static final String RESET_SQL = "reset.sql";
    static final String STATEMENTS_SQL = "statements.sql";
    static final String SCRIPTS = "/verify";
    static final String K6_DIR = "/stackbench-k6";

    /** The k6 binary takes some 100 MB; the copy is on the node's disk, not in memory. */
    static final String K6_DIR_SIZE = "512Mi";

    static final String URLS_ENV = "STACKBENCH_DELAY_METRICS_URLS";
    static final String HEALTH_URLS_ENV = "STACKBENCH_HEALTH_URLS";
    static final String HEALTH_SECONDS_ENV = "STACKBENCH_HEALTH_SECONDS";

    /**
     * The addresses the pod was made for ("target delay1,delay2"): a target or delay-service pod replaced before the
     * verdict has another address, and the pod is made again for it.
     */
    public static final String ADDRESSES_ANNOTATION = "stackbench.dev/verified-addresses";

    static final String MEMORY = "256Mi";

    /**
     * The longest the verification may take once its pod started (the kubelet stops it after): seconds of requests,
     * each a few seconds at most, the rest the starts of k6 and psql.
     */
    public static final Duration LIMIT = Duration.ofMinutes(3);

    /**
     * Added to the counted pass's script: its setup and teardown (which the generated script leaves free) sum
     * {@value WorkQueries#UPSTREAM_CALLS_METRIC} over every URL's Prometheus page and print it. A page that does not
     * answer 200 or lacks the counter aborts k6 (exit code 108), and so the verification, naming it. Their requests
     * are outside the scenarios, so the load's own counts do not see them.
     */
    static final String CALLS_HOOKS =
            """

            function stackbenchUpstreamCalls() {
              let total = 0;
              for (const url of __ENV.%1$s.split(' ')) {
                const page = stackbenchCounterHttp.get(url, { timeout: '10s' });
                if (page.status !== 200) {
                  stackbenchCounterExec.test.abort('the delay service at ' + url + ' answered ' + page.status);
                }
                let found = false;
                for (const line of page.body.split('\\n')) {
                  if (line.startsWith('%2$s')) {
                    total += Number(line.substring(line.lastIndexOf(' ') + 1));
                    found = true;
                  }
                }
                if (!found) {
                  stackbenchCounterExec.test.abort('the delay service at ' + url + ' shows no %2$s');
                }
              }
              return total;
            }

            export function setup() {
              console.log('%3$s ' + stackbenchUpstreamCalls());
            }

            export function teardown() {
              console.log('%4$s ' + stackbenchUpstreamCalls());
            }
            """.formatted(URLS_ENV, WorkQueries.UPSTREAM_CALLS_METRIC, CALLS_BEFORE, CALLS_AFTER);

    /** The modules the hooks use, under names of their own (import declarations go first). */
    static final String CALLS_IMPORTS =
            "import stackbenchCounterHttp from 'k6/http';\nimport stackbenchCounterExec from 'k6/execution';\n";

    /**
     * Added to the warmup's script: its setup asks every health URL every 200 ms (each request times out after 2 s)
     * until all answer 200, or aborts k6 (exit code 108) naming them once the seconds passed. The pod is made before the
     * JVMs answer; the warmup's iterations follow the first answer.
     */
    static final String HEALTH_HOOKS = """

            export function setup() {
              const urls = __ENV.%1$s.split(' ');
              const deadline = Date.now() + Number(__ENV.%2$s) * 1000;
              while (!urls.every((url) => stackbenchCounterHttp.get(url, { timeout: '2s' }).status === 200)) {
                if (Date.now() > deadline) {
                  stackbenchCounterExec.test.abort('not healthy within ' + __ENV.%2$s + ' s: ' + urls.join(', '));
                }
                stackbenchHealthSleep(0.2);
              }
            }
            """.formatted(HEALTH_URLS_ENV, HEALTH_SECONDS_ENV);

    static final String HEALTH_IMPORTS = CALLS_IMPORTS + "import { sleep as stackbenchHealthSleep } from 'k6';\n";

    /** The operator's environment variable (chart value verification.enabled); anything but "false" verifies. */
    public static final String ENABLED_ENV = "STACKBENCH_VERIFY_WORK";

    /** A JVM property that overrides {@link #ENABLED_ENV}, for an operator started inside another program. */
    public static final String ENABLED_PROPERTY = "stackbench.verifyWork";

    /** A selector key no target pod carries: the target's Service lets nothing through while it is set. */
    static final String GATE_KEY = "stackbench.dev/verification";

    static final String GATE_CLOSED = "pending";

    private final OperatorSettings settings;

    /** Whether the operator's environment leaves verification on (the default). */
    public static boolean enabledFromEnvironment() {
        String value = System.getProperty(ENABLED_PROPERTY, System.getenv(ENABLED_ENV));
        return !"false".equalsIgnoreCase(value == null ? "" : value.strip());
    }

    /**
     * Whether the run is verified before its load: verification on, and the run's own database (an external one
     * serves others too, and may lack pg_stat_statements).
     */
    public static boolean applies(BenchmarkRun run, boolean enabled) {
        return enabled && RunDatabase.ownDatabase(run);
    }

    /**
     * Whether the target's Service holds the load back until the verdict: where the runners start early and wait in
     * their gate ({@link ReadinessGate}) for the target's health endpoint through that Service. Elsewhere the load is
     * created after the verdict.
     */
    public static boolean gatesTheLoad(BenchmarkRun run, boolean enabled) {
        return applies(run, enabled) && ReadinessGate.applies(run);
    }

    public VerificationPod(OperatorSettings settings) {
        this.settings = settings;
    }

    public static String name(BenchmarkRun run) {
        return run.getMetadata().getName() + "-verify";
    }

    /**
     * The scripts: the run's scenario and request parameters as {@link VerificationLoad} shapes them, checking every
     * response; a custom scenario's module beside them.
     */
    public ConfigMap scripts(BenchmarkRun run, String customModule) {
        K6ScriptGenerator generator = K6ScriptGenerator.checkingEveryResponse();
        String custom = run.getSpec().getWorkload().getScenario() == Scenario.CUSTOM
                ? "./" + K6ScriptConfigMap.CUSTOM_MODULE_KEY
                : null;
        Map<String, String> data = new LinkedHashMap<>();
        data.put(
                WARMUP_SCRIPT,
                HEALTH_IMPORTS
                        + generator
                                .generate(
                                        VerificationLoad.spec(run.getSpec(), VerificationLoad.WARMUP_ITERATIONS),
                                        custom)
                                .text()
                        + HEALTH_HOOKS);
        data.put(
                COUNTED_SCRIPT,
                CALLS_IMPORTS
                        + generator
                                .generate(
                                        VerificationLoad.spec(run.getSpec(), VerificationLoad.COUNTED_ITERATIONS),
                                        custom)
                                .text()
                        + CALLS_HOOKS);
        data.put(RESET_SQL, VerificationSteps.sql(WorkQueries.CREATE_EXTENSION, WorkQueries.RESET_COUNTERS));
        data.put(
                STATEMENTS_SQL,
                VerificationSteps.sql(
                        WorkQueries.statementsOf(RunDatabase.USER, RunDatabase.DATABASE),
                        WorkQueries.RESET_ORDERS,
                        WorkQueries.RESET_COUNTERS));
        data.put(STEPS_SCRIPT, VerificationSteps.script());
        if (customModule != null) {
            data.put(K6ScriptConfigMap.CUSTOM_MODULE_KEY, customModule);
        }
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name(run))
                .withNamespace(run.getMetadata().getNamespace())
                .withLabels(RunLabels.forRole(run, RunLabels.ROLE_VERIFICATION))
                .withOwnerReferences(RunLabels.ownerReference(run))
                .endMetadata()
                .withData(data)
                .build();
    }

    /**
     * The pod, sending to the target at {@code targetAddress} and reading the call counters of the delay-service pods
     * at {@code delayAddresses}; its warmup waits up to {@code healthWait} for them to answer.
     */
    public Pod desired(BenchmarkRun run, String targetAddress, List<String> delayAddresses, Duration healthWait) {
        String baseUrl = "http://" + targetAddress + ":" + TargetDeployment.HTTP_PORT;
        String metricsUrls = String.join(
                " ",
                delayAddresses.stream()
                        .map(address -> "http://" + address + ":" + DelayServiceDeployment.MANAGEMENT_PORT
                                + SpringApp.PROMETHEUS_PATH)
                        .toList());
        List<String> healthUrls = new ArrayList<>();
        healthUrls.add("http://" + targetAddress + ":" + TargetDeployment.MANAGEMENT_PORT + SpringApp.HEALTH_PATH);
        delayAddresses.forEach(address -> healthUrls.add(
                "http://" + address + ":" + DelayServiceDeployment.MANAGEMENT_PORT + SpringApp.HEALTH_PATH));
        List<EnvVar> env = new ArrayList<>(List.of(
                env(K6Env.BASE_URL, baseUrl),
                env(K6Env.NO_USAGE_REPORT, "true"),
                env(URLS_ENV, metricsUrls),
                env(HEALTH_URLS_ENV, String.join(" ", healthUrls)),
                env(HEALTH_SECONDS_ENV, Long.toString(healthWait.toSeconds())),
                // k6 gives its setup 60 s unless told: the warmup's wait may be longer.
                env("K6_SETUP_TIMEOUT", (healthWait.toSeconds() + 10) + "s"),
                env("PGHOST", RunDatabase.host(run)),
                env("PGPORT", Integer.toString(RunDatabase.PORT)),
                env("PGUSER", RunDatabase.USER),
                env("PGDATABASE", RunDatabase.DATABASE),
                env("PGCONNECT_TIMEOUT", "10"),
                env("HOME", RestrictedPods.TMP),
                env(VerificationSteps.K6_ENV, K6_DIR + "/k6")));
        env.add(RunDatabase.password(run, "PGPASSWORD"));
        Container steps = new ContainerBuilder()
                .withName(RUN_STEPS)
                .withImage(settings.databaseImage())
                .withCommand("sh", SCRIPTS + "/" + STEPS_SCRIPT)
                .withWorkingDir(SCRIPTS)
                .withEnv(env)
                .withSecurityContext(RestrictedPods.container())
                .withResources(resources())
                .addToVolumeMounts(RestrictedPods.mount("scripts", SCRIPTS))
                .addToVolumeMounts(RestrictedPods.mount("k6", K6_DIR))
                .addToVolumeMounts(RestrictedPods.mount("tmp", RestrictedPods.TMP))
                .build();
        Container copy = new ContainerBuilder()
                .withName(COPY_K6)
                .withImage(settings.k6Image() != null ? settings.k6Image() : ReadinessGate.K6_OPERATOR_DEFAULT_IMAGE)
                // The kubelet turns $$ into $ (it expands $(NAME) in a command).
                .withCommand("sh", "-c", "exec cp \"$$(command -v k6)\" " + K6_DIR + "/k6")
                .withSecurityContext(RestrictedPods.container())
                .withResources(resources())
                .addToVolumeMounts(RestrictedPods.mount("k6", K6_DIR))
                .build();
        var placement = Placements.loadgen(run.getSpec());
        return new PodBuilder()
                .withNewMetadata()
                .withName(name(run))
                .withNamespace(run.getMetadata().getNamespace())
                .withLabels(RunLabels.forRole(run, RunLabels.ROLE_VERIFICATION))
                .withOwnerReferences(RunLabels.ownerReference(run))
                .withAnnotations(Map.of(ADDRESSES_ANNOTATION, addresses(targetAddress, delayAddresses)))
                .endMetadata()
                .withNewSpec()
                .withRestartPolicy("Never")
                .withNodeSelector(placement.getNodeSelector())
                .withTolerations(placement.getTolerations())
                .withEnableServiceLinks(false)
                .withAutomountServiceAccountToken(false)
                .withTerminationGracePeriodSeconds(1L)
                .withActiveDeadlineSeconds(healthWait.plus(LIMIT).toSeconds())
                .withSecurityContext(new PodSecurityContextBuilder(RestrictedPods.pod())
                        .withRunAsUser(RunDatabase.RUN_AS_USER)
                        .withRunAsGroup(RunDatabase.RUN_AS_USER)
                        .build())
                .withInitContainers(copy)
                .withContainers(steps)
                .addNewVolume()
                .withName("scripts")
                .withNewConfigMap()
                .withName(name(run))
                .endConfigMap()
                .endVolume()
                .addToVolumes(RestrictedPods.scratch("k6", K6_DIR_SIZE, false))
                .addToVolumes(RestrictedPods.scratch("tmp", "64Mi", false))
                .endSpec()
                .build();
    }

    /** The value of {@link #ADDRESSES_ANNOTATION} for these addresses. */
    public static String addresses(String targetAddress, List<String> delayAddresses) {
        return targetAddress + " " + String.join(",", delayAddresses);
    }

    /** Memory bounded; no CPU reserved, so the pod fits beside runners that hold the pool's CPUs. */
    private static io.fabric8.kubernetes.api.model.ResourceRequirements resources() {
        Map<String, Quantity> memory = Map.of("memory", new Quantity(MEMORY));
        return new ResourceRequirementsBuilder()
                .withRequests(memory)
                .withLimits(memory)
                .build();
    }

    private static EnvVar env(String name, String value) {
        return new EnvVarBuilder().withName(name).withValue(value).build();
    }
}
