package dev.stackbench.chart;

import static dev.stackbench.chart.RealNodesRelease.sleep;
import static dev.stackbench.chart.RealNodesRelease.variantRun;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.Conditions;
import dev.stackbench.api.status.Phase;
import dev.stackbench.api.status.ServerSummary;
import dev.stackbench.operator.PodEnds;
import dev.stackbench.operator.StackbenchOperator;
import dev.stackbench.operator.objects.K6TestRun;
import dev.stackbench.testcluster.TestCluster;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Faults at every moment of a run, injected for real on the test cluster with real nodes, with the chart and
 * k6-operator installed as a user would: the operator's process killed (SIGKILL, then its pod force-deleted) once in
 * each phase of a run, a queued run included; k6-operator's controller deleted, the API server restarted and the
 * target node's kubelet stopped and started again while load runs. Three runs on the same node pools, applied
 * together, queue behind each other, so every fault also checks that the pools pass from one run to the next exactly
 * once, and only after the run before has ended and its pods are gone. What was injected and what came of it is
 * written to target/e2e/faults.md.
 *
 * <p>Short loads (5 s warmup), and no figure is judged beyond being there: the faults are about results lost and
 * pools held, not about how fast.
 */
@Order(3)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FaultsE2E {

    private static final String NAMESPACE = RealNodesRelease.NAMESPACE;
    /** The run whose every phase sees the operator killed; its measured window outlasts two operator restarts. */
    private static final String KILLS = "fault-a";
    /** Queued behind the first; k6-operator's controller deleted and the API server restarted while its load runs. */
    private static final String CONTROL_PLANE = "fault-b";
    /** Queued behind the second; the target node's kubelet stopped while its load runs, and started again. */
    private static final String KUBELET = "fault-c";

    private static final List<String> RUNS = List.of(KILLS, CONTROL_PLANE, KUBELET);
    private static final Duration ALL_RUNS_TIMEOUT = Duration.ofMinutes(20);
    private static final Duration POLL = Duration.ofMillis(150);
    /** How long the target node's kubelet stays stopped: shorter than the node's grace and the run's window. */
    private static final Duration KUBELET_DOWN = Duration.ofSeconds(15);

    private final Map<String, String> measured = new LinkedHashMap<>();
    private final FaultTable table = new FaultTable();
    private RealNodesRelease release;
    private TestCluster cluster;
    private Instant classStarted;

    @BeforeAll
    void start() {
        classStarted = Instant.now();
        release = RealNodesRelease.install(getClass().getSimpleName(), measured);
        cluster = release.cluster();
    }

    @AfterAll
    void stop() throws IOException {
        try {
            if (release != null) {
                if (!table.isEmpty()) {
                    table.write(
                            release.root().resolve("operator/target/e2e/faults.md"),
                            "Faults injected by FaultsE2E on the real-node test cluster ("
                                    + Instant.now().toString().substring(0, 19) + "Z, class "
                                    + RealNodesRelease.seconds(classStarted) + " s including the cluster's start: "
                                    + measured + ")");
                }
                release.handOver("faults-cluster-logs");
            }
        } finally {
            if (release != null) {
                release.releaseTurn();
            }
        }
    }

    @Test
    void faultsInEveryPhaseLoseNoResultCreateNoSecondTestRunAndPassThePoolsOnExactlyOnce() {
        Instant applied = Instant.now();
        apply(KILLS, run(KILLS, "5s", "45s"));
        apply(CONTROL_PLANE, run(CONTROL_PLANE, "5s", "30s"));
        apply(KUBELET, run(KUBELET, "5s", "30s"));
        Followed followed = follow();
        measured.put("runs.wallSeconds", RealNodesRelease.seconds(applied));

        SoftAssertions soft = new SoftAssertions();
        for (String name : RUNS) {
            BenchmarkRun run = followed.last.get(name);
            String outcome = outcome(run, followed);
            table.of(name).forEach(row -> row.observed(outcome));
            table.details(name, details(run, followed));
            soft.assertThat(phase(run)).as("%s: %s", name, outcome).isEqualTo(Phase.Succeeded);
            soft.assertThat(followed.testRunUids.getOrDefault(name, Set.of()))
                    .as("UIDs of the TestRuns of %s", name)
                    .hasSize(1);
            soft.assertThat(
                            run.getStatus().getSummary() == null
                                    ? 0.0
                                    : run.getStatus().getSummary().getRps())
                    .as("rps of %s", name)
                    .isPositive();
            soft.assertThat(Conditions.find(run.getStatus().getConditions(), "CleanedUp"))
                    .as("CleanedUp of %s", name)
                    .hasValueSatisfying(c -> assertThat(c.getStatus()).isEqualTo(Conditions.TRUE));
            soft.assertThat(eventCount(name, "PoolsAcquired"))
                    .as("PoolsAcquired events of %s", name)
                    .isEqualTo(1);
            soft.assertThat(followed.leftBehind.getOrDefault(name, List.of()))
                    .as("objects of %s left after its cleanup", name)
                    .isEmpty();
            // What the report needs after cleanup stays, whatever the operator went through.
            soft.assertThat(client().configMaps()
                            .inNamespace(NAMESPACE)
                            .withName(dev.stackbench.operator.RunArtifacts.name(run))
                            .get())
                    .as("results %s kept after the cleanup of %s", dev.stackbench.operator.RunArtifacts.name(run), name)
                    .isNotNull();
        }
        for (int i = 1; i < RUNS.size(); i++) {
            String before = RUNS.get(i - 1);
            String after = RUNS.get(i);
            soft.assertThat(followed.podsOfPreviousAtStart.get(after))
                    .as("pods of %s still there when %s got the pools", before, after)
                    .isEmpty();
            Instant cleaned = transition(followed.last.get(before), "CleanedUp");
            Instant acquired = transition(followed.last.get(after), "PoolsAvailable");
            soft.assertThat(acquired)
                    .as(
                            "%s got the pools after %s was cleaned up (arrival: %s, %s)",
                            after, before, arrival(followed.last.get(before)), arrival(followed.last.get(after)))
                    .isAfterOrEqualTo(cleaned);
        }
        soft.assertThat(followed.killPointsMissed)
                .as("operator kill points never reached")
                .isEmpty();
        for (String queued : List.of(CONTROL_PLANE, KUBELET)) {
            soft.assertThat(table.of(queued))
                    .as("an operator kill while %s was Queued", queued)
                    .anyMatch(row -> row.phase().startsWith("Queued"));
        }
        soft.assertAll();
    }

    // ---------------------------------------------------------------------------------------------------------
    // Following the three runs and injecting the faults

    /** What the runs did while they were followed. */
    private static final class Followed {
        final Map<String, BenchmarkRun> last = new LinkedHashMap<>();
        final Map<String, Set<String>> testRunUids = new LinkedHashMap<>();
        final Map<String, List<String>> podsOfPreviousAtStart = new LinkedHashMap<>();
        final Map<String, List<String>> leftBehind = new LinkedHashMap<>();
        final Map<String, List<Phase>> phases = new LinkedHashMap<>();
        final List<String> killPointsMissed = new ArrayList<>();
    }

    /** A moment at which the operator is killed: the first poll that finds {@code when} true. */
    private record KillPoint(String run, String phase, Predicate<Map<String, BenchmarkRun>> when) {}

    private Followed follow() {
        Followed followed = new Followed();
        List<KillPoint> kills = new ArrayList<>(List.of(
                new KillPoint(
                        KILLS,
                        "Provisioning (objects created, waiting for the target to be Ready)",
                        runs -> phase(runs.get(KILLS)) == Phase.Provisioning),
                new KillPoint(KILLS, "WarmingUp", runs -> phase(runs.get(KILLS)) == Phase.WarmingUp),
                new KillPoint(KILLS, "Running (measured window)", runs -> phase(runs.get(KILLS)) == Phase.Running),
                new KillPoint(
                        KILLS,
                        "Collecting (the runners have finished; the pass that reads their summaries)",
                        runs -> phase(runs.get(KILLS)) == Phase.Running && runnersFinished(KILLS)),
                new KillPoint(
                        KILLS,
                        "CleaningUp (the run has ended, its objects not yet deleted)",
                        runs -> terminal(runs.get(KILLS))
                                && Conditions.find(runs.get(KILLS).getStatus().getConditions(), "CleanedUp")
                                        .isEmpty()),
                new KillPoint(
                        CONTROL_PLANE,
                        "Provisioning (the pass that creates the run's objects)",
                        runs -> !objectsOf(CONTROL_PLANE).isEmpty())));
        Instant deadline = Instant.now().plus(ALL_RUNS_TIMEOUT);
        Instant k6OperatorDeleted = null;
        Instant apiServerRestarted = null;
        Instant kubeletStopped = null;
        boolean kubeletStarted = false;
        Set<String> ended = new LinkedHashSet<>();
        while (Instant.now().isBefore(deadline) && ended.size() < RUNS.size()) {
            Map<String, BenchmarkRun> runs = runs();
            followed.last.putAll(runs);
            for (String name : RUNS) {
                testRunsOf(name).forEach(t -> followed.testRunUids
                        .computeIfAbsent(name, n -> new LinkedHashSet<>())
                        .add(t.getMetadata().getUid()));
                Phase phase = phase(runs.get(name));
                List<Phase> seen = followed.phases.computeIfAbsent(name, n -> new ArrayList<>());
                if (phase != null && (seen.isEmpty() || seen.getLast() != phase)) {
                    seen.add(phase);
                }
                int index = RUNS.indexOf(name);
                if (index > 0
                        && !followed.podsOfPreviousAtStart.containsKey(name)
                        && phase != null
                        && phase.ordinal() >= Phase.Provisioning.ordinal()) {
                    // Pods that ended (k6's completed initializer and runners, until their Jobs go) use no CPU:
                    // the pools wait only for those that still run or terminate.
                    followed.podsOfPreviousAtStart.put(
                            name,
                            podsOf(RUNS.get(index - 1)).stream()
                                    .filter(p -> p.getStatus() == null
                                            || !List.of("Succeeded", "Failed")
                                                    .contains(p.getStatus().getPhase()))
                                    .map(p -> p.getMetadata().getName())
                                    .toList());
                }
            }
            // The operator, once per kill point, and only while it leads (a kill while it restarts hits nothing).
            Optional<KillPoint> due =
                    kills.stream().filter(k -> k.when.test(runs)).findFirst();
            if (due.isPresent()) {
                KillPoint point = due.get();
                // Points the run went past while the operator was away are missed, and say so.
                for (KillPoint earlier : List.copyOf(kills.subList(0, kills.indexOf(point)))) {
                    if (earlier.run.equals(point.run)) {
                        followed.killPointsMissed.add(earlier.run + " " + earlier.phase);
                        kills.remove(earlier);
                    }
                }
                kills.remove(point);
                killOperator(point);
            }
            // k6-operator's controller and the API server, in the second run's measured window.
            BenchmarkRun second = runs.get(CONTROL_PLANE);
            if (k6OperatorDeleted == null && secondsInto(second, Phase.Running) >= 2) {
                k6OperatorDeleted = deleteK6OperatorController();
            }
            if (k6OperatorDeleted != null && apiServerRestarted == null && secondsInto(second, Phase.Running) >= 12) {
                apiServerRestarted = restartApiServer();
            }
            // The target node's kubelet, in the third run's measured window.
            BenchmarkRun third = runs.get(KUBELET);
            if (kubeletStopped == null && secondsInto(third, Phase.Running) >= 3) {
                kubeletStopped = stopTargetKubelet();
            }
            if (kubeletStopped != null && !kubeletStarted && Instant.now().isAfter(kubeletStopped.plus(KUBELET_DOWN))) {
                startTargetKubelet(kubeletStopped);
                kubeletStarted = true;
            }
            for (String name : RUNS) {
                BenchmarkRun run = runs.get(name);
                if (!ended.contains(name)
                        && terminal(run)
                        && Conditions.find(run.getStatus().getConditions(), "CleanedUp")
                                .isPresent()) {
                    ended.add(name);
                }
            }
            sleep(POLL);
        }
        if (kubeletStopped != null && !kubeletStarted) {
            cluster.startKubelet(TestCluster.TARGET_NODE);
        }
        kills.forEach(k -> followed.killPointsMissed.add(k.run + " " + k.phase));
        followed.last.putAll(runs());
        for (String name : RUNS) {
            followed.leftBehind.put(name, leftBehind(name));
        }
        return followed;
    }

    /**
     * Kills the operator as a crash would (SIGKILL to its processes through its pod's cgroup), then force-deletes its
     * pod so that a new one starts at once, and waits until the new one leads; records the phase the run was in right
     * after the kill and the time until a new leader.
     */
    private void killOperator(KillPoint point) {
        Lease before = lease();
        String holderBefore = before == null ? null : before.getSpec().getHolderIdentity();
        Pod operator = operatorPods().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no operator pod to kill"));
        Instant killed = Instant.now();
        int processes = PodProcesses.kill(operator);
        BenchmarkRun atDeath = client().resources(BenchmarkRun.class)
                .inNamespace(NAMESPACE)
                .withName(point.run)
                .get();
        cluster.kubectl(
                        "delete",
                        "pod",
                        "-n",
                        NAMESPACE,
                        operator.getMetadata().getName(),
                        "--grace-period=0",
                        "--force")
                .requireSuccess();
        List<FaultTable.Row> rows = new ArrayList<>();
        for (String other : RUNS) {
            BenchmarkRun queued = client().resources(BenchmarkRun.class)
                    .inNamespace(NAMESPACE)
                    .withName(other)
                    .get();
            if (!other.equals(point.run)
                    && phase(queued) == Phase.Queued
                    && table.of(other).isEmpty()) {
                rows.add(table.add(
                        "operator killed (the same kill)",
                        other,
                        "Queued; status at the kill: \"" + queued.getStatus().getMessage() + "\"",
                        "Succeeded after the run before it, pools acquired once"));
            }
        }
        String phase = point.phase + "; status at the kill: " + phase(atDeath)
                + Optional.ofNullable(atDeath.getStatus())
                        .map(s -> " \"" + s.getMessage() + "\"")
                        .orElse("");
        rows.add(table.add(
                "operator killed (" + processes + " processes SIGKILLed, pod force-deleted)",
                point.run,
                phase,
                "Succeeded with the same results: one TestRun, figures, pools released once"));
        Instant deadline = killed.plus(Duration.ofMinutes(3));
        while (Instant.now().isBefore(deadline)) {
            Lease now = lease();
            String holder = now == null ? null : now.getSpec().getHolderIdentity();
            if (holder != null && !holder.equals(holderBefore)) {
                String recovery = "new leader after " + RealNodesRelease.seconds(killed) + " s";
                rows.forEach(r -> r.recovery(recovery));
                return;
            }
            sleep(Duration.ofMillis(250));
        }
        rows.forEach(r -> r.recovery("no new leader within 3 min"));
    }

    private Instant deleteK6OperatorController() {
        Instant deleted = Instant.now();
        List<Pod> controllers = client().pods().inNamespace(NAMESPACE).list().getItems().stream()
                .filter(p -> p.getMetadata().getName().contains("k6-operator"))
                .toList();
        controllers.forEach(p -> cluster.kubectl(
                        "delete", "pod", "-n", NAMESPACE, p.getMetadata().getName(), "--grace-period=0", "--force")
                .requireSuccess());
        FaultTable.Row row = table.add(
                "k6-operator's controller pod force-deleted ("
                        + controllers.stream()
                                .map(p -> p.getMetadata().getName())
                                .toList() + ")",
                CONTROL_PLANE,
                "Running, 2 s into the measured window",
                "Succeeded: the runners go on without their controller, one TestRun");
        Instant deadline = deleted.plus(Duration.ofMinutes(2));
        while (Instant.now().isBefore(deadline)) {
            boolean ready = client().pods().inNamespace(NAMESPACE).list().getItems().stream()
                    .filter(p -> p.getMetadata().getName().contains("k6-operator"))
                    .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                    .anyMatch(p -> p.getStatus().getConditions().stream()
                            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())));
            if (ready) {
                row.recovery("a new controller pod Ready after " + RealNodesRelease.seconds(deleted) + " s");
                return deleted;
            }
            sleep(Duration.ofMillis(500));
        }
        row.recovery("no controller pod Ready within 2 min");
        return deleted;
    }

    private Instant restartApiServer() {
        Instant restarted = Instant.now();
        FaultTable.Row row = table.add(
                "API server killed (SIGKILL) and started again",
                CONTROL_PLANE,
                "Running, 12 s into the measured window",
                "Succeeded: requests retried, watches resumed, one TestRun");
        cluster.restartApiServer();
        String back = RealNodesRelease.seconds(restarted);
        Lease lease = lease();
        row.recovery("API server ready again after " + back + " s; operator lease held by "
                + (lease == null ? "nobody" : lease.getSpec().getHolderIdentity()));
        return restarted;
    }

    private Instant stopTargetKubelet() {
        Instant stopped = Instant.now();
        cluster.stopKubelet(TestCluster.TARGET_NODE);
        table.add(
                "kubelet of " + TestCluster.TARGET_NODE + " stopped for " + KUBELET_DOWN.toSeconds()
                        + " s, its pods running on",
                KUBELET,
                "Running, 3 s into the measured window",
                "Succeeded: the node is back within the run; the target's CPU figures from that kubelet cover"
                        + " part of the window, with a warning if they are missing");
        return stopped;
    }

    private void startTargetKubelet(Instant stopped) {
        cluster.startKubelet(TestCluster.TARGET_NODE);
        table.of(KUBELET)
                .getLast()
                .recovery(
                        "kubelet started again, node Ready " + RealNodesRelease.seconds(stopped) + " s after the stop");
    }

    // ---------------------------------------------------------------------------------------------------------
    // Reading the cluster

    private Map<String, BenchmarkRun> runs() {
        Map<String, BenchmarkRun> runs = new LinkedHashMap<>();
        for (BenchmarkRun run : client().resources(BenchmarkRun.class)
                .inNamespace(NAMESPACE)
                .list()
                .getItems()) {
            runs.put(run.getMetadata().getName(), run);
        }
        return runs;
    }

    private boolean runnersFinished(String run) {
        List<Pod> runners =
                client().pods().inNamespace(NAMESPACE).withLabel("runner", "true").list().getItems().stream()
                        .filter(p -> p.getMetadata().getName().startsWith(run + "-"))
                        .toList();
        // The operator reads the results once every k6 has exited, before the kubelet marks the pods Succeeded.
        return !runners.isEmpty() && runners.stream().allMatch(PodEnds::ended);
    }

    /** Seconds since the run entered {@code phase} (by its LoadRunning condition), or -1 before that. */
    private static long secondsInto(BenchmarkRun run, Phase phase) {
        if (run == null || phase(run) != phase || run.getStatus().getStartedAt() == null) {
            return -1;
        }
        Instant started = Instant.parse(run.getStatus().getStartedAt());
        return Duration.between(started, Instant.now()).toSeconds() - 5;
    }

    private List<Pod> podsOf(String run) {
        return client().pods().inNamespace(NAMESPACE).list().getItems().stream()
                .filter(p -> belongsTo(p, run))
                .toList();
    }

    private List<HasMetadata> objectsOf(String run) {
        List<HasMetadata> objects = new ArrayList<>();
        objects.addAll(client().configMaps()
                .inNamespace(NAMESPACE)
                .withLabel("stackbench.dev/run", run)
                .list()
                .getItems());
        objects.addAll(client().apps()
                .deployments()
                .inNamespace(NAMESPACE)
                .withLabel("stackbench.dev/run", run)
                .list()
                .getItems());
        return objects;
    }

    private List<? extends HasMetadata> testRunsOf(String run) {
        return client().genericKubernetesResources(K6TestRun.CONTEXT).inNamespace(NAMESPACE).list().getItems().stream()
                .filter(t -> belongsTo(t, run))
                .toList();
    }

    /**
     * What the run left once cleaned up: pods, deployments, services, config maps, secrets, TestRuns and k6-operator's
     * jobs that carry its label or its name, waited for up to a minute (pods end after their grace period); not the
     * results it keeps on purpose (RunArtifacts: the ConfigMap {@code <run>-results}, deleted with the run).
     */
    private List<String> leftBehind(String run) {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(1));
        List<String> left = List.of();
        while (Instant.now().isBefore(deadline)) {
            KubernetesClient c = client();
            left = Stream.of(
                            c.pods().inNamespace(NAMESPACE).list().getItems(),
                            c.apps().deployments().inNamespace(NAMESPACE).list().getItems(),
                            c.services().inNamespace(NAMESPACE).list().getItems(),
                            c.configMaps().inNamespace(NAMESPACE).list().getItems(),
                            c.secrets().inNamespace(NAMESPACE).list().getItems(),
                            c.batch().v1().jobs().inNamespace(NAMESPACE).list().getItems(),
                            testRunsOf(run))
                    .flatMap(List::stream)
                    .filter(o -> belongsTo(o, run))
                    .filter(o -> !(o instanceof io.fabric8.kubernetes.api.model.ConfigMap
                            && o.getMetadata().getName().equals(run + "-results")))
                    .map(o -> o.getKind() + " " + o.getMetadata().getName())
                    .toList();
            if (left.isEmpty()) {
                return left;
            }
            sleep(Duration.ofSeconds(1));
        }
        return left;
    }

    private static boolean belongsTo(HasMetadata object, String run) {
        Map<String, String> labels =
                Optional.ofNullable(object.getMetadata().getLabels()).orElse(Map.of());
        String name = object.getMetadata().getName();
        return run.equals(labels.get("stackbench.dev/run")) || name.equals(run) || name.startsWith(run + "-");
    }

    private List<Pod> operatorPods() {
        return client().pods()
                .inNamespace(NAMESPACE)
                .withLabel("app.kubernetes.io/component", "operator")
                .list()
                .getItems();
    }

    private Lease lease() {
        return client().leases()
                .inNamespace(NAMESPACE)
                .withName(StackbenchOperator.LEASE_NAME)
                .get();
    }

    /** How many times the operator announced {@code reason} for the run (an Event's count included). */
    private int eventCount(String run, String reason) {
        return client().v1().events().inNamespace(NAMESPACE).list().getItems().stream()
                .filter(e -> run.equals(e.getInvolvedObject().getName())
                        && "BenchmarkRun".equals(e.getInvolvedObject().getKind()))
                .filter(e -> reason.equals(e.getReason()))
                .mapToInt(e -> e.getCount() == null ? 1 : e.getCount())
                .sum();
    }

    private String eventsOf(String run) {
        return client().v1().events().inNamespace(NAMESPACE).list().getItems().stream()
                .filter(e -> run.equals(e.getInvolvedObject().getName())
                        && "BenchmarkRun".equals(e.getInvolvedObject().getKind()))
                .map(FaultsE2E::describe)
                .reduce((a, b) -> a + ", " + b)
                .orElse("none");
    }

    private static String describe(Event event) {
        return event.getReason() + (event.getCount() == null || event.getCount() == 1 ? "" : " x" + event.getCount());
    }

    /** The observed end of a run, for the table: phase and reason, TestRuns, the pools, what was left. */
    private String outcome(BenchmarkRun run, Followed followed) {
        if (run == null || run.getStatus() == null) {
            return "no status";
        }
        String name = run.getMetadata().getName();
        var summary = run.getStatus().getSummary();
        String reason = Conditions.find(run.getStatus().getConditions(), Conditions.COMPLETE)
                .map(Condition::getReason)
                .orElse("?");
        return String.format(
                Locale.ROOT,
                "%s (%s), rps %s, %d warning(s); %d TestRun; pools acquired %d time(s), %s; %s after cleanup",
                run.getStatus().getPhase(),
                reason,
                summary == null ? "none" : String.format(Locale.ROOT, "%.1f", summary.getRps()),
                summary == null || summary.getWarnings() == null
                        ? 0
                        : summary.getWarnings().size(),
                followed.testRunUids.getOrDefault(name, Set.of()).size(),
                eventCount(name, "PoolsAcquired"),
                followed.podsOfPreviousAtStart.getOrDefault(name, List.of()).isEmpty()
                        ? "no pod of the run before left then"
                        : "while pods of the run before ran: " + followed.podsOfPreviousAtStart.get(name),
                followed.leftBehind.getOrDefault(name, List.of()).isEmpty()
                        ? "nothing left"
                        : "left " + followed.leftBehind.get(name));
    }

    /**
     * Everything the table's row leaves out: the run's message, warnings, the server-side check's figures, phases
     * passed and events.
     */
    private String details(BenchmarkRun run, Followed followed) {
        if (run == null || run.getStatus() == null) {
            return "no status";
        }
        String name = run.getMetadata().getName();
        var summary = run.getStatus().getSummary();
        return String.format(
                Locale.ROOT,
                "%s: %s. Warnings: %s. Server-side check: %s. Phases seen: %s. Events: %s.",
                run.getStatus().getPhase(),
                run.getStatus().getMessage(),
                summary == null || summary.getWarnings() == null ? "none" : summary.getWarnings(),
                summary == null ? "none" : server(summary.getServer()),
                followed.phases.getOrDefault(name, List.of()),
                eventsOf(name));
    }

    /** The server-side check's window, scrapes and buckets: what a disagreement with k6 is read from. */
    private static String server(ServerSummary server) {
        if (server == null) {
            return "none";
        }
        if (server.getUnavailableReason() != null && server.getRps() == null) {
            return "unavailable: " + server.getUnavailableReason();
        }
        return String.format(
                Locale.ROOT,
                "window %s to %s, %s scrapes, widest edge gap %s s, %s requests (%s/s, %s), p50 bucket %s ms (%s),"
                        + " p95 bucket %s ms (%s)",
                server.getWindowStart(),
                server.getWindowEnd(),
                server.getScrapes(),
                server.getEdgeGapSeconds(),
                server.getRequests(),
                server.getRps(),
                server.getRpsCheck(),
                Objects.toString(server.getP50BucketMs(), "none"),
                server.getP50Check(),
                Objects.toString(server.getP95BucketMs(), "none"),
                server.getP95Check());
    }

    private static Instant transition(BenchmarkRun run, String condition) {
        return Conditions.find(run.getStatus().getConditions(), condition)
                .map(c -> Instant.parse(c.getLastTransitionTime()))
                .orElse(Instant.MAX);
    }

    /** What orders a run in the pool queue: its creation time, then when the operator first saw it. */
    private static String arrival(BenchmarkRun run) {
        return run.getMetadata().getName() + " created " + run.getMetadata().getCreationTimestamp() + ", queued at "
                + (run.getStatus() == null ? null : run.getStatus().getQueuedAt());
    }

    private static Phase phase(BenchmarkRun run) {
        return run == null || run.getStatus() == null ? null : run.getStatus().getPhase();
    }

    private static boolean terminal(BenchmarkRun run) {
        return phase(run) != null && phase(run).isTerminal();
    }

    private KubernetesClient client() {
        return cluster.client();
    }

    /**
     * Applies one run and returns once the clock is past the second it was created in: the next run gets a later
     * creation time, so the queue's order is the order of applying (runs created in the same second go in the order
     * the operator first saw them, which its restarts may change).
     */
    private void apply(String name, String manifest) {
        cluster.kubectlWithInput(manifest, "apply", "-n", NAMESPACE, "-f", "-").requireSuccess();
        BenchmarkRun created = client().resources(BenchmarkRun.class)
                .inNamespace(NAMESPACE)
                .withName(name)
                .get();
        Instant nextSecond =
                Instant.parse(created.getMetadata().getCreationTimestamp()).plusSeconds(1);
        while (Instant.now().isBefore(nextSecond.plusMillis(50))) {
            sleep(Duration.ofMillis(50));
        }
    }

    /**
     * A run of webflux-r2dbc on the target, backend and load generator pools, cleaned up always: the three runs share
     * every pool, so each waits for the one before. Its timeout leaves room for the operator's restarts.
     */
    private static String run(String name, String warmup, String duration) {
        return variantRun(name, "{cpu: \"1\", memory: 1Gi}", "", warmup, duration)
                .replace("timeout: 6m", "timeout: 12m");
    }
}
