package dev.stackbench.chart;

import static dev.stackbench.chart.RealNodesRelease.sleep;
import static dev.stackbench.chart.RealNodesRelease.variantRun;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.Durations;
import dev.stackbench.api.comparison.BenchmarkComparison;
import dev.stackbench.api.comparison.BenchmarkComparisonStatus;
import dev.stackbench.api.comparison.ComparisonPhase;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.CapacityLimit;
import dev.stackbench.api.status.Conditions;
import dev.stackbench.api.status.LiveLoad;
import dev.stackbench.api.status.Phase;
import dev.stackbench.api.status.PodResources;
import dev.stackbench.api.status.StepOutcome;
import dev.stackbench.api.status.VerificationResult;
import dev.stackbench.operator.RunLabels;
import dev.stackbench.operator.StackbenchOperator;
import dev.stackbench.operator.objects.K6TestRun;
import dev.stackbench.testcluster.CommandResult;
import dev.stackbench.testcluster.MachineTurn;
import dev.stackbench.testcluster.TestCluster;
import dev.stackbench.verification.VerificationLoad;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The whole cluster path on real pods: the test cluster with real nodes (kubelets, containerd, runc, CNI bridge,
 * kube-proxy, CoreDNS), the images as built, the chart installed with helm together with the real k6-operator, and
 * BenchmarkRuns applied with kubectl. No stand-in anywhere. The release namespace enforces Pod Security
 * "restricted", so every pod the chart, the operator and k6-operator create must meet it.
 *
 * <p>Figures this class measures (cold start of the nodes, orchestration overhead, the operator's memory, the
 * demo pair's results) are written to target/e2e/real-nodes.properties, never asserted beyond what defines
 * success (rates that follow the offered load or the Little's-law cap).
 *
 * <p>Needs root (a bridge, network namespaces, cgroups): elsewhere it is skipped, except under CI, where a skip
 * would hide that the cluster path was never run.
 */
@Order(4)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RealNodesE2E {

    private static final String NAMESPACE = RealNodesRelease.NAMESPACE;
    private static final String RELEASE = RealNodesRelease.RELEASE;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(8);
    /** The shared database of hack/cluster/postgresql.yaml, for runs that name it as external. */
    private static final String SHARED_DATABASE = "stackbench-postgresql";

    private final Map<String, String> measured = new LinkedHashMap<>();
    private Path root;
    private RealNodesRelease release;
    private TestCluster cluster;
    private OfflineChart chart;
    private String bridgeAddressAtStart;
    /** Held from the first test whose figures are judged until the cluster is gone or handed over. */
    private MachineTurn quiet;

    @BeforeAll
    void start() {
        release = RealNodesRelease.install(getClass().getSimpleName(), measured);
        root = release.root();
        cluster = release.cluster();
        chart = release.chart();
        bridgeAddressAtStart = bridgeAddress();
        deployDatabase();
    }

    @AfterAll
    void stop() throws IOException {
        try {
            handOverOrStopTheCluster();
        } finally {
            if (quiet != null) {
                quiet.close();
            }
            if (release != null) {
                release.releaseTurn();
            }
        }
    }

    /**
     * Waits until no test class of the other test JVM works the machine, once: from here on this class has it quiet,
     * since its figures are judged (rates against the offered load and the Little's-law cap, a generator that kept up,
     * the demo comparison's shape and verdict). The tests before it judge what happened (phases, conditions, pods,
     * databases, steps), not how fast, and run beside the other JVM's tests of the same kind.
     */
    private void measureOnAQuietMachine() {
        if (quiet == null) {
            Instant asked = Instant.now();
            quiet = MachineTurn.quiet(getClass().getSimpleName());
            measured.put("quietAfterSeconds", seconds(asked));
        }
    }

    private void handOverOrStopTheCluster() throws IOException {
        if (release != null) {
            // In the suite MonitoringE2E comes next and upgrades this release; alone, the cluster stops here.
            release.handOver("cluster-logs");
        }
        if (!measured.isEmpty() && root != null) {
            Path file = root.resolve("operator/target/e2e/real-nodes.properties");
            Files.createDirectories(file.getParent());
            StringBuilder text = new StringBuilder("# measured by RealNodesE2E; load average at the end: "
                    + Files.readString(Path.of("/proc/loadavg")).trim() + "\n");
            measured.forEach(
                    (key, value) -> text.append(key).append('=').append(value).append('\n'));
            Files.writeString(file, text);
            System.err.print(text);
        }
    }

    @Test
    @Order(1)
    void helmTestPassesAndEveryChartPodRunsOnTheSystemNode() {
        CommandResult test =
                chart.helm("test", RELEASE, "--kubeconfig", cluster.kubeconfig().toString(), "--namespace", NAMESPACE);
        assertThat(test.succeeded()).as(test.describe()).isTrue();
        assertThat(test.stdout()).containsPattern("Phase:\\s+Succeeded");
        List<Pod> pods = client().pods().inNamespace(NAMESPACE).list().getItems();
        assertThat(pods)
                .filteredOn(p -> !p.getMetadata().getName().startsWith("stackbench-postgresql"))
                .isNotEmpty()
                .allSatisfy(p -> assertThat(p.getSpec().getNodeName()).isEqualTo(TestCluster.SYSTEM_NODE));
        measured.put("operator.memoryBytes", Long.toString(operatorMemoryBytes()));
    }

    @Test
    @Order(8)
    void theExampleRunSucceedsOnRealPodsInItsPoolsWithItsCpuLimitInTheCgroup() {
        measureOnAQuietMachine();
        Path example = root.resolve("examples/webflux-r2dbc.yaml");
        BenchmarkRun declared = BenchmarkRuns.readOne(example);
        // Kept once it ends, so that its pods and NetworkPolicies can be checked; deleted at the end of this test.
        // `kubectl get benchmarkruns -w` as a user watches it: the live progress while load runs.
        Path watch = root.resolve("operator/target/e2e/example-watch.txt");
        Process watching;
        try {
            Files.createDirectories(watch.getParent());
            watching = cluster.kubectlInBackground(watch, "get", "benchmarkruns", "-n", NAMESPACE, "-w");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start kubectl get benchmarkruns -w", e);
        }
        Observed observed;
        try {
            observed = measure(keptAfterItEnds(example), "webflux-r2dbc");
        } finally {
            watching.destroy();
        }
        try {
            checkTheExampleRun(declared, observed);
            checkTheLiveProgress(observed, watch);
            Instant probing = Instant.now();
            theRunsPodsReachOnlyWhatItsNetworkPoliciesAllow("webflux-r2dbc");
            measured.put("networkPolicy.checkSeconds", seconds(probing));
        } finally {
            cluster.kubectl("delete", "benchmarkrun", "-n", NAMESPACE, "webflux-r2dbc", "--wait=true", "--timeout=2m")
                    .requireSuccess();
        }
    }

    /**
     * While the load ran, status.live grew with k6's counts (read from the runners' REST API) and `kubectl get -w`
     * showed them in the LIVE column; the last reading is no more than the requests the summary counted overall.
     */
    private void checkTheLiveProgress(Observed observed, Path watch) {
        List<LiveLoad> live = observed.live();
        assertThat(live).as("status.live while the load ran").isNotEmpty();
        assertThat(live).extracting(LiveLoad::getRequests).isSorted();
        assertThat(live.getLast().getRequests()).isPositive();
        assertThat(live)
                .anySatisfy(reading ->
                        assertThat(reading.getRequestsPerSecond()).isNotNull().isPositive());
        assertThat(live.getLast().getRunnersRead()).isEqualTo("1/1");
        assertThat(observed.last().getStatus().getLive())
                .as("status.live once the run ended")
                .isNull();
        String transcript;
        try {
            transcript = Files.readString(watch);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(transcript.lines())
                .as("kubectl get benchmarkruns -w")
                .anyMatch(line -> line.contains("Running") && line.matches(".* [0-9]+ req, [0-9.]+/s, .*"));
        measured.put("example.liveReadings", String.valueOf(live.size()));
    }

    private void checkTheExampleRun(BenchmarkRun declared, Observed observed) {
        Instant applied = observed.appliedAt();

        BenchmarkRun run = observed.last();
        assertThat(run.getStatus().getPhase()).as(describe(run)).isEqualTo(Phase.Succeeded);
        Duration loadTime = Durations.parse(declared.getSpec().getWorkload().getWarmup())
                .plus(Durations.parse(declared.getSpec().getWorkload().getDuration()));
        measured.put(
                "example.overheadSeconds",
                String.format(
                        Locale.ROOT,
                        "%.1f",
                        Duration.between(applied, observed.succeededAt())
                                        .minus(loadTime)
                                        .toMillis()
                                / 1000.0));

        assertThat(observed.nodesByRole())
                .containsEntry("target", Set.of(TestCluster.TARGET_NODE))
                .containsEntry("delay-service", Set.of(TestCluster.BACKEND_NODE))
                .containsEntry("runner", Set.of(TestCluster.LOADGEN_NODES.get(0)))
                // The generated script needs no k6-operator initializer.
                .doesNotContainKey("initializer");
        // cpu: "1" is a CFS quota of one period per period, in the pod's cgroup on the target node.
        assertThat(observed.targetCpuQuota())
                .as("cpu.cfs_quota_us/cpu.cfs_period_us")
                .isEqualTo("100000/100000");

        // The target's node told the run how much of its machine the hypervisor took (the target's own meter of
        // /proc/stat, scraped with its other figures).
        assertThat(run.getStatus().getSummary().getHostSteal())
                .as("summary.hostSteal from the target's scrapes: %s", describe(run))
                .isNotNull()
                .isBetween(0.0, 1.0);
        measured.put("example.hostSteal", percent(run.getStatus().getSummary().getHostSteal()));
        // Where the overhead went, in seconds after the run's creation (its status.timeline): recorded, not judged.
        measured.put(
                "example.timeline",
                Optional.ofNullable(run.getStatus().getTimeline()).orElse(List.of()).stream()
                        .filter(entry -> entry.getSeconds() != null
                                && List.of(
                                                "Accepted",
                                                "TargetReady",
                                                "WorkVerified",
                                                "LoadRunning",
                                                "LoadFinished",
                                                "RunSucceeded")
                                        .contains(entry.getWhat()))
                        .map(entry -> String.format(Locale.ROOT, "%s %.1f", entry.getWhat(), entry.getSeconds()))
                        .distinct()
                        .toList()
                        .toString());

        // Before the load, the verification pod counted the target's work on the run's own PostgreSQL and delay
        // service.
        VerificationResult verification = run.getStatus().getVerification();
        assertThat(verification).as(describe(run)).isNotNull();
        measured.put("example.verification", verification.getVerdict() + ": " + verification.getMessage());
        assertThat(verification.getVerdict()).as(describe(run)).isEqualTo(VerificationResult.SAME_WORK);
        assertThat(verification.getRequests()).isEqualTo((long) VerificationLoad.COUNTED_ITERATIONS);
        assertThat(verification.getMeasured().getStatements())
                .isEqualTo(verification.getExpected().getStatements());
        assertThat(verification.getMeasured().getUpstreamCalls())
                .isEqualTo(verification.getExpected().getUpstreamCalls());
        assertThat(verification.getStatements()).isNotEmpty();
        if (verification.getVerifiedBy() == null) {
            // Its own pod counted: the pod's moments are in the timeline, taken from the pod, whatever became of
            // the notes of the passes.
            assertThat(run.getStatus().getTimeline())
                    .extracting(dev.stackbench.api.status.TimelineEntry::getWhat)
                    .as(describe(run))
                    .contains("verification pod created", "verification pod started", "verification pod finished");
        }

        var summary = run.getStatus().getSummary();
        assertThat(summary.getRps()).isBetween(27.0, 33.0);
        assertThat(summary.getErrorRate()).isZero();
        assertThat(summary.getTarget().getPeakThreads()).isPositive();
        // CPU from the kubelets: every pod of the run, the target's throttling, and a generator that kept up.
        assertThat(summary.getPods())
                .as("status.summary.pods")
                .extracting(PodResources::getRole)
                .contains("target", "delay-service", "database", "runner");
        assertThat(summary.getPods()).allSatisfy(pod -> {
            assertThat(pod.getAvgCpuCores()).as(pod.getPod()).isPositive();
            assertThat(pod.getCpuLimitCores()).as(pod.getPod()).isPositive();
            assertThat(pod.getCpuThrottledRatio()).as(pod.getPod()).isBetween(0.0, 1.0);
            assertThat(pod.getSampledSeconds()).as(pod.getPod()).isPositive();
        });
        assertThat(summary.getTarget().getCpuThrottledRatio()).isBetween(0.0, 1.0);
        assertThat(run.getStatus().getConditions())
                .filteredOn(c -> c.getType().equals(Conditions.GENERATOR_SATURATED))
                .singleElement()
                .satisfies(c -> assertThat(c.getStatus()).as(c.getMessage()).isEqualTo("False"));
        // The manifest: what ran (digests), how (QoS), where (nodes), and by which operator.
        var environment = run.getStatus().getEnvironment();
        assertThat(environment.getImageDigests())
                .containsKeys("target", "delay-service", "database", "runner")
                .allSatisfy((role, digest) -> assertThat(digest).as(role).contains("sha256:"));
        assertThat(environment.getQosClasses())
                .containsEntry("target", "Guaranteed")
                .containsEntry("database", "Guaranteed")
                .containsEntry("delay-service", "Guaranteed");
        // The run had a database of its own, and the manifest names the server that ran.
        assertThat(environment.getDatabase()).isEqualTo("own");
        assertThat(environment.getK6Version()).startsWith("k6 v");
        assertThat(environment.getQosClasses()).containsEntry("runner", "Guaranteed");
        assertThat(environment.getPostgresVersion()).startsWith("15.");
        assertThat(observed.nodesByRole()).containsEntry("database", Set.of(TestCluster.BACKEND_NODE));
        assertThat(environment.getNodes()).anySatisfy(node -> {
            assertThat(node.getName()).isEqualTo(TestCluster.TARGET_NODE);
            assertThat(node.getRoles()).containsExactly("target");
            assertThat(node.getCpuAllocatable()).isEqualTo("1");
            assertThat(node.getKernelVersion()).isNotBlank();
            assertThat(node.getContainerRuntime()).startsWith("containerd://");
        });
        assertThat(environment.getOperatorImage()).isNotBlank();
        writeStatus("example-status.yaml", run);
        summary.getPods()
                .forEach(pod -> measured.put(
                        "example.cpu." + pod.getRole(),
                        pod.getAvgCpuCores() + " cores, throttled " + pod.getCpuThrottledRatio() + " over "
                                + pod.getSampledSeconds() + " s"));

        CommandResult table =
                cluster.kubectl("get", "benchmarkruns", "-n", NAMESPACE).requireSuccess();
        List<String> lines = table.stdout().lines().toList();
        Map<String, String> row = columns(
                lines.get(0),
                lines.stream()
                        .filter(l -> l.startsWith("webflux-r2dbc "))
                        .findFirst()
                        .orElseThrow());
        assertThat(row).containsKeys("RPS", "P95(MS)", "ERRORS", "THREADS");
        assertThat(List.of(row.get("RPS"), row.get("P95(MS)"), row.get("ERRORS"), row.get("THREADS")))
                .as(table.stdout())
                .allSatisfy(value -> assertThat(value).isNotBlank().isNotEqualTo("<none>"));
        measured.put("example.rps", row.get("RPS"));
        measured.put("example.p95Ms", row.get("P95(MS)"));
        measured.put("example.threads", row.get("THREADS"));
        measured.put("example.kubectlGet", lines.get(0) + " | " + String.join(" ", row.values()));
    }

    /** What busybox's wget says when it could not open the connection (refused, or no answer). */
    private static final String NOT_CONNECTED = "can't connect|timed out";

    /** A copy of a run's file with {@code spec.cleanup: Never}, in the build's directory. */
    private Path keptAfterItEnds(Path file) {
        try {
            String yaml = Files.readString(file);
            assertThat(yaml).as(file + " sets spec.cleanup").contains("  cleanup: Always\n");
            Path kept = root.resolve("operator/target/e2e").resolve(file.getFileName());
            Files.createDirectories(kept.getParent());
            Files.writeString(kept, yaml.replace("  cleanup: Always\n", "  cleanup: Never\n"));
            return kept;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The run's NetworkPolicies, enforced by the cluster's kube-router: a pod that carries the labels of the run's k6
     * runners reaches the target but not the run's database, and a pod of another namespace does not reach the target.
     * Each probe is a busybox {@code wget} to a Service: "can't connect" or "timed out" is a refused or dropped
     * connection ({@link #NOT_CONNECTED}), anything else (an HTTP answer, or PostgreSQL closing a connection that spoke
     * HTTP to it) is a connection made.
     */
    private void theRunsPodsReachOnlyWhatItsNetworkPoliciesAllow(String run) {
        assertThat(client().network()
                        .networkPolicies()
                        .inNamespace(NAMESPACE)
                        .withLabel(RunLabels.RUN, run)
                        .list()
                        .getItems())
                .extracting(policy -> policy.getMetadata().getName())
                .containsExactlyInAnyOrder(
                        run + "-database",
                        run + "-target",
                        run + "-delay-service",
                        run + "-loadgen",
                        run + "-verification");
        // The run's results are read as soon as its k6 exited; the runner's pod keeps its node's CPU until the
        // kubelet has torn it down and marked it Succeeded, and a probe pod placed there before would be refused.
        cluster.kubectl(
                        "wait",
                        "--for=jsonpath={.status.phase}=Succeeded",
                        "--timeout=60s",
                        "-n",
                        NAMESPACE,
                        "pod",
                        "-l",
                        RunLabels.K6_TEST_RUN + "=" + run + "-k6," + RunLabels.K6_RUNNER + "=true")
                .requireSuccess();
        String other = "network-policy-probe";
        cluster.kubectl("create", "namespace", other).requireSuccess();
        try {
            // Only the labels the runners' policy selects by: the run's operator-made pods (managed-by) it is not.
            startProbe(
                    NAMESPACE,
                    "as-runner",
                    Map.of(RunLabels.RUN, run, RunLabels.ROLE, RunLabels.ROLE_LOADGEN),
                    TestCluster.LOADGEN_NODES.get(0));
            startProbe(other, "outsider", Map.of(), TestCluster.LOADGEN_NODES.get(0));
            String target = "http://" + run + "-target." + NAMESPACE + ".svc:8080/";
            String database = "http://" + run + "-db." + NAMESPACE + ".svc:5432/";
            String runnerToTarget = probe(NAMESPACE, "as-runner", target);
            String runnerToDatabase = probe(NAMESPACE, "as-runner", database);
            // The runners' readiness gate asks the target's health endpoint on its management port.
            String runnerToHealth = probe(
                    NAMESPACE,
                    "as-runner",
                    "http://" + run + "-target." + NAMESPACE + ".svc:"
                            + dev.stackbench.operator.objects.TargetDeployment.MANAGEMENT_PORT + "/actuator/health");
            String outsiderToTarget = probe(other, "outsider", target);
            measured.put("networkPolicy.runnerToTarget", runnerToTarget);
            measured.put("networkPolicy.runnerToDatabase", runnerToDatabase);
            measured.put("networkPolicy.otherNamespaceToTarget", outsiderToTarget);
            assertThat(runnerToTarget).as("a runner reaches the target").doesNotContainPattern(NOT_CONNECTED);
            assertThat(runnerToDatabase).as("a runner reaches the database").containsPattern(NOT_CONNECTED);
            measured.put("networkPolicy.runnerToTargetHealth", runnerToHealth);
            assertThat(runnerToHealth)
                    .as("a runner reaches the target's health endpoint")
                    .doesNotContainPattern(NOT_CONNECTED);
            assertThat(outsiderToTarget)
                    .as("a pod of another namespace reaches the target")
                    .containsPattern(NOT_CONNECTED);
        } finally {
            cluster.kubectl("delete", "pod", "-n", NAMESPACE, "as-runner", "--wait=false");
            cluster.kubectl("delete", "namespace", other, "--wait=false");
        }
    }

    /** A busybox pod that meets Pod Security "restricted", Ready once it sleeps. */
    private void startProbe(String namespace, String name, Map<String, String> labels, String node) {
        String busybox = cluster.nodeImage("busybox");
        StringBuilder labelLines = new StringBuilder();
        labels.forEach((key, value) ->
                labelLines.append("    ").append(key).append(": ").append(value).append('\n'));
        String manifest = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name + "\n  namespace: " + namespace
                + "\n" + (labels.isEmpty() ? "" : "  labels:\n" + labelLines)
                + "spec:\n"
                + "  automountServiceAccountToken: false\n"
                // sleep as PID 1 ignores SIGTERM: without this the deleted probe held its node's CPU for 30 s, and a
                // run after it waited for its runner to be scheduled.
                + "  terminationGracePeriodSeconds: 0\n"
                + "  nodeName: " + node + "\n"
                + "  tolerations: [{operator: Exists}]\n"
                + "  securityContext: {runAsNonRoot: true, runAsUser: 65532, seccompProfile: {type: RuntimeDefault}}\n"
                + "  containers:\n"
                + "  - name: probe\n"
                + "    image: " + busybox + "\n"
                + "    command: [sleep, \"600\"]\n"
                + "    resources: {limits: {cpu: 50m, memory: 16Mi}}\n"
                + "    securityContext: {allowPrivilegeEscalation: false, readOnlyRootFilesystem: true,"
                + " capabilities: {drop: [ALL]}}\n";
        cluster.kubectlWithInput(manifest, "apply", "-f", "-").requireSuccess();
        cluster.kubectl("wait", "--for=condition=Ready", "--timeout=60s", "-n", namespace, "pod/" + name)
                .requireSuccess();
    }

    /** What busybox's wget in the probe pod printed for one URL, with its exit code. */
    private String probe(String namespace, String pod, String url) {
        CommandResult result =
                cluster.kubectl("exec", "-n", namespace, pod, "--", "wget", "-q", "-O", "/dev/null", "-T", "5", url);
        return (result.stdout() + result.stderr()).trim().replaceAll("\\s+", " ") + " (exit " + result.exitCode() + ")";
    }

    @Test
    @Order(9)
    void theDemoComparisonRunsItsRepetitionsOneAfterAnotherAndGivesTheShapeAndVerdictOfLocalMode() throws Exception {
        measureOnAQuietMachine();
        // examples/comparison/demo.yaml with 3 repetitions of short windows, to fit the test's time: three runs of
        // each can only be significant above 90 % confidence (smallest two-sided p of 3 against 3 is 0.1), so the
        // verdict is asked at 85 %.
        ObjectNode comparison = (ObjectNode) BenchmarkRuns.yamlMapper()
                .readTree(root.resolve("examples/comparison/demo.yaml").toFile());
        ObjectNode spec = (ObjectNode) comparison.get("spec");
        spec.put("repetitions", 3).put("confidence", 0.85).put("seed", 11);
        ((ObjectNode) spec.at("/template/workload")).put("warmup", "3s").put("duration", "10s");
        Instant applied = Instant.now();
        BenchmarkComparison done;
        try (HostSteal steal = HostSteal.sample()) {
            apply(BenchmarkRuns.yamlMapper().writeValueAsString(comparison));
            done = awaitComparison("demo", Duration.ofMinutes(15));
            judgeTheDemoComparison(done, applied, steal);
        }
    }

    /**
     * The most of the machine's CPU time its host may take during a window whose rate is judged: the limit above which
     * the product itself doubts a local run's figures.
     */
    private static final double JUDGED_STEAL_LIMIT = dev.stackbench.results.HostSteal.LIMIT;

    /**
     * Records, not judges, where each repetition's time went, from its status.timeline: the operator's part before the
     * load (Accepted to LoadRunning) and after it (LoadFinished to PoolsReleased), and k6's run beyond the spec's
     * warmup and duration (the graceful stop an overloaded target's queued requests use, k6's own start and end).
     */
    private void recordWhereTheRepetitionsWent(List<BenchmarkRun> runs) {
        List<Double> operatorSeconds = new ArrayList<>();
        Instant first = null;
        Instant last = null;
        double load = 0;
        for (BenchmarkRun run : runs) {
            Map<String, Instant> at = new java.util.HashMap<>();
            for (var entry : Optional.ofNullable(run.getStatus().getTimeline()).orElse(List.of())) {
                if (entry.getWhat() != null && entry.getAt() != null) {
                    at.putIfAbsent(entry.getWhat(), Instant.parse(entry.getAt()));
                }
            }
            if (!at.keySet().containsAll(List.of("Accepted", "LoadRunning", "LoadFinished", "PoolsReleased"))) {
                measured.put("comparison." + run.getMetadata().getName() + ".seconds", "timeline incomplete: " + at);
                continue;
            }
            load = Durations.parse(run.getSpec().getWorkload().getWarmup())
                            .plus(Durations.parse(run.getSpec().getWorkload().getDuration()))
                            .toMillis()
                    / 1000.0;
            double before = seconds(at.get("Accepted"), at.get("LoadRunning"));
            double k6Beyond = seconds(at.get("LoadRunning"), at.get("LoadFinished")) - load;
            double after = seconds(at.get("LoadFinished"), at.get("PoolsReleased"));
            operatorSeconds.add(before + after);
            measured.put(
                    "comparison." + run.getMetadata().getName() + ".seconds",
                    String.format(
                            Locale.ROOT,
                            "before the load %.1f, k6 beyond its %.0f s %.1f, after it %.1f",
                            before,
                            load,
                            k6Beyond,
                            after));
            first = first == null || at.get("Accepted").isBefore(first) ? at.get("Accepted") : first;
            last = last == null || at.get("PoolsReleased").isAfter(last) ? at.get("PoolsReleased") : last;
        }
        if (first != null && operatorSeconds.size() == runs.size()) {
            measured.put(
                    "comparison.perRepetitionBeyondTheLoadSeconds",
                    String.format(Locale.ROOT, "%.1f", seconds(first, last) / runs.size() - load));
            measured.put(
                    "comparison.operatorSecondsPerRepetition",
                    String.format(
                            Locale.ROOT,
                            "%.1f (%s)",
                            operatorSeconds.stream()
                                    .mapToDouble(Double::doubleValue)
                                    .average()
                                    .orElseThrow(),
                            operatorSeconds.stream()
                                    .map(s -> String.format(Locale.ROOT, "%.1f", s))
                                    .toList()));
        }
    }

    /**
     * The runs as they are once each has released its pools (the comparison ends with its last run, before that run's
     * pods are gone), watching each at most 30 s; as it is then otherwise.
     */
    private List<BenchmarkRun> runsOnceTheirPodsAreGone(List<BenchmarkRun> runs) {
        Instant limit = Instant.now().plusSeconds(30);
        return runs.stream()
                .map(run -> {
                    var resource = client().resources(BenchmarkRun.class)
                            .inNamespace(NAMESPACE)
                            .withName(run.getMetadata().getName());
                    try {
                        return resource.waitUntilCondition(
                                current -> current != null
                                        && Optional.ofNullable(
                                                        current.getStatus().getTimeline())
                                                .orElse(List.of())
                                                .stream()
                                                .anyMatch(entry -> "PoolsReleased".equals(entry.getWhat())),
                                Math.max(
                                        1,
                                        Duration.between(Instant.now(), limit).toMillis()),
                                java.util.concurrent.TimeUnit.MILLISECONDS);
                    } catch (io.fabric8.kubernetes.client.KubernetesClientTimeoutException e) {
                        return Optional.ofNullable(resource.get()).orElse(run);
                    }
                })
                .toList();
    }

    private static double seconds(Instant from, Instant to) {
        return Duration.between(from, to).toMillis() / 1000.0;
    }

    private static String percent(double share) {
        return String.format(Locale.ROOT, "%.1f %%", share * 100);
    }

    private void judgeTheDemoComparison(BenchmarkComparison done, Instant applied, HostSteal steal) throws IOException {
        measured.put(
                "comparison.wallSeconds",
                Long.toString(Duration.between(applied, Instant.now()).toSeconds()));
        BenchmarkComparisonStatus status = done.getStatus();
        assertThat(status.getPhase()).as(BenchmarkRuns.toYaml(status)).isEqualTo(ComparisonPhase.Succeeded);
        assertThat(status.getProgress()).isEqualTo("6/6 runs");
        // While a repetition ran, the comparison showed its load so far, naming the run; nothing once it ended.
        assertThat(comparisonLive).anyMatch(text -> text.matches("demo-.*: [0-9]+ req, .*"));
        assertThat(status.getLive()).isNull();
        List<BenchmarkRun> runs = client()
                .resources(BenchmarkRun.class)
                .inNamespace(NAMESPACE)
                .withLabel("stackbench.dev/comparison", "demo")
                .list()
                .getItems()
                .stream()
                .sorted(java.util.Comparator.comparing(run -> run.getMetadata().getCreationTimestamp()))
                .toList();
        assertThat(runs).hasSize(6);
        // Little's law: 10 Tomcat threads each holding a request for the 300 ms upstream call serve 33.3 per second.
        double cap = 10 / 0.3;
        // Each variant's work is counted once, by its first repetition, or not at all when a run before the comparison
        // counted the same work on the same image; the later repetitions take that verdict.
        for (String variant : List.of("mvc-jdbc", "webflux-r2dbc")) {
            List<VerificationResult> verifications = runs.stream()
                    .filter(run -> variant.equals(run.getSpec().getTarget().getVariant()))
                    .map(run -> run.getStatus().getVerification())
                    .toList();
            assertThat(verifications).as(variant).hasSize(3).allSatisfy(verification -> assertThat(
                            verification.getVerdict())
                    .isEqualTo(VerificationResult.SAME_WORK));
            assertThat(verifications.subList(1, 3))
                    .as(variant + ": the later repetitions take a verdict counted before them")
                    .allSatisfy(verification ->
                            assertThat(verification.getVerifiedBy()).isNotNull());
            measured.put(
                    "comparison." + variant + ".verifiedBy",
                    verifications.stream()
                            .map(verification -> String.valueOf(verification.getVerifiedBy()))
                            .toList()
                            .toString());
        }
        recordWhereTheRepetitionsWent(runsOnceTheirPodsAreGone(runs));
        int judged = 0;
        for (BenchmarkRun run : runs) {
            assertThat(run.getStatus().getPhase()).as(describe(run)).isEqualTo(Phase.Succeeded);
            double rps = run.getStatus().getSummary().getRps();
            // The rate's bounds hold on CPUs that are the run's; a window in which the host took more than 5 % of the
            // machine is said here and not judged (the cluster's nodes are this machine's CPUs).
            Instant windowStart = Instant.parse(run.getStatus().getStartedAt()).plusSeconds(3);
            Optional<Double> stolen = steal.share(windowStart, windowStart.plusSeconds(10));
            measured.put(
                    "comparison." + run.getMetadata().getName() + ".hostSteal",
                    stolen.map(RealNodesE2E::percent).orElse("unknown"));
            // The run's own reading of the same machine's steal, from its target's scrapes over its window: the
            // comparison leaves the run out above the limit, as it leaves out a saturated generator.
            Double reported = run.getStatus().getSummary().getHostSteal();
            assertThat(reported)
                    .as("summary.hostSteal of %s", run.getMetadata().getName())
                    .isNotNull()
                    .isBetween(0.0, 1.0);
            measured.put("comparison." + run.getMetadata().getName() + ".reportedHostSteal", percent(reported));
            assertThat(run.getStatus().getSummary().getWarnings() != null
                            && run.getStatus().getSummary().getWarnings().stream()
                                    .anyMatch(warning -> warning.startsWith("the machine's host took ")))
                    .as(
                            "%s warns exactly when its reported steal is above the limit",
                            run.getMetadata().getName())
                    .isEqualTo(reported > dev.stackbench.results.HostSteal.LIMIT);
            if (stolen.isPresent() && stolen.get() > JUDGED_STEAL_LIMIT) {
                measured.put(
                        "comparison." + run.getMetadata().getName() + ".notJudged",
                        String.format(
                                Locale.ROOT,
                                "%.1f requests/s with %.1f %% of the machine's CPU time taken by its host",
                                rps,
                                stolen.get() * 100));
                record("comparison." + run.getMetadata().getName(), run);
                continue;
            }
            judged++;
            if ("mvc-jdbc".equals(run.getSpec().getTarget().getVariant())) {
                // At most the cap; a first repetition with a cold JIT and 10 s measured lands up to ~10 % below it.
                assertThat(rps)
                        .as("%s at or below the cap %.1f: %s", run.getMetadata().getName(), cap, describe(run))
                        .isBetween(cap * 0.8, cap * 1.05);
            } else {
                // Within 10 % of the offered 60/s, or above it only by the warmup's backlog answered inside the
                // window (a target slowed down by other work on the machine during its first seconds), which the
                // run then says.
                assertThat(rps)
                        .as("%s follows the offered 60/s: %s", run.getMetadata().getName(), describe(run))
                        .isGreaterThanOrEqualTo(54.0);
                if (rps > 66.0) {
                    assertThat(run.getStatus().getSummary().getWarnings())
                            .as(
                                    "%s above the offered 60/s: %s",
                                    run.getMetadata().getName(), describe(run))
                            .anyMatch(warning -> warning.contains("requests of the warmup were answered inside"));
                }
            }
            record("comparison." + run.getMetadata().getName(), run);
            checkIntendedStarts(run);
        }
        measured.put("comparison.judgedRuns", judged + " of " + runs.size());
        // One run at a time: each created after the one before it was cleaned up.
        for (int i = 1; i < runs.size(); i++) {
            Instant cleaned =
                    Instant.parse(Conditions.find(runs.get(i - 1).getStatus().getConditions(), "CleanedUp")
                            .orElseThrow()
                            .getLastTransitionTime());
            assertThat(Instant.parse(runs.get(i).getMetadata().getCreationTimestamp()))
                    .as(
                            "%s created after %s was cleaned up",
                            runs.get(i).getMetadata().getName(),
                            runs.get(i - 1).getMetadata().getName())
                    .isAfterOrEqualTo(cleaned);
        }
        var contender = status.getContenders().getFirst();
        assertThat(contender.getName()).isEqualTo("webflux-r2dbc");
        assertThat(contender.getMetrics())
                .filteredOn(shift -> List.of("rps", "p50", "p95").contains(shift.getMetric()))
                .hasSize(3)
                .allSatisfy(shift -> assertThat(shift.getVerdict()).isEqualTo("better"));
        assertThat(status.getVerdict()).startsWith("webflux-r2dbc rps +");
        CommandResult table =
                cluster.kubectl("get", "bc", "demo", "-n", NAMESPACE).requireSuccess();
        assertThat(table.stdout()).contains("BASELINE", "VERDICT", "mvc-jdbc", "6/6 runs", "Succeeded");
        measured.put("comparison.verdict", status.getVerdict());
        measured.put("comparison.kubectlGet", table.stdout().strip().replace("\n", " | "));
        Files.writeString(root.resolve("operator/target/e2e-comparison-status.yaml"), BenchmarkRuns.toYaml(status));
        compareAndReportFromTheCluster("demo");
    }

    /**
     * The comparison's runs, their pods long deleted, fetched as {@code stackbench compare} and {@code stackbench
     * report} fetch them (here through the test cluster's kubectl): compare prints the statistics table of local mode
     * for the six runs, and report renders them; both kept in operator/target/e2e/cluster-comparison/.
     */
    private void compareAndReportFromTheCluster(String comparison) throws IOException {
        dev.stackbench.local.ClusterResults.Kubectl kubectl = arguments -> {
            CommandResult result = cluster.kubectl(arguments.toArray(String[]::new));
            if (!result.succeeded()) {
                throw new IllegalArgumentException(result.describe());
            }
            return result.stdout();
        };
        Path dir = root.resolve("operator/target/e2e/cluster-comparison");
        List<String> arguments = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (String run : dev.stackbench.local.ClusterResults.comparisonRuns(kubectl, NAMESPACE, comparison)) {
            Path runDir = dir.resolve(run);
            warnings.addAll(dev.stackbench.local.ClusterResults.fetch(kubectl, NAMESPACE, run, runDir));
            arguments.add(runDir.toString());
        }
        assertThat(arguments).hasSize(6);
        assertThat(warnings).as("what the fetch missed").isEmpty();
        for (String runDir : arguments) {
            checkTheOutputCountedTheLatencyBuckets(Path.of(runDir));
        }
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        // The comparison's own terms: 85 % (as its spec above), and mvc-jdbc's runs, which drop iterations above
        // their Little's-law cap by design, counted as the example's includeFlaggedRuns counts them.
        List<String> compare = new ArrayList<>(List.of("compare", "--confidence", "0.85", "--include-flagged-runs"));
        compare.addAll(arguments);
        int exit = dev.stackbench.cli.StackbenchCommand.commandLine()
                .setOut(new java.io.PrintWriter(out))
                .setErr(new java.io.PrintWriter(err))
                .execute(compare.toArray(String[]::new));
        Files.writeString(dir.resolve("compare.txt"), out + "\n" + err);
        assertThat(exit).as("stackbench compare:%n%s%n%s", out, err).isZero();
        assertThat(out.toString()).contains("mvc-jdbc", "webflux-r2dbc");
        List<String> report = new ArrayList<>(
                List.of("report", "-o", dir.resolve("report.html").toString()));
        report.addAll(arguments);
        assertThat(dev.stackbench.cli.StackbenchCommand.commandLine().execute(report.toArray(String[]::new)))
                .as("stackbench report of the comparison's runs")
                .isZero();
        measured.put("comparison.clusterCompare", out.toString().strip().replace("\n", " | "));
    }

    /**
     * The chart's runner image has k6 with stackbench's output: the run's script leaves the latency buckets to it, and
     * every runner's summary holds its counts, one per measured request.
     */
    private static void checkTheOutputCountedTheLatencyBuckets(Path runDir) throws IOException {
        assertThat(Files.readString(runDir.resolve("k6-script.js")))
                .as(runDir + "/k6-script.js")
                .contains("from '" + dev.stackbench.k6.K6ScriptGenerator.OUTPUT_MODULE + "'");
        List<Path> summaries;
        try (var files = Files.list(runDir)) {
            // Each runner's log block, as kept in the run's results ConfigMap.
            summaries = files.filter(f -> f.getFileName().toString().matches("k6-summary-\\d+\\.json"))
                    .toList();
        }
        assertThat(summaries).as("runner summaries in " + runDir).isNotEmpty();
        for (Path file : summaries) {
            String text = Files.readString(file);
            assertThat(text).as(file + " has the output's latencyBuckets").contains("\"latencyBuckets\":{");
            dev.stackbench.k6.RunnerSummary runner = dev.stackbench.k6.K6SummaryParser.parse(text);
            assertThat(runner.bucketedRequests()).as(file.toString()).isEqualTo(runner.requests());
            assertThat(runner.requests()).as(file.toString()).isPositive();
        }
    }

    /** The live texts a comparison showed while it was awaited ({@link #awaitComparison}), in order. */
    private final List<String> comparisonLive = new ArrayList<>();

    private BenchmarkComparison awaitComparison(String name, Duration atMost) {
        Instant deadline = Instant.now().plus(atMost);
        while (Instant.now().isBefore(deadline)) {
            BenchmarkComparison comparison = client().resources(BenchmarkComparison.class)
                    .inNamespace(NAMESPACE)
                    .withName(name)
                    .get();
            ComparisonPhase phase = comparison == null || comparison.getStatus() == null
                    ? null
                    : comparison.getStatus().getPhase();
            if (comparison != null
                    && comparison.getStatus() != null
                    && comparison.getStatus().getLive() != null) {
                String text = comparison.getStatus().getLive().getText();
                if (comparisonLive.isEmpty() || !comparisonLive.getLast().equals(text)) {
                    comparisonLive.add(text);
                }
            }
            if (phase == ComparisonPhase.Succeeded || phase == ComparisonPhase.Failed) {
                return comparison;
            }
            sleep(Duration.ofSeconds(2));
        }
        BenchmarkComparison comparison = client().resources(BenchmarkComparison.class)
                .inNamespace(NAMESPACE)
                .withName(name)
                .get();
        return fail("comparison " + name + " did not end within " + atMost + ": "
                + (comparison == null ? "(gone)" : BenchmarkRuns.toYaml(comparison.getStatus())));
    }

    @Test
    @Order(2)
    void aRunnerGivenTooLittleCpuForTheRateIsFlaggedGeneratorSaturated() {
        // 300 requests/s need about a tenth of a CPU from k6 with the generated script, more than the runner's
        // limit of 50m: the kubelet's counters show the runner at its limit and throttled, and the run says its
        // figures describe the generator. The kubelets here refresh a container's counters every 2-4 s: the runner's
        // figure comes from the four or more readings inside the 15 s window.
        apply(variantRun("starved-runner", "{cpu: \"1\", memory: 1Gi}", "", "5s", "15s")
                .replace("rate: 30, vus: 50", "rate: 300, vus: 100")
                .replace("    load: {", "    runnerResources: {cpu: 50m, memory: 512Mi}\n    load: {"));
        BenchmarkRun run = follow("starved-runner", r -> false).last();
        assertThat(run.getStatus().getPhase()).as(describe(run)).isEqualTo(Phase.Succeeded);
        var condition = run.getStatus().getConditions().stream()
                .filter(c -> c.getType().equals(Conditions.GENERATOR_SATURATED))
                .findFirst()
                .orElseThrow();
        assertThat(condition.getStatus()).as(describe(run)).isEqualTo("True");
        assertThat(condition.getReason()).as(describe(run)).isIn("RunnerCpuSaturated", "RunnerThrottled");
        assertThat(condition.getMessage()).contains("starved-runner-k6-1");
        assertThat(run.getStatus().getSummary().getWarnings()).contains(condition.getMessage());
        PodResources runner = run.getStatus().getSummary().getPods().stream()
                .filter(p -> p.getRole().equals("runner"))
                .findFirst()
                .orElseThrow();
        assertThat(runner.getCpuLimitCores()).isEqualTo(0.05);
        assertThat(runner.getInsideWindow()).as(describe(run)).isTrue();
        measured.put(
                "starvedRunner.cpu",
                runner.getAvgCpuCores() + " cores of 0.05, throttled " + runner.getCpuThrottledRatio() + " over "
                        + runner.getSampledSeconds() + " s");
        measured.put("starvedRunner.condition", condition.getReason() + ": " + condition.getMessage());
    }

    @Test
    @Order(3)
    void aTargetBeyondItsMemoryLimitIsOomKilledAndTheRunFailsSayingSo() {
        apply(variantRun("oom", "{cpu: \"1\", memory: 256Mi}", "-Xms512m -Xmx512m -XX:+AlwaysPreTouch", "10s", "30s"));
        BenchmarkRun run = follow("oom", r -> false).last();
        assertThat(run.getStatus().getPhase()).as(describe(run)).isEqualTo(Phase.Failed);
        assertThat(run.getStatus().getMessage()).contains("OOMKilled").contains("256Mi");
        assertThat(run.getStatus().getConditions())
                .anySatisfy(c -> assertThat(c.getReason()).isEqualTo("TargetOOMKilled"));
    }

    @Test
    @Order(4)
    void aRunnerPodKilledMidRunFailsTheRun() {
        apply(variantRun("runner-kill", "{cpu: \"1\", memory: 1Gi}", "", "5s", "60s"));
        List<String> killed = new ArrayList<>();
        BenchmarkRun run = follow("runner-kill", current -> {
                    if (!killed.isEmpty()
                            || current.getStatus() == null
                            || current.getStatus().getStartedAt() == null) {
                        return false;
                    }
                    Optional<Pod> runner = runnerPods("runner-kill").stream()
                            .filter(p -> "Running".equals(p.getStatus().getPhase()))
                            .findFirst();
                    if (runner.isEmpty()
                            || Duration.between(
                                                    Instant.parse(
                                                            current.getStatus().getStartedAt()),
                                                    Instant.now())
                                            .toSeconds()
                                    < 15) {
                        return false;
                    }
                    String name = runner.get().getMetadata().getName();
                    cluster.kubectl("delete", "pod", "-n", NAMESPACE, name, "--wait=false")
                            .requireSuccess();
                    killed.add(name);
                    return false;
                })
                .last();
        assertThat(killed).as("a runner pod was deleted while load ran").hasSize(1);
        assertThat(run.getStatus().getPhase()).as(describe(run)).isEqualTo(Phase.Failed);
        assertThat(run.getStatus().getMessage()).containsIgnoringCase("runner");
        measured.put("runnerKill.message", run.getStatus().getMessage());
    }

    @Test
    @Order(5)
    void theOperatorPodDeletedMidRunComesBackAndFinishesTheRunWithTheSameTestRun() {
        // This run names the shared database (external), so that path runs on real pods too.
        // Deleted 7 s into the measured window of 45 s, after a periodic write of the scrape journal (every 10 s from
        // the warmup's start) that holds the window's first scrapes; the stopping pod writes it once more and releases
        // the Lease. The new pod must take the scrapes up. It took the Lease 13.4 s after the deletion on a quiet
        // machine (a pod and JVM start); a busy one has taken more than 30 s, so the deletion comes early.
        apply(variantRun("operator-restart", "{cpu: \"1\", memory: 1Gi}", "", "5s", "45s")
                .replace(
                        "    delayService:",
                        "    database: {external: {host: " + SHARED_DATABASE
                                + ", secretRef: {name: stackbench-database}}}\n" + "    delayService:"));
        Set<String> testRunUids = new LinkedHashSet<>();
        List<String> deleted = new ArrayList<>();
        List<Instant> deletedAt = new ArrayList<>();
        List<String> handover = new ArrayList<>();
        List<Instant> leaseTakenAt = new ArrayList<>();
        BenchmarkRun run = follow("operator-restart", current -> {
                    testRuns().forEach(t -> testRunUids.add(t.getMetadata().getUid()));
                    if (!deleted.isEmpty() && handover.size() < 2) {
                        double after = Duration.between(deletedAt.getFirst(), Instant.now())
                                        .toMillis()
                                / 1000.0;
                        Optional<String> holder = leaseHolder();
                        if (holder.isEmpty() && handover.isEmpty()) {
                            handover.add(String.format(Locale.ROOT, "Lease released %.1f s after the deletion", after));
                        }
                        holder.filter(h -> deleted.stream().noneMatch(h::startsWith))
                                .ifPresent(h -> {
                                    if (handover.isEmpty()) {
                                        handover.add("Lease not seen released");
                                    }
                                    leaseTakenAt.add(Instant.now());
                                    handover.add(String.format(
                                            Locale.ROOT, "taken by %s %.1f s after the deletion", h, after));
                                });
                    }
                    if (deleted.isEmpty()
                            && current.getStatus() != null
                            && current.getStatus().getPhase() == Phase.Running
                            && current.getStatus().getStartedAt() != null
                            && Instant.now()
                                    .isAfter(Instant.parse(current.getStatus().getStartedAt())
                                            .plusSeconds(5 + 7))) {
                        client().pods()
                                .inNamespace(NAMESPACE)
                                .withLabel("app.kubernetes.io/component", "operator")
                                .list()
                                .getItems()
                                .forEach(p -> {
                                    cluster.kubectl(
                                                    "delete",
                                                    "pod",
                                                    "-n",
                                                    NAMESPACE,
                                                    p.getMetadata().getName(),
                                                    "--wait=false")
                                            .requireSuccess();
                                    deleted.add(p.getMetadata().getName());
                                    deletedAt.add(Instant.now());
                                });
                    }
                    return false;
                })
                .last();
        assertThat(deleted).as("the operator pod was deleted while load ran").isNotEmpty();
        assertThat(run.getStatus().getPhase()).as(describe(run)).isEqualTo(Phase.Succeeded);
        assertThat(testRunUids).as("TestRuns seen during the run").hasSize(1);
        assertThat(run.getStatus().getSummary().getRps()).isPositive();
        assertThat(run.getStatus().getEnvironment().getDatabase())
                .isEqualTo("external " + SHARED_DATABASE + ":5432/stackbench");
        // The old pod's scrapes were journaled in the run's ConfigMap and the new pod took them up: the scrapes the
        // run keeps after cleanup hold some the old pod took in the window before its deletion, and some the new one
        // took after it led. Whether the new pod led soon enough to scrape inside the window depends on how busy the
        // machine is (its JVM starts on the operator's small CPU request): the status must say which it was.
        assertThat(leaseTakenAt).as("a new operator took the Lease").isNotEmpty();
        Instant windowStart = Instant.parse(run.getStatus().getStartedAt()).plusSeconds(5);
        Instant windowEnd = windowStart.plusSeconds(45);
        List<Instant> scrapes = keptScrapes("operator-restart", "target-scrapes.tsv");
        assertThat(scrapes)
                .as("scrapes of the stopped operator in the window before %s, taken up from the journal", deletedAt)
                .anyMatch(at -> !at.isBefore(windowStart) && at.isBefore(deletedAt.getFirst()));
        // So were its scrapes of the delay service's machine ticks (the backend node's steal), and the run kept them:
        // the delay service's image publishes them on a real node.
        assertThat(keptScrapes("operator-restart", "backend-scrapes.tsv"))
                .as("delay-service scrapes of the stopped operator in the window before %s", deletedAt)
                .anyMatch(at -> !at.isBefore(windowStart) && at.isBefore(deletedAt.getFirst()));
        assertThat(keptLines("operator-restart", "backend-scrapes.tsv"))
                .as("backend-scrapes.tsv: time, pod, nine figures, request counters, then steal and all ticks")
                .isNotEmpty()
                .allSatisfy(line -> assertThat(line.split("\t")).hasSize(17).satisfies(fields -> assertThat(
                                Double.parseDouble(fields[16]))
                        .as("all ticks in %s", line)
                        .isPositive()));
        List<String> warnings =
                Optional.ofNullable(run.getStatus().getSummary().getWarnings()).orElse(List.of());
        if (leaseTakenAt.getFirst().isBefore(windowEnd.minusSeconds(10))) {
            assertThat(scrapes)
                    .as("scrapes of the new operator in the window after it took the Lease at %s", leaseTakenAt)
                    .anyMatch(at -> at.isAfter(leaseTakenAt.getFirst()) && !at.isAfter(windowEnd));
            // Both parts: the target's figures span the whole window rather than the part after the restart.
            assertThat(warnings).noneMatch(w -> w.startsWith("target metrics cover"));
        } else if (leaseTakenAt.getFirst().isAfter(windowEnd)) {
            assertThat(warnings)
                    .as("the new operator led only after the window: the status says the scrapes cover part of it")
                    .anyMatch(w -> w.startsWith("target metrics cover"));
        }
        var target = run.getStatus().getSummary().getTarget();
        assertThat(target.getAvgCpuCores()).isPositive();
        assertThat(target.getPeakThreads()).isPositive();
        // The new pod's container start, to tell its JVM's start from the pod's creation in the handover above.
        client()
                .pods()
                .inNamespace(NAMESPACE)
                .withLabel("app.kubernetes.io/component", "operator")
                .list()
                .getItems()
                .stream()
                .filter(p -> !deleted.contains(p.getMetadata().getName()))
                .flatMap(p -> Optional.ofNullable(p.getStatus().getContainerStatuses()).orElse(List.of()).stream())
                .map(c -> c.getState() == null || c.getState().getRunning() == null
                        ? null
                        : c.getState().getRunning().getStartedAt())
                .filter(java.util.Objects::nonNull)
                .findFirst()
                .ifPresent(started -> handover.add(String.format(
                        Locale.ROOT,
                        "its container started %.1f s after the deletion",
                        Duration.between(deletedAt.getFirst(), Instant.parse(started))
                                        .toMillis()
                                / 1000.0)));
        measured.put("operatorRestart.handover", String.join(", ", handover));
        measured.put(
                "operatorRestart.target",
                target.getSamples() + " scrapes, " + target.getAvgCpuCores() + " cores, server rps "
                        + run.getStatus().getSummary().getServer().getRps());
        assertThat(client().apps()
                        .deployments()
                        .inNamespace(NAMESPACE)
                        .withName("operator-restart-db")
                        .get())
                .as("no database of its own for a run that names an external one")
                .isNull();
    }

    private static final int SECOND_ORDERS_SECONDS = 15;

    @Test
    @Order(6)
    void twoRunsBackToBackEachGetAFreshDatabaseAndReplicasAreMeasuredPerPod() {
        // Orders runs write rows (one order per iteration). The first run is cleaned up as usual; the second keeps
        // its objects (cleanup Never) so that its database can be looked into. The second also runs its target as
        // two replicas of half a CPU each, whose figures must be per pod and combined as one target.
        Set<String> firstDatabaseUids = new LinkedHashSet<>();
        apply(ordersRun("orders-first", "Always", 10));
        BenchmarkRun a = follow("orders-first", r -> {
                    databasePods("orders-first")
                            .forEach(p -> firstDatabaseUids.add(p.getMetadata().getUid()));
                    return false;
                })
                .last();
        assertThat(a.getStatus().getPhase()).as(describe(a)).isEqualTo(Phase.Succeeded);
        Instant firstEnded = Instant.now();
        // 15 s measured: each of the two pods needs readings across the window for its CPU figure (the kubelets here
        // refresh a container's counters every 2-4 s; a kubelet's default is 10-20 s).
        apply(ordersRun("orders-second", "Never", SECOND_ORDERS_SECONDS)
                .replace(
                        "    resources: {cpu: \"1\", memory: 1Gi}\n",
                        "    resources: {cpu: 500m, memory: 1Gi}\n" + "    replicas: 2\n"));
        BenchmarkRun b = follow("orders-second", r -> false).last();
        assertThat(b.getStatus().getPhase()).as(describe(b)).isEqualTo(Phase.Succeeded);

        assertThat(firstDatabaseUids).as("database pods of the first run").hasSize(1);
        Pod secondDatabase = databasePods("orders-second").stream()
                .findFirst()
                .orElseThrow(() -> new AssertionError("run orders-second has no database pod"));
        assertThat(firstDatabaseUids)
                .doesNotContain(secondDatabase.getMetadata().getUid());
        String[] rows = orders(secondDatabase);
        // At 10 iterations/s for 3 s + 15 s the second run writes about 180 orders. Had it found the first run's rows
        // (the target no longer empties a database of its own), it would hold about 130 more, and its oldest order
        // would predate the second run.
        long expected = Math.round(10 * (3 + SECOND_ORDERS_SECONDS) * 1.15);
        assertThat(Long.parseLong(rows[0]))
                .as("orders in the second run's database")
                .isBetween(1L, expected);
        assertThat(Instant.parse(rows[1]))
                .as("the oldest order of the second run's database")
                .isAfter(firstEnded);
        measured.put("freshDatabase.secondRunOrders", rows[0]);

        var summary = b.getStatus().getSummary();
        List<PodResources> targets = summary.getPods().stream()
                .filter(p -> p.getRole().equals("target"))
                .toList();
        assertThat(targets).as("target pods in status.summary.pods").hasSize(2);
        assertThat(targets).allSatisfy(pod -> {
            assertThat(pod.getPeakThreads()).as(pod.getPod()).isPositive();
            assertThat(pod.getPeakHeapMiB()).as(pod.getPod()).isPositive();
            assertThat(pod.getAvgCpuCores()).as(pod.getPod()).isPositive();
            assertThat(pod.getCpuLimitCores()).as(pod.getPod()).isEqualTo(0.5);
        });
        // The target's threads are both pods' at one moment: at least either pod's peak, at most their sum.
        int maxPeak =
                targets.stream().mapToInt(PodResources::getPeakThreads).max().orElseThrow();
        int sumPeaks = targets.stream().mapToInt(PodResources::getPeakThreads).sum();
        assertThat(summary.getTarget().getPeakThreads()).isBetween(Math.max(maxPeak, 1), sumPeaks);
        // Throttling: the most throttled replica.
        assertThat(summary.getTarget().getCpuThrottledRatio())
                .isEqualTo(targets.stream()
                        .mapToDouble(PodResources::getCpuThrottledRatio)
                        .max()
                        .orElseThrow());
        measured.put(
                "replicas.targetPeakThreads",
                summary.getTarget().getPeakThreads() + " (pods "
                        + targets.stream()
                                .map(p -> String.valueOf(p.getPeakThreads()))
                                .toList() + ")");
        measured.put(
                "replicas.targetCpu",
                "JVM " + summary.getTarget().getAvgCpuCores() + " cores; kubelet per pod "
                        + targets.stream()
                                .map(p -> String.valueOf(p.getAvgCpuCores()))
                                .toList());
        cluster.kubectl("delete", "benchmarkrun", "-n", NAMESPACE, "orders-second", "--wait=true", "--timeout=2m")
                .requireSuccess();
    }

    @Test
    @Order(7)
    void aCapacitySearchProbesOneTestRunAtATimeAndReportsTheTopOfItsRange() {
        // A probe passes only when k6 delivered its rate (no dropped iteration): judged on a quiet machine.
        measureOnAQuietMachine();
        try (HostSteal steal = HostSteal.sample()) {
            searchTheCapacity(steal);
        }
    }

    private void searchTheCapacity(HostSteal steal) {
        // Two probes of 2 s + 8 s: 10/s, then 20/s (capacity.to). The objective is loose enough for both to pass, so
        // the search ends at the top of its range after exactly two TestRuns.
        apply(variantRun("capacity", "{cpu: \"1\", memory: 1Gi}", "", "2s", "8s")
                .replace(
                        "    load: {executor: constant-arrival-rate, rate: 30, vus: 50}\n",
                        "    load: {executor: constant-arrival-rate, vus: 50}\n"
                                + "    capacity: {objective: {p95: 5s, errorRate: 0.5}, from: 10, to: 20,"
                                + " resolution: 100%}\n"));
        Set<String> testRunsSeen = new LinkedHashSet<>();
        List<String> together = new ArrayList<>();
        BenchmarkRun run = follow("capacity", current -> {
                    List<GenericKubernetesResource> now = testRunsOf("capacity");
                    now.forEach(t -> testRunsSeen.add(t.getMetadata().getName()));
                    if (now.size() > 1) {
                        together.add(now.stream()
                                .map(t -> t.getMetadata().getName())
                                .toList()
                                .toString());
                    }
                    return false;
                })
                .last();
        assertThat(run.getStatus().getPhase()).as(describe(run)).isEqualTo(Phase.Succeeded);
        writeStatus("capacity-status.yaml", run);

        var steps = run.getStatus().getSteps();
        assertThat(steps).as(BenchmarkRuns.toYaml(run.getStatus())).isNotEmpty();
        for (int i = 0; i < steps.size(); i++) {
            var step = steps.get(i);
            int rate = 10 * (i + 1);
            assertThat(step.getStep()).isEqualTo(i + 1);
            assertThat(step.getLevel()).isEqualTo(rate);
            Optional<Double> stolen =
                    steal.share(Instant.parse(step.getStartedAt()), Instant.parse(step.getFinishedAt()));
            measured.put(
                    "capacity.step" + step.getStep() + ".hostSteal",
                    stolen.map(RealNodesE2E::percent).orElse("unknown"));
            // The probe's own reading of the steal (its target's scrapes), which its reason names when it did not pass.
            assertThat(step.getHostSteal())
                    .as("status.steps[%d].hostSteal", i)
                    .isNotNull()
                    .isBetween(0.0, 1.0);
            measured.put("capacity.step" + step.getStep() + ".reportedHostSteal", percent(step.getHostSteal()));
            if (step.getOutcome() != StepOutcome.Passed && step.getHostSteal() > JUDGED_STEAL_LIMIT) {
                assertThat(step.getReason()).contains("the machine's host took");
                assertThat(run.getStatus().getCapacity().getMessage()).contains("the capacity may be higher");
            }
            if (step.getOutcome() == StepOutcome.GeneratorLimited
                    && stolen.isPresent()
                    && stolen.get() > JUDGED_STEAL_LIMIT) {
                // The runner's CPUs are this machine's: with the host taking them, k6 may fall behind a rate it keeps
                // on its own. Said, not judged; what the search must do then is still checked: stop at that probe
                // and report the rate before it as a lower bound set by the generator.
                measured.put(
                        "capacity.notJudged",
                        String.format(
                                Locale.ROOT,
                                "probe %d/s %s with %.1f %% of the machine's CPU time taken by its host: %s",
                                rate,
                                step.getOutcome(),
                                stolen.get() * 100,
                                step.getReason()));
                assertThat(i).as("the generator-limited probe ends the search").isEqualTo(steps.size() - 1);
                var capacity = run.getStatus().getCapacity();
                assertThat(capacity.getLimitedBy()).isEqualTo(CapacityLimit.Generator);
                assertThat(capacity.getRate()).isEqualTo(i == 0 ? null : 10 * i);
                awaitNoTestRunOrRunnerOf("capacity");
                return;
            }
            assertThat(step.getOutcome()).as(step.getReason()).isEqualTo(StepOutcome.Passed);
            // The open model offers the probe's rate; the target keeps up, so rps follows it. Its window can also
            // answer what the 2 s warmup left unanswered (a cold target slowed down by other work on the machine),
            // never more than was sent before the window ended: rate x 10 s over 8 s.
            assertThat(step.getRps()).as("rps of the probe at %d/s", rate).isBetween(rate * 0.85, rate * 1.25);
            assertThat(step.getErrorRate()).isZero();
            // An 8 s window: the runner's CPU still comes from the kubelet's readings (2-4 s apart here).
            assertThat(step.getGeneratorCpuCores())
                    .as("generator CPU of the probe at %d/s: %s", rate, BenchmarkRuns.toYaml(run.getStatus()))
                    .isNotNull();
            measured.put(
                    "capacity.step" + step.getStep(),
                    step.getLevel() + "/s: rps " + step.getRps() + ", p95 " + step.getP95Ms() + " ms, generator "
                            + step.getGeneratorCpuCores() + " cores");
        }
        var capacity = run.getStatus().getCapacity();
        assertThat(capacity.getRate()).isEqualTo(20);
        assertThat(capacity.getLimitedBy()).isEqualTo(CapacityLimit.Range);
        assertThat(capacity.getProbes()).hasSize(2);
        assertThat(run.getStatus().getSummary().getStep()).isEqualTo(2);
        assertThat(testRunsSeen).as("TestRuns of the run").containsExactly("capacity-s1", "capacity-s2");
        assertThat(together).as("TestRuns of two probes at once").isEmpty();

        CommandResult table =
                cluster.kubectl("get", "benchmarkruns", "-n", NAMESPACE).requireSuccess();
        List<String> lines = table.stdout().lines().toList();
        Map<String, String> row = columns(
                lines.get(0),
                lines.stream()
                        .filter(l -> l.startsWith("capacity "))
                        .findFirst()
                        .orElseThrow());
        assertThat(row).as(table.stdout()).containsEntry("CAPACITY", "20");
        measured.put("capacity.kubectlGet", lines.get(0) + " | " + String.join(" ", row.values()));
        awaitNoTestRunOrRunnerOf("capacity");
    }

    /** cleanup: Always removes the last probe's TestRun and runners too. */
    private void awaitNoTestRunOrRunnerOf(String run) {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
        while (Instant.now().isBefore(deadline)
                && (!testRunsOf(run).isEmpty() || !runnerPods(run).isEmpty())) {
            sleep(Duration.ofSeconds(1));
        }
        assertThat(testRunsOf(run)).as("TestRuns left").isEmpty();
        assertThat(runnerPods(run)).as("runner pods left").isEmpty();
    }

    @Test
    @Order(10)
    void theBridgeKeptItsAddressWhilePodsCameAndWent() {
        // Every pod above added a port to the bridge and removed it. A bridge whose address follows its ports
        // changes its address whenever the port holding the lowest one leaves, and every running pod then sends to
        // a gateway nobody answers until its ARP entry expires: connections time out and runs lose requests.
        assertThat(bridgeAddress()).isEqualTo(bridgeAddressAtStart);
    }

    /** A run's whole status, as kubectl shows it, beside the measured figures. */
    private void writeStatus(String fileName, BenchmarkRun run) {
        try {
            Path file = root.resolve("operator/target/e2e").resolve(fileName);
            Files.createDirectories(file.getParent());
            Files.writeString(file, BenchmarkRuns.yamlMapper().writeValueAsString(run));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot write the status of run " + run.getMetadata().getName(), e);
        }
    }

    private static String bridgeAddress() {
        try {
            return Files.readString(Path.of("/sys/class/net/stackbench0/address"))
                    .trim();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the address of the bridge stackbench0", e);
        }
    }

    // -----------------------------------------------------------------------------------------------------------

    /** What a run looked like while it ran: where its pods were placed and the target's CPU quota. */
    private record Observed(
            BenchmarkRun last,
            Instant appliedAt,
            Instant succeededAt,
            Map<String, Set<String>> nodesByRole,
            String targetCpuQuota,
            List<LiveLoad> live) {}

    /** Applies a run from a file and follows it to its end, with the time it was applied. */
    private Observed measure(Path file, String name) {
        Instant applied = Instant.now();
        cluster.kubectl("apply", "-n", NAMESPACE, "-f", file.toString()).requireSuccess();
        Observed observed = follow(name, run -> false);
        return new Observed(
                observed.last(),
                applied,
                observed.succeededAt(),
                observed.nodesByRole(),
                observed.targetCpuQuota(),
                observed.live());
    }

    /**
     * Polls the run once a second until it ends (or {@link #RUN_TIMEOUT}), recording its pods' nodes and the target
     * pod's cgroup quota; {@code during} runs on every poll, for tests that act on the running run.
     */
    private Observed follow(String name, Predicate<BenchmarkRun> during) {
        Instant deadline = Instant.now().plus(RUN_TIMEOUT);
        Map<String, Set<String>> nodes = new LinkedHashMap<>();
        String quota = null;
        List<LiveLoad> live = new ArrayList<>();
        while (Instant.now().isBefore(deadline)) {
            BenchmarkRun run = client().resources(BenchmarkRun.class)
                    .inNamespace(NAMESPACE)
                    .withName(name)
                    .get();
            for (Pod pod : client().pods().inNamespace(NAMESPACE).list().getItems()) {
                String role = role(pod, name);
                if (role != null && pod.getSpec().getNodeName() != null) {
                    nodes.computeIfAbsent(role, r -> new LinkedHashSet<>())
                            .add(pod.getSpec().getNodeName());
                }
                if ("target".equals(role) && "Running".equals(pod.getStatus().getPhase()) && quota == null) {
                    quota = cpuQuota(pod).orElse(null);
                }
            }
            if (run != null) {
                during.test(run);
                LiveLoad reading =
                        run.getStatus() == null ? null : run.getStatus().getLive();
                if (reading != null
                        && (live.isEmpty()
                                || !reading.getUpdatedAt().equals(live.getLast().getUpdatedAt()))) {
                    live.add(reading);
                }
                if (run.getStatus() != null && run.getStatus().getPhase() == Phase.Failed) {
                    printDiagnostics(name);
                }
                if (run.getStatus() != null
                        && (run.getStatus().getPhase() == Phase.Succeeded
                                || run.getStatus().getPhase() == Phase.Failed)) {
                    return new Observed(run, null, Instant.now(), nodes, quota, live);
                }
            }
            sleep(Duration.ofSeconds(1));
        }
        BenchmarkRun run = client().resources(BenchmarkRun.class)
                .inNamespace(NAMESPACE)
                .withName(name)
                .get();
        return fail("run " + name + " did not end within " + RUN_TIMEOUT + ": " + describe(run));
    }

    /** What a reader of a failed run needs: the namespace's events, the operator's log, the run's k6 logs. */
    private void printDiagnostics(String run) {
        StringBuilder text = new StringBuilder("---- diagnostics of run " + run + "\n");
        text.append(cluster.kubectl("get", "events", "-n", NAMESPACE, "--sort-by=.lastTimestamp")
                .stdout());
        text.append(cluster.kubectl("logs", "-n", NAMESPACE, "-l", "app.kubernetes.io/component=operator", "--tail=50")
                .stdout());
        for (Pod pod : client().pods().inNamespace(NAMESPACE).list().getItems()) {
            String name = pod.getMetadata().getName();
            // The run's own pods, and the pods of its TestRun or of a step's (<run>-s<step>).
            if (Stream.of("-k6-", "-target-", "-delay-", "-db-").anyMatch(part -> name.startsWith(run + part))
                    || name.matches(java.util.regex.Pattern.quote(run) + "-s[0-9]+-.*")) {
                text.append("-- ").append(name).append('\n');
                text.append(cluster.kubectl("logs", "-n", NAMESPACE, name, "--tail=30")
                        .stdout());
                // A container that restarted: why the one before it ended.
                CommandResult previous = cluster.kubectl("logs", "-n", NAMESPACE, name, "--previous", "--tail=30");
                if (previous.succeeded()) {
                    text.append("-- ")
                            .append(name)
                            .append(" (previous container)\n")
                            .append(previous.stdout());
                }
            }
        }
        System.err.println(text);
    }

    /** The role of a pod of run {@code run}: the operator's label, or k6-operator's runner/initializer/starter. */
    private static String role(Pod pod, String run) {
        Map<String, String> labels =
                Optional.ofNullable(pod.getMetadata().getLabels()).orElse(Map.of());
        String name = pod.getMetadata().getName();
        if (name.startsWith(run + "-") && "true".equals(labels.get("runner"))) {
            // Runner pods carry the run's labels too (role loadgen), from the TestRun's runner metadata.
            return "runner";
        }
        if (run.equals(labels.get("stackbench.dev/run"))) {
            return labels.get("stackbench.dev/role");
        }
        if (name.startsWith(run + "-")) {
            if (name.contains("-initializer-")) {
                return "initializer";
            }
            if (name.contains("-starter-")) {
                return "starter";
            }
        }
        return null;
    }

    /** The target pod's CFS quota and period, read from its cgroup on this machine (the node's cgroup root). */
    private static Optional<String> cpuQuota(Pod pod) {
        Path node = Path.of("/sys/fs/cgroup/cpu", pod.getSpec().getNodeName(), "kubepods");
        String uid = "pod" + pod.getMetadata().getUid();
        for (Path dir : List.of(node.resolve(uid), node.resolve("burstable").resolve(uid))) {
            if (Files.isDirectory(dir)) {
                try {
                    return Optional.of(Files.readString(dir.resolve("cpu.cfs_quota_us"))
                                    .trim() + "/"
                            + Files.readString(dir.resolve("cpu.cfs_period_us")).trim());
                } catch (IOException e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    private List<Pod> runnerPods(String run) {
        return client().pods().inNamespace(NAMESPACE).withLabel("runner", "true").list().getItems().stream()
                .filter(p -> p.getMetadata().getName().startsWith(run + "-"))
                .toList();
    }

    /**
     * When each scrape the finished run kept after cleanup in {@code file} was taken (its first column, epoch
     * milliseconds), fetched as {@code stackbench results} does into target/e2e.
     */
    private List<Instant> keptScrapes(String run, String file) {
        return keptLines(run, file).stream()
                .map(line -> Instant.ofEpochMilli(Long.parseLong(line.substring(0, line.indexOf('\t')))))
                .toList();
    }

    /** The lines of a file the finished run kept after cleanup, fetched as {@code stackbench results} does. */
    private List<String> keptLines(String run, String file) {
        Path dir = Path.of("target/e2e/cluster-results", run);
        try {
            dev.stackbench.local.ClusterResults.fetch(
                    arguments -> cluster.kubectl(arguments.toArray(String[]::new))
                            .requireSuccess()
                            .stdout(),
                    NAMESPACE,
                    run,
                    dir);
            return Files.readAllLines(dir.resolve(file)).stream()
                    .filter(line -> !line.isBlank())
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Who holds the operator's leader-election Lease now (a pod name with a suffix), if anyone. */
    private Optional<String> leaseHolder() {
        return Optional.ofNullable(client().leases()
                        .inNamespace(NAMESPACE)
                        .withName(StackbenchOperator.LEASE_NAME)
                        .get())
                .map(lease -> lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity())
                .filter(holder -> !holder.isBlank());
    }

    private List<GenericKubernetesResource> testRuns() {
        return client().genericKubernetesResources(K6TestRun.CONTEXT)
                .inNamespace(NAMESPACE)
                .list()
                .getItems();
    }

    private List<GenericKubernetesResource> testRunsOf(String run) {
        return client().genericKubernetesResources(K6TestRun.CONTEXT)
                .inNamespace(NAMESPACE)
                .withLabel("stackbench.dev/run", run)
                .list()
                .getItems();
    }

    private void apply(String manifest) {
        cluster.kubectlWithInput(manifest, "apply", "-n", NAMESPACE, "-f", "-").requireSuccess();
    }

    /** A short run of the orders scenario (writes) at 10 iterations/s. */
    private static String ordersRun(String name, String cleanup, int durationSeconds) {
        return variantRun(name, "{cpu: \"1\", memory: 1Gi}", "", "3s", durationSeconds + "s")
                .replace("    scenario: upstream\n    upstreamDelay: 100ms\n", "    scenario: orders\n")
                .replace("rate: 30, vus: 50", "rate: 10, vus: 20")
                .replace("cleanup: Always", "cleanup: " + cleanup);
    }

    private List<Pod> databasePods(String run) {
        return client().pods()
                .inNamespace(NAMESPACE)
                .withLabel("stackbench.dev/run", run)
                .withLabel("stackbench.dev/role", "database")
                .list()
                .getItems();
    }

    /** The number of orders in a run's database and the time of the oldest (ISO-8601, UTC). */
    private String[] orders(Pod database) {
        CommandResult query = cluster.kubectl(
                        "exec",
                        "-n",
                        NAMESPACE,
                        database.getMetadata().getName(),
                        "--",
                        "psql",
                        "-U",
                        "stackbench",
                        "-d",
                        "stackbench",
                        "-tA",
                        "-F",
                        " ",
                        "-c",
                        "select count(*), to_char(min(created_at) at time zone 'UTC',"
                                + " 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') from orders")
                .requireSuccess();
        return query.stdout().trim().split(" ");
    }

    /**
     * The shared database of runs that name it as external ({@code stackbench-postgresql}, on the system node):
     * PostgreSQL from the image hack/cluster.sh built from Debian's packages and imported, credentials from the
     * Secret the chart created.
     */
    private void deployDatabase() {
        cluster.kubectl(
                        "apply",
                        "-n",
                        NAMESPACE,
                        "-f",
                        root.resolve("hack/cluster/postgresql.yaml").toString())
                .requireSuccess();
        cluster.kubectl("rollout", "status", "-n", NAMESPACE, "deployment/stackbench-postgresql", "--timeout", "3m")
                .requireSuccess();
    }

    private long operatorMemoryBytes() {
        Pod operator = client().pods()
                .inNamespace(NAMESPACE)
                .withLabel("app.kubernetes.io/component", "operator")
                .list()
                .getItems()
                .get(0);
        Path cgroup = Path.of(
                "/sys/fs/cgroup/memory",
                operator.getSpec().getNodeName(),
                "kubepods",
                "burstable",
                "pod" + operator.getMetadata().getUid(),
                "memory.usage_in_bytes");
        return Long.parseLong(read(cgroup).trim());
    }

    /**
     * The two runners' k6 output matched their ticks to the schedule of their execution segments: every intended
     * iteration is either served (as many as k6 counted) or dropped (as many as k6 dropped), and without drops the
     * latency from the intended start is the service time plus the generator's own lag.
     */
    private void checkIntendedStarts(BenchmarkRun run) {
        var summary = run.getStatus().getSummary();
        var intended = summary.getIntendedLatencyMs();
        assertThat(intended)
                .as("latency from the intended start: %s", describe(run))
                .isNotNull();
        assertThat(intended.getDropped()).as(describe(run)).isEqualTo(summary.getDroppedIterations());
        assertThat(intended.getServed())
                .as(describe(run))
                .isBetween(summary.getIterations() - 2, summary.getIterations());
        if (intended.getDropped() == 0) {
            assertThat(intended.getLowerBounds()).as(describe(run)).isNull();
            assertThat(intended.getP95())
                    .as(describe(run))
                    .isGreaterThanOrEqualTo(summary.getLatencyMs().getP95() * 0.98);
        } else {
            assertThat(intended.getLowerBounds()).as(describe(run)).contains("max");
        }
        measured.put(
                "comparison." + run.getMetadata().getName() + ".intendedP95Ms",
                (intended.getLowerBounds() != null && intended.getLowerBounds().contains("p95") ? ">=" : "")
                        + intended.getP95());
    }

    private void record(String prefix, BenchmarkRun run) {
        var summary = run.getStatus().getSummary();
        measured.put(prefix + ".rps", String.format(Locale.ROOT, "%.1f", summary.getRps()));
        measured.put(prefix + ".p95Ms", String.valueOf(summary.getLatencyMs().getP95()));
        measured.put(prefix + ".errorRate", String.valueOf(summary.getErrorRate()));
        measured.put(prefix + ".peakThreads", String.valueOf(summary.getTarget().getPeakThreads()));
        measured.put(prefix + ".droppedIterations", String.valueOf(summary.getDroppedIterations()));
        if (run.getStatus().getTimeline() != null) {
            // Where the run's time went, for the overhead around its load.
            measured.put(
                    prefix + ".timeline",
                    run.getStatus().getTimeline().stream()
                            .map(entry -> entry.getSeconds() + " " + entry.getWhat())
                            .collect(java.util.stream.Collectors.joining("; ")));
        }
    }

    /** A header line and a row of `kubectl get` as column name to value (columns are space-aligned). */
    private static Map<String, String> columns(String header, String row) {
        Map<String, String> values = new LinkedHashMap<>();
        List<Integer> starts = new ArrayList<>();
        List<String> names = new ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\S+").matcher(header);
        while (m.find()) {
            starts.add(m.start());
            names.add(m.group());
        }
        for (int i = 0; i < starts.size(); i++) {
            int from = Math.min(starts.get(i), row.length());
            int to = i + 1 < starts.size() ? Math.min(starts.get(i + 1), row.length()) : row.length();
            values.put(names.get(i), row.substring(from, to).trim());
        }
        return values;
    }

    private KubernetesClient client() {
        return cluster.client();
    }

    private static String describe(BenchmarkRun run) {
        if (run == null || run.getStatus() == null) {
            return "no status";
        }
        var summary = run.getStatus().getSummary();
        return run.getStatus().getPhase() + ": " + run.getStatus().getMessage() + " "
                + run.getStatus().getConditions()
                + (summary == null
                        ? ""
                        : " warnings " + summary.getWarnings() + " pods "
                                + (summary.getPods() == null
                                        ? "none"
                                        : summary.getPods().stream()
                                                .map(p -> p.getRole() + " " + p.getPod() + " " + p.getAvgCpuCores()
                                                        + " of " + p.getCpuLimitCores() + " cores, throttled "
                                                        + p.getCpuThrottledRatio() + " over " + p.getSampledSeconds()
                                                        + " s")
                                                .toList()));
    }

    private static String seconds(Instant since) {
        return String.format(
                Locale.ROOT, "%.1f", Duration.between(since, Instant.now()).toMillis() / 1000.0);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
