package dev.stackbench.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.stackbench.testcluster.CommandResult;
import dev.stackbench.testcluster.MachineTurn;
import dev.stackbench.testcluster.ProjectTools;
import dev.stackbench.testcluster.TestCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The chart as released, on the test cluster with real nodes: the machine's turn taken, the cluster started, the image
 * tars of this build imported into the nodes that run them, and the chart installed with helm together with the real
 * k6-operator, in a namespace that enforces Pod Security "restricted". {@link #stop} takes it all down, keeps the
 * components' logs, and checks that the machine is as it was before. Shared by the end-to-end classes on real nodes.
 * Inside {@code RealNodesSuite} a class may {@link #handOver hand} its plain release (no extra helm arguments) to the
 * next class instead of stopping it, with its runs deleted: one cluster start, image import and install fewer. A class
 * that needs extra arguments gets the handed-over release upgraded with them, as a user would change an installed one.
 */
public final class RealNodesRelease {

    /** Set by the suite: a release handed over outlives its class for the next one in this JVM. */
    private static final String HAND_OVER_PROPERTY = "stackbench.realNodes.handOver";

    /** How long the runs of a class handing its release over may take to be deleted with their pods. */
    private static final Duration RUNS_GONE = Duration.ofMinutes(3);

    /** The release the last class handed over, until the next class takes it or the suite ends. */
    private static RealNodesRelease handedOver;

    static final String NAMESPACE = "stackbench";
    static final String RELEASE = "sb";
    /** Each run's own PostgreSQL: the image hack/cluster.sh built from Debian's packages. */
    static final String RUN_DATABASE_IMAGE = "stackbench/postgres:15";

    /**
     * The node pools whose pods run each image: the chart's pods (kube-prometheus-stack's included), k6-operator's
     * starter and the helm test on the untainted system node, the target on the target node, each run's database (with
     * its exporter) and delay service on the backend node,
     * k6's initializer and runners on the load generator. An image not named here goes into every node. The node
     * images (pause, postgres, busybox), which the chart's image directory holds too, are in every node from the
     * cluster's start.
     */
    private static final Map<String, List<String>> IMAGE_POOLS = Map.ofEntries(
            Map.entry("operator.tar", List.of("system")),
            Map.entry("k6-operator.tar", List.of("system")),
            Map.entry("k6-starter.tar", List.of("system")),
            Map.entry("mvc-app.tar", List.of("target")),
            Map.entry("webflux-app.tar", List.of("target")),
            Map.entry("delay-service.tar", List.of("backend")),
            Map.entry("k6.tar", List.of("loadgen")),
            Map.entry("prometheus-operator.tar", List.of("system")),
            Map.entry("prometheus-config-reloader.tar", List.of("system")),
            Map.entry("prometheus.tar", List.of("system")),
            Map.entry("postgres-exporter.tar", List.of("backend")));

    private static final Set<String> NODE_IMAGES = Set.of("pause.tar", "postgres.tar", "busybox.tar");

    private String holder;
    private List<String> helmArguments = List.of();
    private final Path root = ProjectTools.repositoryRoot();
    private MachineTurn turn;
    private String hostStateBefore;
    private TestCluster cluster;
    private OfflineChart chart;

    private RealNodesRelease(String holder) {
        this.holder = holder;
    }

    /**
     * Takes the machine's turn, starts the cluster and installs the chart; {@code measured} gets the times each part
     * took. Skips (or under CI fails) without root.
     */
    static RealNodesRelease install(String holder, Map<String, String> measured) {
        return install(holder, measured, List.of());
    }

    /** As {@link #install(String, Map)}, with extra helm arguments (e.g. {@code --set} of a dependency). */
    static RealNodesRelease install(String holder, Map<String, String> measured, List<String> helmArguments) {
        TestCluster.assumeRealNodes();
        if (handedOver != null) {
            RealNodesRelease release = handedOver;
            handedOver = null;
            measured.put("cluster", "handed over by " + release.holder);
            release.holder = holder;
            MachineTurn.busy(holder);
            if (!helmArguments.isEmpty()) {
                release.changeValues(helmArguments, measured);
            }
            return release;
        }
        RealNodesRelease release = new RealNodesRelease(holder);
        release.helmArguments = List.copyOf(helmArguments);
        // Held until the host's state is checked again after the cluster is gone (another real-node class may run in
        // another test JVM beside this one).
        release.turn = MachineTurn.take(holder);
        // Starting the cluster, importing images and installing the chart work the machine beside the fake-node
        // classes of the other test JVM.
        MachineTurn.busy(holder);
        release.start(measured, helmArguments);
        return release;
    }

    private void start(Map<String, String> measured, List<String> helmArguments) {
        List<Path> images = imageTars();
        // The state to come back to is this machine's without a killed cluster's remains, which the start removes.
        TestCluster.removeRealNodeLeftovers();
        hostStateBefore = TestCluster.hostState();
        Instant began = Instant.now();
        cluster = TestCluster.startWithRealNodes();
        measured.put("nodes.coldStartSeconds", seconds(began));
        Instant importing = Instant.now();
        cluster.loadImages(
                images, tar -> IMAGE_POOLS.getOrDefault(tar.getFileName().toString(), List.of()));
        measured.put("images.importSeconds", seconds(importing));
        measured.put("images.count", Integer.toString(images.size()));

        cluster.kubectl("create", "namespace", NAMESPACE).requireSuccess();
        cluster.kubectl(
                        "label",
                        "namespace",
                        NAMESPACE,
                        "pod-security.kubernetes.io/enforce=restricted",
                        "pod-security.kubernetes.io/enforce-version=latest")
                .requireSuccess();
        chart = OfflineChart.create();
        Instant installing = Instant.now();
        String busybox = cluster.nodeImage("busybox");
        List<String> install = helmCommand("install");
        install.addAll(List.of(
                "--set",
                "k6.installOperator=true",
                "--set",
                "database.image=" + RUN_DATABASE_IMAGE,
                // The shared database (hack/cluster/postgresql.yaml) one run names as external: allowed by
                // the cluster's admission policy.
                "--set",
                "policy.externalDatabases.allowedHosts={stackbench-postgresql}",
                "--set",
                "test.image.repository=" + repository(busybox),
                "--set",
                "test.image.tag=" + tag(busybox)));
        install.addAll(helmArguments);
        chart.helm(install).requireSuccess();
        measured.put("helm.installSeconds", seconds(installing));
    }

    /**
     * Changes a handed-over plain release the way a user changes an installed one, with {@code helm upgrade}: the
     * CRDs kube-prometheus-stack brings applied first when the arguments switch it on, since helm installs a
     * dependency's CRDs with {@code helm install} only. A change that fails stops the cluster (its logs kept) and
     * gives up the machine's turn, since no {@code @AfterAll} of the class will.
     */
    private void changeValues(List<String> extraArguments, Map<String, String> measured) {
        Instant changing = Instant.now();
        try {
            if (extraArguments.contains("kube-prometheus-stack.enabled=true")) {
                Path crds = chart.prometheusOperatorCrds();
                cluster.kubectl("apply", "--server-side", "-f", crds.toString()).requireSuccess();
                cluster.kubectl("wait", "--for=condition=Established", "--timeout=60s", "-f", crds.toString())
                        .requireSuccess();
            }
            upgrade(extraArguments);
            helmArguments = List.copyOf(extraArguments);
        } catch (RuntimeException | AssertionError e) {
            try {
                stop(holder + "-cluster-logs");
            } catch (IOException | RuntimeException | AssertionError stopFailure) {
                e.addSuppressed(stopFailure);
            } finally {
                releaseTurn();
            }
            throw e;
        }
        measured.put("helm.upgradeSeconds", seconds(changing));
    }

    /** {@code helm upgrade} of the release with the values it has plus the given arguments, waiting for it. */
    void upgrade(List<String> helmArguments) {
        List<String> upgrade = helmCommand("upgrade");
        upgrade.add("--reuse-values");
        upgrade.addAll(helmArguments);
        chart.helm(upgrade).requireSuccess();
    }

    /** A helm command on the release in this cluster that waits up to 5 minutes for its resources. */
    private List<String> helmCommand(String verb) {
        return new ArrayList<>(List.of(
                verb,
                RELEASE,
                "chart",
                "--kubeconfig",
                cluster.kubeconfig().toString(),
                "--namespace",
                NAMESPACE,
                "--wait",
                "--timeout",
                "5m"));
    }

    TestCluster cluster() {
        return cluster;
    }

    OfflineChart chart() {
        return chart;
    }

    Path root() {
        return root;
    }

    /**
     * Takes the cluster down, keeping the components' logs and the operator's in {@code operator/target/e2e/<logs>},
     * then checks that everything the real nodes changed on this machine is undone. The machine's turn stays taken
     * until {@link #releaseTurn}.
     */
    void stop(String logs) throws IOException {
        if (chart != null) {
            chart.close();
        }
        if (cluster != null) {
            keepLogs(logs);
            cluster.close();
        }
        if (hostStateBefore != null) {
            // No process, mount, bridge, network namespace, iptables rule, nftables table, cgroup or kernel setting is
            // left behind.
            assertThat(TestCluster.hostState()).isEqualTo(hostStateBefore);
        }
    }

    /**
     * Inside the suite, for a release without extra helm arguments: keeps the logs so far, deletes every comparison and
     * run in the namespace and waits until their pods are gone, and leaves the cluster and the machine's turn to the
     * next class ({@link #releaseTurn} then ends only this class's busy hold). Elsewhere {@link #stop}.
     */
    void handOver(String logs) throws IOException {
        if (!Boolean.getBoolean(HAND_OVER_PROPERTY) || !helmArguments.isEmpty() || cluster == null) {
            stop(logs);
            return;
        }
        keepLogs(logs);
        try {
            // Comparisons first: a comparison whose runs went would start new ones.
            for (String kind : List.of("benchmarkcomparisons", "benchmarkruns")) {
                cluster.kubectl("delete", kind, "--all", "-n", NAMESPACE, "--wait=true", "--timeout=180s")
                        .requireSuccess();
            }
            Instant deadline = Instant.now().plus(RUNS_GONE);
            while (!cluster.client()
                    .pods()
                    .inNamespace(NAMESPACE)
                    .withLabel("stackbench.dev/run")
                    .list()
                    .getItems()
                    .isEmpty()) {
                if (Instant.now().isAfter(deadline)) {
                    fail("the pods of the deleted runs were still there after " + RUNS_GONE.toSeconds()
                            + " s; the next class needs the cluster without them");
                }
                sleep(Duration.ofSeconds(1));
            }
        } catch (RuntimeException | AssertionError e) {
            // Not fit for the next class: it starts its own.
            stop(logs);
            throw e;
        }
        handedOver = this;
    }

    /** Called by the suite before its first class: a class may hand its release over. */
    public static void handOverBetweenClasses() {
        System.setProperty(HAND_OVER_PROPERTY, "true");
    }

    /**
     * Called by the suite after its last class: stops a release no class took (the last class stops its own), with
     * the host's check.
     */
    public static void stopHandedOver() throws IOException {
        System.clearProperty(HAND_OVER_PROPERTY);
        RealNodesRelease release = handedOver;
        handedOver = null;
        if (release != null) {
            try {
                release.stop(release.holder + "-cluster-logs");
            } finally {
                release.releaseTurn();
            }
        }
    }

    /** Ends this class's busy hold and, unless the cluster was handed over, gives the turn to the next class. */
    void releaseTurn() {
        MachineTurn.idle();
        if (turn != null && handedOver != this) {
            turn.close();
        }
    }

    /**
     * Copies the components' logs (kubelets, containerds, kube-proxy, CoreDNS, control plane) and the operator's own
     * log, the one place that says what it read from the kubelets and when, to {@code operator/target/e2e/<logs>}.
     */
    private void keepLogs(String logs) throws IOException {
        Path kept = root.resolve("operator/target/e2e").resolve(logs);
        Commands.deleteTree(kept);
        copyTree(cluster.directory().resolve("logs"), kept);
        CommandResult operatorLog =
                cluster.kubectl("logs", "-n", NAMESPACE, "-l", "app.kubernetes.io/component=operator", "--tail=-1");
        Files.writeString(kept.resolve("operator.log"), operatorLog.stdout() + operatorLog.stderr());
    }

    /** The tars hack/images.sh (or the test build with the images profile) produced: stackbench's and k6's. */
    private List<Path> imageTars() {
        List<Path> tars = new ArrayList<>();
        for (String dir : List.of(
                "operator/target/images",
                "targets/mvc-app/target/images",
                "targets/webflux-app/target/images",
                "targets/delay-service/target/images")) {
            Path images = root.resolve(dir);
            if (Files.isDirectory(images)) {
                try (Stream<Path> files = Files.list(images)) {
                    files.filter(f -> f.toString().endsWith(".tar"))
                            .filter(f -> !NODE_IMAGES.contains(f.getFileName().toString()))
                            .sorted()
                            .forEach(tars::add);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        List<String> names = tars.stream().map(p -> p.getFileName().toString()).toList();
        if (!names.containsAll(IMAGE_POOLS.keySet())) {
            fail("the image tars are missing (found " + names + "): build them with hack/images.sh, or run the tests"
                    + " through hack/test.sh, which builds them with the images profile");
        }
        return tars;
    }

    private static String repository(String reference) {
        return reference.substring(0, reference.lastIndexOf(':'));
    }

    private static String tag(String reference) {
        return reference.substring(reference.lastIndexOf(':') + 1);
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else if (Files.isRegularFile(path)) {
                    Files.copy(path, target);
                }
            }
        }
    }

    static String seconds(Instant since) {
        return String.format(
                Locale.ROOT, "%.1f", Duration.between(since, Instant.now()).toMillis() / 1000.0);
    }

    /** A run of webflux-r2dbc in the example's pools at 30 requests/s, with the given name and target sizing. */
    static String variantRun(String name, String resources, String jvmOptions, String warmup, String duration) {
        return """
                apiVersion: stackbench.dev/v1alpha1
                kind: BenchmarkRun
                metadata:
                  name: %s
                spec:
                  target:
                    variant: webflux-r2dbc
                    resources: %s
                    jvmOptions: "%s"
                  placement:
                    target:
                      nodeSelector: {stackbench.dev/pool: target}
                      tolerations: [{key: stackbench.dev/pool, operator: Equal, value: target, effect: NoSchedule}]
                    backend:
                      nodeSelector: {stackbench.dev/pool: backend}
                      tolerations: [{key: stackbench.dev/pool, operator: Equal, value: backend, effect: NoSchedule}]
                    loadgen:
                      nodeSelector: {stackbench.dev/pool: loadgen}
                      tolerations: [{key: stackbench.dev/pool, operator: Equal, value: loadgen, effect: NoSchedule}]
                  backend:
                    delayService: {resources: {cpu: "1", memory: 1Gi}}
                  workload:
                    scenario: upstream
                    upstreamDelay: 100ms
                    load: {executor: constant-arrival-rate, rate: 30, vus: 50}
                    warmup: %s
                    duration: %s
                  cleanup: Always
                  timeout: 6m
                """.formatted(name, resources, jvmOptions, warmup, duration);
    }

    static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public String toString() {
        return "the chart on real nodes for " + holder;
    }
}
