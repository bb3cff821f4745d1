package dev.stackbench.testcluster;

import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;

/**
 * A real Kubernetes control plane on 127.0.0.1 for integration tests, started with {@code hack/cluster.sh up}:
 * etcd, kube-apiserver (client certificates, Node,RBAC authorization), kube-controller-manager, kube-scheduler,
 * and kwok faking five nodes, one pool each ({@link #SYSTEM_NODE} untainted; the others labelled and tainted
 * {@value #POOL_KEY}=&lt;pool&gt;:NoSchedule). k6-operator's real TestRun CRD is installed.
 *
 * <p>Pods on the fake nodes become Ready at once and keep running; pods owned by a Job, Helm hook pods and pods
 * annotated with {@value #EXIT_CODE_ANNOTATION} finish (after {@value #RUN_DURATION_ANNOTATION}, if given). Their
 * container logs come from {@link #servePodLogs}.
 *
 * <p>Use {@link #shared()} for one cluster per test JVM (stopped by a shutdown hook), or {@link #start()} and
 * {@link #close()} for a private one. Either way the cluster also stops if the JVM is killed.
 *
 * <p>{@link #startWithRealNodes()} starts the same control plane with real nodes instead of kwok's (kubelets,
 * containerd, real containers; {@code hack/cluster.sh up --real-nodes}, root only): one node per pool, named like
 * the fake ones, with {@link #LOADGEN_NODES}' first node only. Images get into it with {@link #loadImages}.
 */
public final class TestCluster implements AutoCloseable {

    public static final String POOL_KEY = "stackbench.dev/pool";
    public static final String SYSTEM_NODE = "stackbench-system-0";
    public static final String TARGET_NODE = "stackbench-target-0";
    public static final String BACKEND_NODE = "stackbench-backend-0";
    public static final List<String> LOADGEN_NODES = List.of("stackbench-loadgen-0", "stackbench-loadgen-1");
    /** Exit code a pod's containers finish with (a pod with this annotation finishes even without a Job). */
    public static final String EXIT_CODE_ANNOTATION = "kwok.stackbench.dev/exit-code";
    /** How long a finishing pod runs first: a Go duration such as "30s". */
    public static final String RUN_DURATION_ANNOTATION = "kwok.stackbench.dev/run-duration";

    private static final Duration START_TIMEOUT = Duration.ofMinutes(4);
    /** Real nodes: containerd, kubelets, and on a cold machine the node images built from Debian packages. */
    private static final Duration REAL_NODES_START_TIMEOUT = Duration.ofMinutes(10);

    private static final Duration IMAGE_IMPORT_TIMEOUT = Duration.ofMinutes(10);
    private static final Duration STOP_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration KUBECTL_TIMEOUT = Duration.ofMinutes(2);

    private static TestCluster shared;

    private final Path repositoryRoot;
    private final Path directory;
    private final Path kubectl;
    private final Map<String, String> settings;
    private final KubernetesClient client;
    private final KwokPodLogs podLogs;
    private final List<AutoCloseable> ownedResources = new CopyOnWriteArrayList<>();
    private boolean closed;

    private TestCluster(Path repositoryRoot, Path directory, Path kubectl) {
        this.repositoryRoot = repositoryRoot;
        this.directory = directory;
        this.kubectl = kubectl;
        this.settings = readSettings(directory.resolve("cluster.env"));
        this.client = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(read(kubeconfig())))
                .build();
        this.podLogs = new KwokPodLogs(client, Path.of(settings.get("STACKBENCH_CLUSTER_POD_LOGS")));
    }

    /** The cluster shared by every test in this JVM, started on first use and stopped when the JVM exits. */
    public static synchronized TestCluster shared() {
        if (shared == null || shared.closed) {
            TestCluster cluster = start();
            Runtime.getRuntime().addShutdownHook(new Thread(cluster::close, "stackbench-test-cluster-stop"));
            shared = cluster;
        }
        return shared;
    }

    /** Starts a cluster of its own; the caller closes it. Takes seconds once hack/setup.sh built the tools. */
    public static TestCluster start() {
        return start(false);
    }

    /**
     * Starts a cluster of its own with real nodes; the caller closes it. Needs root (a bridge, network namespaces,
     * cgroups) and the node tools of hack/setup.sh.
     */
    public static TestCluster startWithRealNodes() {
        return start(true);
    }

    /** Whether this process may start real nodes: they need root. */
    public static boolean canStartRealNodes() {
        return "root".equals(System.getProperty("user.name"));
    }

    /**
     * Skips a real-node test where it cannot run (not root), except under CI, where it fails: CI must run them.
     */
    public static void assumeRealNodes() {
        if (canStartRealNodes()) {
            return;
        }
        if ("true".equals(System.getenv("CI"))) {
            fail("the real-node E2E tests need root (a bridge, network namespaces, cgroups); CI must run them");
        }
        Assumptions.abort("real nodes need root: run hack/test.sh as root to include the E2E tests");
    }

    /** What this machine's state is, as far as a real-node cluster changes it (hack/cluster/host-state.sh). */
    public static String hostState() {
        Path root = ProjectTools.repositoryRoot();
        return CommandResult.run(
                        List.of(
                                "bash",
                                root.resolve("hack/cluster/host-state.sh").toString()),
                        null,
                        Duration.ofMinutes(1),
                        root)
                .requireSuccess()
                .stdout();
    }

    /**
     * Undoes what a real-node cluster whose processes were all killed left on this machine (its bridge, mounts,
     * namespaces, cgroups, chains); leaves a running one alone. {@code up --real-nodes} does the same first.
     */
    public static void removeRealNodeLeftovers() {
        Path root = ProjectTools.repositoryRoot();
        CommandResult result = CommandResult.run(
                List.of("bash", root.resolve("hack/cluster.sh").toString(), "leftovers"), null, STOP_TIMEOUT, root);
        if (!result.succeeded()) {
            throw new IllegalStateException(
                    "removing a killed real-node cluster's leftovers failed:\n" + result.describe());
        }
        System.err.print(result.stderr());
    }

    private static TestCluster start(boolean realNodes) {
        Path root = ProjectTools.repositoryRoot();
        Path kubectl = ProjectTools.requireExecutable("STACKBENCH_KUBECTL", "kubectl for the test cluster");
        Path directory;
        try {
            directory = Files.createTempDirectory("stackbench-cluster-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory for the test cluster", e);
        }
        List<String> command = new ArrayList<>(List.of(
                "bash",
                root.resolve("hack/cluster.sh").toString(),
                "up",
                "--dir",
                directory.toString(),
                "--owner-pid",
                Long.toString(ProcessHandle.current().pid())));
        thirdPartyCrds().ifPresent(dir -> command.addAll(List.of("--third-party-crds", dir)));
        if (realNodes) {
            command.add("--real-nodes");
        }
        CommandResult result =
                CommandResult.run(command, null, realNodes ? REAL_NODES_START_TIMEOUT : START_TIMEOUT, root);
        if (!result.succeeded()) {
            // cluster.sh removes what it started; a start refused before that leaves the empty directory.
            deleteQuietly(directory);
            throw new IllegalStateException("the test cluster did not start (if tools are missing, run "
                    + "hack/setup.sh):\n" + result.describe());
        }
        // The start time and where the component logs are, for whoever reads the test output.
        System.err.print(result.stderr());
        try {
            return new TestCluster(root, directory, kubectl);
        } catch (RuntimeException e) {
            stop(root, directory);
            throw e;
        }
    }

    private static Optional<String> thirdPartyCrds() {
        String property = System.getProperty("stackbench.thirdPartyCrds");
        if (property != null && !property.isBlank()) {
            return Optional.of(property);
        }
        return ProjectTools.toolSetting("STACKBENCH_THIRD_PARTY_CRDS");
    }

    /** Whether the nodes are real (kubelets running containers) rather than kwok's. */
    public boolean hasRealNodes() {
        return "1".equals(settings.get("STACKBENCH_CLUSTER_REAL_NODES"));
    }

    /** Imports image tarballs ({@code docker save} format, e.g. Jib's) into every real node's containerd. */
    public void loadImages(List<Path> tars) {
        loadImages(tars, tar -> List.of());
    }

    /**
     * Imports image tarballs into the containerd of the real nodes of the pools {@code pools} names for each (system,
     * target, backend, loadgen); an empty list means every node. A node that never runs an image spends no time
     * unpacking it.
     */
    public void loadImages(List<Path> tars, Function<Path, List<String>> pools) {
        if (!hasRealNodes()) {
            throw new IllegalStateException("kwok's nodes run no images: start the cluster with startWithRealNodes()");
        }
        List<String> command = new ArrayList<>(List.of(
                "bash",
                repositoryRoot.resolve("hack/cluster.sh").toString(),
                "load-images",
                "--dir",
                directory.toString()));
        for (Path tar : tars) {
            List<String> into = pools.apply(tar);
            command.add(into.isEmpty() ? tar.toString() : String.join(",", into) + "=" + tar);
        }
        CommandResult result = CommandResult.run(command, null, IMAGE_IMPORT_TIMEOUT, repositoryRoot);
        if (!result.succeeded()) {
            throw new IllegalStateException("importing images into the nodes failed:\n" + result.describe());
        }
        System.err.print(result.stderr());
    }

    /**
     * Stops the kubelet of one real node (its containerd and the pods' containers go on running): the node stops
     * renewing its Lease and reporting status, and its pods' logs and CPU counters cannot be read, as when a kubelet
     * dies. {@link #startKubelet} brings it back.
     */
    public void stopKubelet(String node) {
        faultCommand("stop-kubelet", node);
    }

    /** Starts a kubelet {@link #stopKubelet} stopped again; returns once its node is Ready. */
    public void startKubelet(String node) {
        faultCommand("start-kubelet", node);
    }

    /**
     * Kills the API server (as a crash would) and starts it again on the same address; returns once it is ready.
     * Every client's connections and watches break, and requests are refused meanwhile.
     */
    public void restartApiServer() {
        faultCommand("restart-apiserver");
    }

    private void faultCommand(String command, String... arguments) {
        if (!hasRealNodes()) {
            throw new IllegalStateException(command + " needs real nodes: start the cluster with startWithRealNodes()");
        }
        List<String> line = new ArrayList<>(List.of(
                "bash", repositoryRoot.resolve("hack/cluster.sh").toString(), command, "--dir", directory.toString()));
        line.addAll(List.of(arguments));
        CommandResult result = CommandResult.run(line, null, STOP_TIMEOUT, repositoryRoot);
        if (!result.succeeded()) {
            throw new IllegalStateException(command + " failed:\n" + result.describe());
        }
        System.err.print(result.stderr());
    }

    /** An administrator client (group system:masters). Owned by the cluster: do not close it. */
    public KubernetesClient client() {
        return client;
    }

    /** The administrator kubeconfig. */
    public Path kubeconfig() {
        return directory.resolve("kubeconfig");
    }

    /** The directory holding everything of this cluster, including component logs under logs/. */
    public Path directory() {
        return directory;
    }

    public String apiServerUrl() {
        return settings.get("STACKBENCH_CLUSTER_API_URL");
    }

    /** Runs the kubectl built with the cluster, as administrator, and returns what it printed. */
    public CommandResult kubectl(String... args) {
        return kubectlWithInput(null, args);
    }

    /**
     * Starts kubectl as administrator without waiting for it (e.g. {@code get benchmarkruns -w}), its output and
     * errors going to {@code output}; the caller destroys it.
     */
    public Process kubectlInBackground(Path output, String... args) throws java.io.IOException {
        List<String> command = new ArrayList<>(
                List.of(kubectl.toString(), "--kubeconfig", kubeconfig().toString()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command)
                .directory(repositoryRoot.toFile())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
    }

    /** Runs kubectl with the given text on its standard input (e.g. {@code apply -f -}). */
    public CommandResult kubectlWithInput(String stdin, String... args) {
        List<String> command = new ArrayList<>(
                List.of(kubectl.toString(), "--kubeconfig", kubeconfig().toString()));
        command.addAll(List.of(args));
        return CommandResult.run(command, stdin, KUBECTL_TIMEOUT, repositoryRoot);
    }

    /**
     * A client authenticated as the ServiceAccount with a real token from the TokenRequest API, so RBAC applies
     * exactly as to a pod running under it. Closed with the cluster (closing it earlier is fine too).
     */
    public KubernetesClient clientForServiceAccount(String namespace, String serviceAccount) {
        TokenRequest request = new TokenRequestBuilder()
                .withNewSpec()
                .withExpirationSeconds(3600L)
                .endSpec()
                .build();
        String token = client.serviceAccounts()
                .inNamespace(namespace)
                .withName(serviceAccount)
                .tokenRequest(request)
                .getStatus()
                .getToken();
        Config config = new ConfigBuilder(client.getConfiguration())
                .withClientCertData(null)
                .withClientCertFile(null)
                .withClientKeyData(null)
                .withClientKeyFile(null)
                .withOauthToken(token)
                .withNamespace(namespace)
                .build();
        KubernetesClient serviceAccountClient =
                new KubernetesClientBuilder().withConfig(config).build();
        ownedResources.add(serviceAccountClient);
        return serviceAccountClient;
    }

    /**
     * Creates a namespace named {@code <prefix>-<random>} and waits for its default ServiceAccount, without
     * which the API server refuses pods.
     */
    public String createNamespace(String prefix) {
        String name =
                prefix + "-" + UUID.randomUUID().toString().substring(0, 8).toLowerCase(Locale.ROOT);
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .build())
                .create();
        await("default ServiceAccount in namespace " + name)
                .atMost(Duration.ofSeconds(60))
                .until(() -> client.serviceAccounts()
                                .inNamespace(name)
                                .withName("default")
                                .get()
                        != null);
        return name;
    }

    /**
     * Makes the pod's container logs (every container, through {@code kubectl logs} and the pod log API) return
     * exactly {@code content}. The pod may be created before or after this call. If it is already on a node,
     * returns once the log API serves it.
     */
    public Path servePodLogs(String namespace, String podName, String content) {
        Path file = podLogs.writeLogFile(namespace, podName, content);
        podLogs.register(namespace, podName, file, null);
        Pod pod = client.pods().inNamespace(namespace).withName(podName).get();
        if (pod != null && pod.getSpec().getNodeName() != null) {
            await("kwok serving the logs of pod " + namespace + "/" + podName)
                    .atMost(Duration.ofSeconds(30))
                    .ignoreExceptionsInstanceOf(KubernetesClientException.class)
                    .until(() -> client.pods()
                                    .inNamespace(namespace)
                                    .withName(podName)
                                    .getLog()
                            != null);
        }
        return file;
    }

    /**
     * Serves {@code content} as the logs of every pod in the namespace carrying these labels, including pods
     * created later (e.g. by a Job), until the returned handle is closed. A pod's logs are served moments after
     * it appears, so poll for them (awaitility) rather than reading once.
     */
    public PodLogServing servePodLogs(String namespace, Map<String, String> podLabels, String content) {
        return servePodLogs(namespace, podLabels, pod -> content);
    }

    /**
     * Like {@link #servePodLogs(String, Map, String)}, with content chosen per pod, e.g. a different k6 output
     * for each runner (by its labels or name).
     */
    public PodLogServing servePodLogs(
            String namespace, Map<String, String> podLabels, Function<Pod, String> contentForPod) {
        PodLogServing serving = new PodLogServing(podLogs, namespace, podLabels, contentForPod);
        ownedResources.add(serving);
        return serving;
    }

    /**
     * Kills (SIGKILL) every process of this cluster, its watcher first, the way a machine that kills a test run
     * and all its children would, and forgets the cluster without stopping it: what it changed on the machine stays,
     * for {@link #removeRealNodeLeftovers()} to undo. The pods' own processes are left to that too.
     *
     * @return the processes killed
     */
    public synchronized List<ProcessHandle> killEveryProcess() {
        Pattern ofThisCluster = Pattern.compile(Pattern.quote(directory.toString()) + "(/|\\s|$)");
        List<ProcessHandle> processes = ProcessHandle.allProcesses()
                .filter(p -> ofThisCluster.matcher(commandLine(p)).find())
                .sorted(Comparator.comparing(p -> !commandLine(p).contains(" _watch ")))
                .toList();
        processes.forEach(ProcessHandle::destroyForcibly);
        processes.forEach(p -> await().atMost(Duration.ofSeconds(30)).until(() -> !p.isAlive()));
        closed = true;
        client.close();
        return processes;
    }

    private static String commandLine(ProcessHandle process) {
        return process.info().commandLine().orElse("");
    }

    /** The name containerd gives the image of a node image tarball of this cluster (images/NAME.tar). */
    public String nodeImage(String name) {
        Path tar = directory.resolve("images").resolve(name + ".tar");
        CommandResult manifest = CommandResult.run(
                        List.of("tar", "-xOf", tar.toString(), "manifest.json"),
                        null,
                        Duration.ofSeconds(30),
                        repositoryRoot)
                .requireSuccess();
        try {
            return new ObjectMapper()
                    .readTree(manifest.stdout())
                    .get(0)
                    .get("RepoTags")
                    .get(0)
                    .asText();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the image name in " + tar, e);
        }
    }

    /** Stops every process of the cluster and removes its directory. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (AutoCloseable resource : ownedResources) {
            try {
                resource.close();
            } catch (Exception e) {
                System.err.println("closing " + resource + " failed: " + e);
            }
        }
        client.close();
        stop(repositoryRoot, directory);
    }

    private static void stop(Path repositoryRoot, Path directory) {
        CommandResult result = CommandResult.run(
                List.of(
                        "bash",
                        repositoryRoot.resolve("hack/cluster.sh").toString(),
                        "down",
                        "--dir",
                        directory.toString()),
                null,
                STOP_TIMEOUT,
                repositoryRoot);
        if (!result.succeeded()) {
            throw new IllegalStateException("stopping the test cluster failed:\n" + result.describe());
        }
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // A leftover temp file is harmless; the command's result matters more.
            }
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private static Map<String, String> readSettings(Path envFile) {
        Map<String, String> values = new HashMap<>();
        for (String line : read(envFile).split("\n")) {
            int equals = line.indexOf('=');
            if (equals > 0) {
                values.put(line.substring(0, equals), line.substring(equals + 1));
            }
        }
        return values;
    }
}
