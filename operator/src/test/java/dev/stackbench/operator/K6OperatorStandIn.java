package dev.stackbench.operator;

import dev.stackbench.operator.objects.K6TestRun;
import dev.stackbench.operator.objects.ReadinessGate;
import dev.stackbench.testcluster.PodLogServing;
import dev.stackbench.testcluster.ProjectTools;
import dev.stackbench.testcluster.TestCluster;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A test-side STAND-IN FOR k6-operator, which cannot be built on these machines (its module is refused by the Go
 * module proxy). It follows k6-operator's documented behaviour for the parts stackbench relies on:
 * <ul>
 *   <li>moves each TestRun's {@code status.stage} through initialization, initialized, created, started, finished,
 *       or to error when the initializer fails;
 *   <li>first runs the initializer Job {@code <testrun>-initializer} unless {@code spec.initializer.disabled} (labels {@code app=k6, k6_cr=<testrun>} plus
 *       {@code runner.metadata.labels}; placement, image and resources from {@code spec.initializer}, not from the
 *       runner) and waits for it to succeed;
 *   <li>creates one runner Job per {@code parallelism}, named {@code <testrun>-<n>}, owned by the TestRun, whose pods
 *       are labelled {@code app=k6, k6_cr=<testrun>, runner=true} plus {@code runner.metadata.labels}, placed by
 *       {@code runner.nodeSelector/tolerations}, sized by {@code runner.resources}, with the documented command line
 *       ({@code k6 run --quiet --execution-segment ... <arguments> <script> --address=0.0.0.0:6565 --paused
 *       --tag instance_id=<n> --tag testrun_name=<testrun>});
 *   <li>starts the load only once every runner pod is Running and Ready, through a starter Job
 *       {@code <testrun>-starter} (labels {@code app=k6, k6_cr=<testrun>}, no tolerations) that must complete, so a
 *       runner that cannot be scheduled holds the TestRun in {@code created};
 *   <li>reports {@code finished} whether or not the runners succeeded, as open-source k6-operator does.
 * </ul>
 * The load is real: for each runner it runs the real k6 binary ({@code STACKBENCH_K6}) on the script from the
 * TestRun's ConfigMap, with that runner's execution segment, against a real target on 127.0.0.1 (the TestRun's
 * base URL, a cluster DNS name, is replaced by the local one). Runner pods live on kwok's fake nodes, where they
 * wait like paused runners; once its k6 has exited, the stand-in, playing the kubelet, writes k6's exit code into
 * the pod's container status, a second later the pod's phase (the Job controller then completes or fails the Job),
 * and k6's output is served as the pod's log through the real pod log API. Differences from k6-operator: no
 * initializer or starter pods, and the runners' REST API listens on a free 127.0.0.1 port. The initializer and starter pods finish at once on kwok (their
 * k6 inspect and curl are not run), and so do the runners' init containers: a runner behind the readiness gate is
 * started only once its run's target and delay-service Deployments are Ready, as the gate would let it, and a
 * runner started unpaused ({@code spec.paused: "false"}) does not wait for the starter.
 */
final class K6OperatorStandIn implements AutoCloseable {

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
            new com.fasterxml.jackson.databind.ObjectMapper();

    /** How long after its k6 exited a runner pod is marked finished, as a kubelet does once the pod is torn down. */
    static final Duration SANDBOX_TEARDOWN = Duration.ofSeconds(1);

    private final TestCluster cluster;
    private final KubernetesClient client;
    private final String namespace;
    private final String localBaseUrl;
    private final Path k6;
    private final Path workDirectory;
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "k6-operator-stand-in");
        thread.setDaemon(true);
        return thread;
    });
    private final Map<String, List<Runner>> runnersByTestRun = new ConcurrentHashMap<>();
    /** When each TestRun's runners were released (their k6 exited), by uid; their pods end a moment later. */
    private final Map<String, Instant> released = new ConcurrentHashMap<>();
    /** The TestRuns whose runner pods are marked finished. */
    private final Set<String> podsEnded = ConcurrentHashMap.newKeySet();

    private final List<PodLogServing> logServings = new CopyOnWriteArrayList<>();
    private final Set<Integer> brokenRunners = ConcurrentHashMap.newKeySet();
    /** Runners broken in one TestRun only, as "<testrun>#<n>". */
    private final Set<String> brokenRunnersOf = ConcurrentHashMap.newKeySet();

    private final List<String> runnerOutputs = new CopyOnWriteArrayList<>();
    private volatile Throwable failure;
    private volatile boolean initializerBroken;

    /** One k6 process standing for one runner Job. */
    private record Runner(int index, String jobName, Process process, Path output) {}

    /**
     * @param localBaseUrl where the target really listens, e.g. http://127.0.0.1:41234
     */
    K6OperatorStandIn(TestCluster cluster, String namespace, String localBaseUrl) {
        this.cluster = cluster;
        this.client = cluster.client();
        this.namespace = namespace;
        this.localBaseUrl = localBaseUrl;
        this.k6 = ProjectTools.requireExecutable("STACKBENCH_K6", "k6 for the runners of the k6-operator stand-in");
        try {
            this.workDirectory = Files.createTempDirectory("k6-operator-stand-in-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        loop.scheduleWithFixedDelay(this::reconcileAll, 0, 250, TimeUnit.MILLISECONDS);
    }

    /** Makes runner n (1-based) fail for real: its k6 gets an option k6 rejects, so k6 exits with an error. */
    K6OperatorStandIn breakRunner(int index) {
        brokenRunners.add(index);
        return this;
    }

    /** Makes runner n (1-based) of the named TestRun fail for real, as {@link #breakRunner(int)} does for all. */
    K6OperatorStandIn breakRunner(int index, String testRun) {
        brokenRunnersOf.add(testRun + "#" + index);
        return this;
    }

    /** Makes the initializer Job fail, as it does when k6 cannot archive or inspect the script. */
    K6OperatorStandIn breakInitializer() {
        initializerBroken = true;
        return this;
    }

    /** What each runner's k6 printed (stdout then stderr), in the order the runners finished. */
    List<String> runnerOutputs() {
        return List.copyOf(runnerOutputs);
    }

    /** A failure of the stand-in itself (not of k6), so tests can report it instead of timing out silently. */
    Throwable failure() {
        return failure;
    }

    private void reconcileAll() {
        Throwable failed = TestRunJobs.reconcileAll(client, namespace, "k6-operator stand-in", this::reconcile);
        if (failed != null) {
            failure = failed;
        }
    }

    /** spec.initializer.disabled: k6-operator then skips the initializer and goes to stage initialized. */
    private static boolean initializerDisabled(GenericKubernetesResource testRun) {
        return Boolean.TRUE.equals(testRun.get("spec", "initializer", "disabled"));
    }

    private void reconcile(GenericKubernetesResource testRun) throws IOException {
        String name = testRun.getMetadata().getName();
        String stage = K6TestRun.stage(testRun);
        if (stage == null) {
            if (initializerDisabled(testRun)) {
                setStage(name, "initialized");
            } else {
                createHelperJob(testRun, "initializer");
                setStage(name, "initialization");
            }
        } else if ("initialization".equals(stage)) {
            Boolean initialized = helperJobOutcome(name + "-initializer");
            if (initialized != null) {
                setStage(name, initialized ? "initialized" : "error");
            }
        } else if ("initialized".equals(stage)) {
            createRunnerJobs(testRun);
            setStage(name, "created");
        } else if ("created".equals(stage)) {
            int parallelism =
                    ((Number) map(testRun.getAdditionalProperties().get("spec")).get("parallelism")).intValue();
            if (!allRunnersReady(name, parallelism) || !gatePassed(testRun)) {
                return;
            }
            if (client.batch()
                            .v1()
                            .jobs()
                            .inNamespace(namespace)
                            .withName(name + "-starter")
                            .get()
                    == null) {
                createHelperJob(testRun, "starter");
            }
            // Runners started unpaused (spec.paused "false") send load from their start, without the starter.
            if (!ReadinessGate.unpaused(testRun) && !Boolean.TRUE.equals(helperJobOutcome(name + "-starter"))) {
                return;
            }
            runnersByTestRun.computeIfAbsent(testRun.getMetadata().getUid(), uid -> startK6(testRun));
            setStage(name, "started");
        } else if ("started".equals(stage)) {
            List<Runner> runners = runnersByTestRun.get(testRun.getMetadata().getUid());
            if (runners == null
                    || runners.stream().anyMatch(runner -> runner.process().isAlive())) {
                return;
            }
            String uid = testRun.getMetadata().getUid();
            if (released.putIfAbsent(uid, Instant.now()) == null) {
                runners.forEach(this::release);
                return;
            }
            if (Instant.now().isAfter(released.get(uid).plus(SANDBOX_TEARDOWN)) && podsEnded.add(uid)) {
                runners.forEach(this::endPods);
            }
            if (runnersFinishedAndLogsServed(name, runners)) {
                setStage(name, "finished");
            }
        }
    }

    private void setStage(String testRun, String stage) {
        TestRunJobs.setStage(client, namespace, testRun, stage);
    }

    /**
     * k6-operator's initializer or starter Job: labelled app=k6 and k6_cr; the initializer also carries the runner's
     * labels and takes placement, image and resources from spec.initializer; the starter gets no tolerations.
     */
    private void createHelperJob(GenericKubernetesResource testRun, String role) {
        Map<String, Object> spec = map(testRun.getAdditionalProperties().get("spec"));
        String name = testRun.getMetadata().getName();
        Map<String, String> labels =
                new LinkedHashMap<>(Map.of(RunLabels.K6_APP, RunLabels.K6_APP_VALUE, RunLabels.K6_TEST_RUN, name));
        Map<String, Object> own = map(spec.getOrDefault(role, Map.of()));
        List<Toleration> tolerations = List.of();
        Map<String, String> nodeSelector = new HashMap<>();
        String image = "starter".equals(role)
                ? "ghcr.io/grafana/operator:latest-starter"
                : "ghcr.io/grafana/operator:latest-runner";
        ResourceRequirements resources = new ResourceRequirements();
        if ("initializer".equals(role)) {
            Map<String, Object> runnerMetadata =
                    map(map(spec.getOrDefault("runner", Map.of())).getOrDefault("metadata", Map.of()));
            map(runnerMetadata.getOrDefault("labels", Map.of()))
                    .forEach((key, value) -> labels.putIfAbsent(key, (String) value));
            tolerations = List.of(JSON.convertValue(own.getOrDefault("tolerations", List.of()), Toleration[].class));
            resources = JSON.convertValue(own.getOrDefault("resources", Map.of()), ResourceRequirements.class);
        }
        map(own.getOrDefault("nodeSelector", Map.of())).forEach((key, value) -> nodeSelector.put(key, (String) value));
        image = (String) own.getOrDefault("image", image);
        Job job = new JobBuilder()
                .withNewMetadata()
                .withName(name + "-" + role)
                .withNamespace(namespace)
                .withLabels(labels)
                .withOwnerReferences(TestRunJobs.controlledBy(testRun))
                .endMetadata()
                .withNewSpec()
                .withBackoffLimit(0)
                .withNewTemplate()
                .withNewMetadata()
                .withLabels(labels)
                .withAnnotations(
                        "initializer".equals(role) && initializerBroken
                                ? Map.of(TestCluster.EXIT_CODE_ANNOTATION, "1")
                                : Map.of())
                .endMetadata()
                .withNewSpec()
                .withRestartPolicy("Never")
                .withNodeSelector(nodeSelector)
                .withTolerations(tolerations)
                .addNewContainer()
                .withName("starter".equals(role) ? "k6-curl" : "k6")
                .withImage(image)
                .withCommand(
                        "sh",
                        "-c",
                        "starter".equals(role)
                                ? "curl -X PATCH runners"
                                : "k6 archive && k6 inspect --execution-requirements")
                .withResources(resources)
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
        client.batch().v1().jobs().inNamespace(namespace).resource(job).create();
    }

    /** True once the Job completed, false once it failed, null while it runs. */
    private Boolean helperJobOutcome(String jobName) {
        Job job = client.batch()
                .v1()
                .jobs()
                .inNamespace(namespace)
                .withName(jobName)
                .get();
        if (job == null || job.getStatus() == null || job.getStatus().getConditions() == null) {
            return null;
        }
        for (var condition : job.getStatus().getConditions()) {
            if ("True".equals(condition.getStatus()) && "Complete".equals(condition.getType())) {
                return true;
            }
            if ("True".equals(condition.getStatus()) && "Failed".equals(condition.getType())) {
                return false;
            }
        }
        return null;
    }

    /**
     * The runners' readiness gate (an init container that waits until the target and the delay service answer on
     * their health endpoints), which kwok does not run: a runner with it is taken to pass it once the run's target
     * and delay-service Deployments are Ready.
     */
    private boolean gatePassed(GenericKubernetesResource testRun) {
        Object initContainers = testRun.get("spec", "runner", "initContainers");
        boolean gated = initContainers instanceof List<?> list
                && list.stream()
                        .anyMatch(container ->
                                container instanceof Map<?, ?> c && ReadinessGate.CONTAINER.equals(c.get("name")));
        if (!gated) {
            return true;
        }
        String run = testRun.getMetadata().getLabels().get(RunLabels.RUN);
        return Stream.of(RunLabels.ROLE_TARGET, RunLabels.ROLE_DELAY_SERVICE).allMatch(role -> {
            List<io.fabric8.kubernetes.api.model.apps.Deployment> deployments = client.apps()
                    .deployments()
                    .inNamespace(namespace)
                    .withLabels(Map.of(RunLabels.RUN, run, RunLabels.ROLE, role))
                    .list()
                    .getItems();
            return !deployments.isEmpty()
                    && deployments.stream()
                            .allMatch(d -> d.getStatus() != null
                                    && d.getStatus().getReadyReplicas() != null
                                    && d.getStatus().getReadyReplicas()
                                            >= d.getSpec().getReplicas());
        });
    }

    private boolean allRunnersReady(String testRun, int parallelism) {
        List<Pod> pods = client.pods()
                .inNamespace(namespace)
                .withLabels(RunLabels.runnerPods(testRun))
                .list()
                .getItems();
        return pods.size() >= parallelism
                && pods.stream()
                        .allMatch(pod -> pod.getStatus() != null
                                && "Running".equals(pod.getStatus().getPhase())
                                && pod.getStatus().getConditions() != null
                                && pod.getStatus().getConditions().stream()
                                        .anyMatch(condition -> "Ready".equals(condition.getType())
                                                && "True".equals(condition.getStatus())));
    }

    private void createRunnerJobs(GenericKubernetesResource testRun) {
        Map<String, Object> spec = map(testRun.getAdditionalProperties().get("spec"));
        int parallelism = ((Number) spec.get("parallelism")).intValue();
        String name = testRun.getMetadata().getName();
        String scriptFile =
                (String) map(map(spec.get("script")).get("configMap")).get("file");
        for (int n = 1; n <= parallelism; n++) {
            List<String> command = new ArrayList<>(List.of(
                    "k6",
                    "run",
                    "--quiet",
                    "--execution-segment=" + segment(n, parallelism),
                    "--execution-segment-sequence=" + segmentSequence(parallelism)));
            command.addAll(arguments(spec));
            command.addAll(List.of(
                    "/test/" + scriptFile,
                    "--address=0.0.0.0:6565",
                    "--paused",
                    "--tag",
                    "instance_id=" + n,
                    "--tag",
                    "testrun_name=" + name));
            // On kwok a Job's pod finishes at once; this one runs until its k6 has finished.
            Job job = TestRunJobs.runnerJob(testRun, n, command, Map.of(TestCluster.RUN_DURATION_ANNOTATION, "1h"));
            client.batch().v1().jobs().inNamespace(namespace).resource(job).create();
        }
    }

    private List<Runner> startK6(GenericKubernetesResource testRun) {
        Map<String, Object> spec = map(testRun.getAdditionalProperties().get("spec"));
        Map<String, Object> runner = map(spec.getOrDefault("runner", Map.of()));
        Map<String, Object> scriptRef = map(map(spec.get("script")).get("configMap"));
        int parallelism = ((Number) spec.get("parallelism")).intValue();
        String name = testRun.getMetadata().getName();
        try {
            Path scripts = Files.createDirectories(workDirectory.resolve(name));
            ConfigMap configMap = client.configMaps()
                    .inNamespace(namespace)
                    .withName((String) scriptRef.get("name"))
                    .get();
            for (Map.Entry<String, String> entry : configMap.getData().entrySet()) {
                Files.writeString(scripts.resolve(entry.getKey()), entry.getValue());
            }
            List<Runner> runners = new ArrayList<>();
            for (int n = 1; n <= parallelism; n++) {
                List<String> command = new ArrayList<>(List.of(
                        k6.toString(),
                        "run",
                        "--quiet",
                        "--execution-segment=" + segment(n, parallelism),
                        "--execution-segment-sequence=" + segmentSequence(parallelism)));
                if (brokenRunners.contains(n) || brokenRunnersOf.contains(name + "#" + n)) {
                    command.add("--no-such-option-in-k6");
                }
                command.addAll(arguments(spec));
                command.addAll(List.of(
                        scripts.resolve((String) scriptRef.get("file")).toString(),
                        "--address=127.0.0.1:0",
                        "--tag",
                        "instance_id=" + n,
                        "--tag",
                        "testrun_name=" + name));
                Path output = scripts.resolve("runner-" + n + ".log");
                ProcessBuilder builder = new ProcessBuilder(command)
                        .directory(scripts.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(output.toFile());
                List<Map<String, Object>> env = list(runner.getOrDefault("env", List.of()));
                for (Map<String, Object> variable : env) {
                    builder.environment().put((String) variable.get("name"), (String) variable.get("value"));
                }
                // The runners would reach the target through its Service; here it listens on 127.0.0.1.
                builder.environment().put(dev.stackbench.k6.K6Env.BASE_URL, localBaseUrl);
                builder.environment().put("K6_NO_USAGE_REPORT", "true");
                runners.add(new Runner(n, name + "-" + n, builder.start(), output));
            }
            return runners;
        } catch (IOException e) {
            throw new UncheckedIOException("the stand-in cannot start k6 for TestRun " + name, e);
        }
    }

    /**
     * Hands k6's outcome to the runner pod, as its kubelet would: its output for the pod log API, then its exit code
     * as the terminated state of the k6 container, the pod still Running until {@link #endPods}.
     */
    private void release(Runner runner) {
        try {
            String output = Files.readString(runner.output(), StandardCharsets.UTF_8);
            runnerOutputs.add(output);
            logServings.add(cluster.servePodLogs(namespace, Map.of("job-name", runner.jobName()), output));
            int exitCode = runner.process().exitValue();
            String now = java.time.Instant.now()
                    .truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                    .toString();
            for (Pod pod : client.pods()
                    .inNamespace(namespace)
                    .withLabel("job-name", runner.jobName())
                    .list()
                    .getItems()) {
                client.pods().inNamespace(namespace).resource(pod).editStatus(running -> {
                    running.getStatus().getConditions().stream()
                            .filter(condition -> "Ready".equals(condition.getType())
                                    || "ContainersReady".equals(condition.getType()))
                            .forEach(condition -> {
                                condition.setStatus("False");
                                condition.setReason("PodCompleted");
                                condition.setLastTransitionTime(now);
                            });
                    running.getStatus().getContainerStatuses().forEach(container -> {
                        String startedAt = container.getState() != null
                                        && container.getState().getRunning() != null
                                ? container.getState().getRunning().getStartedAt()
                                : now;
                        container.setReady(false);
                        container.setStarted(false);
                        container.setState(new ContainerStateBuilder()
                                .withNewTerminated()
                                .withExitCode(exitCode)
                                .withReason(exitCode == 0 ? "Completed" : "Error")
                                .withStartedAt(startedAt)
                                .withFinishedAt(now)
                                .endTerminated()
                                .build());
                    });
                    return running;
                });
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The runner's pods finished, {@link #SANDBOX_TEARDOWN} after their k6 exited: a kubelet marks a pod Succeeded or
     * Failed only once it has torn the pod's sandbox down.
     */
    private void endPods(Runner runner) {
        int exitCode = runner.process().exitValue();
        for (Pod pod : client.pods()
                .inNamespace(namespace)
                .withLabel("job-name", runner.jobName())
                .list()
                .getItems()) {
            client.pods().inNamespace(namespace).resource(pod).editStatus(ended -> {
                ended.getStatus().setPhase(exitCode == 0 ? "Succeeded" : "Failed");
                return ended;
            });
        }
    }

    private boolean runnersFinishedAndLogsServed(String testRun, List<Runner> runners) {
        List<Pod> pods = client.pods()
                .inNamespace(namespace)
                .withLabels(RunLabels.runnerPods(testRun))
                .list()
                .getItems();
        if (pods.size() < runners.size() || !RunnerHealth.allFinished(pods, runners.size())) {
            return false;
        }
        for (Pod pod : pods) {
            try {
                String log = client.pods()
                        .inNamespace(namespace)
                        .withName(pod.getMetadata().getName())
                        .getLog();
                if (log == null || log.isEmpty()) {
                    return false;
                }
            } catch (RuntimeException notYetServed) {
                return false;
            }
        }
        return true;
    }

    private static List<String> arguments(Map<String, Object> spec) {
        String arguments = (String) spec.get("arguments");
        return arguments == null || arguments.isBlank()
                ? List.of()
                : List.of(arguments.trim().split("\\s+"));
    }

    /** k6-operator's split: runner n of N runs the segment (n-1)/N:n/N. */
    static String segment(int n, int of) {
        return fraction(n - 1, of) + ":" + fraction(n, of);
    }

    static String segmentSequence(int of) {
        return String.join(
                ",",
                Stream.iterate(0, i -> i <= of, i -> i + 1)
                        .map(i -> fraction(i, of))
                        .toList());
    }

    private static String fraction(int numerator, int denominator) {
        if (numerator == 0) {
            return "0";
        }
        if (numerator == denominator) {
            return "1";
        }
        return numerator + "/" + denominator;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Object value) {
        return (List<Map<String, Object>>) value;
    }

    @Override
    public void close() {
        loop.shutdownNow();
        runnersByTestRun.values().stream()
                .flatMap(List::stream)
                .map(Runner::process)
                .forEach(process -> {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly();
                });
        logServings.forEach(PodLogServing::close);
        try (Stream<Path> files = Files.walk(workDirectory)) {
            files.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            System.err.println("cannot remove " + workDirectory + ": " + e);
        }
    }
}
