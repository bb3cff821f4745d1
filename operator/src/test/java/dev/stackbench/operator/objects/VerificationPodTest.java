package dev.stackbench.operator.objects;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.DatabaseSpec;
import dev.stackbench.api.run.ExternalDatabaseSpec;
import dev.stackbench.operator.ExampleRuns;
import dev.stackbench.operator.RunLabels;
import dev.stackbench.testcluster.ProjectTools;
import dev.stackbench.verification.VerificationLoad;
import dev.stackbench.verification.WorkQueries;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VerificationPodTest {

    private static final Duration WAIT = Duration.ofMinutes(5);

    private final VerificationPod verification = new VerificationPod(ExampleRuns.settings());

    @Test
    void countsBetweenTwoReadsOfEachCounterWithTheRunsOwnRequestsInOrder() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();

        Pod pod = verification.desired(run, "198.18.2.5", List.of("198.18.3.7", "198.18.3.8"), WAIT);

        assertThat(pod.getMetadata().getName()).isEqualTo("webflux-r2dbc-verify");
        assertThat(pod.getMetadata().getLabels()).isEqualTo(RunLabels.forRole(run, RunLabels.ROLE_VERIFICATION));
        assertThat(pod.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> assertThat(owner.getUid())
                .isEqualTo(run.getMetadata().getUid()));
        assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
        // Made while the target starts: its deadline covers the wait for the target's health, then the steps.
        assertThat(pod.getSpec().getActiveDeadlineSeconds())
                .isEqualTo(WAIT.plus(VerificationPod.LIMIT).toSeconds());
        assertThat(pod.getMetadata().getAnnotations())
                .containsEntry(VerificationPod.ADDRESSES_ANNOTATION, "198.18.2.5 198.18.3.7,198.18.3.8");
        // k6 copied out of its image, then the four steps in one container of the database image (psql and sh).
        assertThat(pod.getSpec().getInitContainers())
                .extracting(Container::getName)
                .containsExactly(VerificationPod.COPY_K6);
        assertThat(pod.getSpec().getContainers())
                .extracting(Container::getName)
                .containsExactly(VerificationPod.RUN_STEPS);
        Container copy = container(pod, VerificationPod.COPY_K6);
        assertThat(copy.getImage()).isEqualTo(ReadinessGate.K6_OPERATOR_DEFAULT_IMAGE);
        assertThat(String.join(" ", copy.getCommand())).contains("cp ", VerificationPod.K6_DIR + "/k6");

        Container steps = container(pod, VerificationPod.RUN_STEPS);
        assertThat(steps.getImage()).isEqualTo("stackbench/postgres:15");
        assertThat(steps.getCommand()).containsExactly("sh", "/verify/" + VerificationPod.STEPS_SCRIPT);
        assertThat(steps.getVolumeMounts())
                .extracting(mount -> mount.getMountPath())
                .contains("/verify", VerificationPod.K6_DIR);
        // The target pod by address: its Service stays shut to the runners until the verdict.
        assertThat(env(steps))
                .containsEntry("STACKBENCH_BASE_URL", "http://198.18.2.5:8080")
                .containsEntry(VerificationSteps.K6_ENV, VerificationPod.K6_DIR + "/k6")
                .containsEntry(
                        VerificationPod.URLS_ENV,
                        "http://198.18.3.7:" + DelayServiceDeployment.MANAGEMENT_PORT + "/actuator/prometheus"
                                + " http://198.18.3.8:" + DelayServiceDeployment.MANAGEMENT_PORT
                                + "/actuator/prometheus")
                .containsEntry(
                        VerificationPod.HEALTH_URLS_ENV,
                        "http://198.18.2.5:" + TargetDeployment.MANAGEMENT_PORT + "/actuator/health"
                                + " http://198.18.3.7:" + DelayServiceDeployment.MANAGEMENT_PORT + "/actuator/health"
                                + " http://198.18.3.8:" + DelayServiceDeployment.MANAGEMENT_PORT + "/actuator/health")
                .containsEntry(VerificationPod.HEALTH_SECONDS_ENV, "300")
                .containsEntry("K6_SETUP_TIMEOUT", "310s")
                .containsEntry("PGHOST", RunDatabase.host(run));
        EnvVar password = steps.getEnv().stream()
                .filter(variable -> "PGPASSWORD".equals(variable.getName()))
                .findFirst()
                .orElseThrow();
        assertThat(password.getValue()).isNull();
        assertThat(password.getValueFrom().getSecretKeyRef().getName()).isEqualTo(RunDatabase.name(run));

        Map<String, String> scripts = verification.scripts(run, null).getData();
        // The statements as psql reads them from a file: no kubelet expansion, the DO block's dollar quotes as they
        // are.
        assertThat(scripts.get(VerificationPod.STATEMENTS_SQL))
                .isEqualTo(WorkQueries.statementsOf(RunDatabase.USER, RunDatabase.DATABASE) + ";\n"
                        + WorkQueries.RESET_ORDERS + ";\n" + WorkQueries.RESET_COUNTERS + ";\n");
        assertThat(WorkQueries.RESET_ORDERS).contains("$$");
        assertThat(scripts.get(VerificationPod.RESET_SQL))
                .isEqualTo(WorkQueries.CREATE_EXTENSION + ";\n" + WorkQueries.RESET_COUNTERS + ";\n");
    }

    @Test
    void reservesNoCpuBoundsItsMemoryAndMeetsTheRestrictedProfile() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();

        Pod pod = verification.desired(run, "198.18.2.5", List.of("198.18.3.7"), WAIT);

        assertThat(pod.getSpec().getAutomountServiceAccountToken()).isFalse();
        assertThat(pod.getSpec().getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSpec().getSecurityContext().getSeccompProfile().getType())
                .isEqualTo("RuntimeDefault");
        Stream.concat(pod.getSpec().getInitContainers().stream(), pod.getSpec().getContainers().stream())
                .forEach(container -> {
                    assertThat(container.getResources().getRequests())
                            .as("%s reserves no CPU beside runners that may hold the pool", container.getName())
                            .containsOnlyKeys("memory");
                    assertThat(container.getResources().getLimits())
                            .isEqualTo(container.getResources().getRequests());
                    assertThat(container.getSecurityContext().getReadOnlyRootFilesystem())
                            .isTrue();
                    assertThat(container.getSecurityContext().getAllowPrivilegeEscalation())
                            .isFalse();
                    assertThat(container.getSecurityContext().getCapabilities().getDrop())
                            .containsExactly("ALL");
                });
    }

    @Test
    void theScriptsAreTheRunsScenarioSentAFewTimesByAFewCallers() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();

        Map<String, String> scripts = verification.scripts(run, null).getData();

        assertThat(scripts)
                .containsOnlyKeys(
                        VerificationPod.WARMUP_SCRIPT,
                        VerificationPod.COUNTED_SCRIPT,
                        VerificationPod.RESET_SQL,
                        VerificationPod.STATEMENTS_SQL,
                        VerificationPod.STEPS_SCRIPT);
        assertThat(scripts.get(VerificationPod.COUNTED_SCRIPT))
                .contains("\"executor\" : \"shared-iterations\"")
                .contains("\"iterations\" : " + VerificationLoad.COUNTED_ITERATIONS + ",");
        assertThat(scripts.get(VerificationPod.WARMUP_SCRIPT))
                .contains("\"iterations\" : " + VerificationLoad.WARMUP_ITERATIONS + ",");
        // The counted pass reads the delay service's counter in its setup and teardown; the warmup does not.
        assertThat(scripts.get(VerificationPod.COUNTED_SCRIPT))
                .startsWith(VerificationPod.CALLS_IMPORTS)
                .endsWith(VerificationPod.CALLS_HOOKS)
                .contains(WorkQueries.UPSTREAM_CALLS_METRIC)
                .contains(VerificationPod.CALLS_BEFORE, VerificationPod.CALLS_AFTER);
        // The warmup's setup waits for the health endpoints, the pod being made while the JVMs start.
        assertThat(scripts.get(VerificationPod.WARMUP_SCRIPT))
                .startsWith(VerificationPod.HEALTH_IMPORTS)
                .endsWith(VerificationPod.HEALTH_HOOKS)
                .doesNotContain(VerificationPod.CALLS_BEFORE);
    }

    @Test
    void onlyARunWithItsOwnDatabaseIsVerifiedAndOnlyAnEarlyLoadWaitsBehindTheService() {
        BenchmarkRun own = ExampleRuns.webfluxR2dbc();
        BenchmarkRun external = ExampleRuns.webfluxR2dbc();
        external.getSpec()
                .getBackend()
                .setDatabase(new DatabaseSpec().withExternal(new ExternalDatabaseSpec().withHost("pg.shared.svc")));
        BenchmarkRun replicated = ExampleRuns.webfluxR2dbc();
        replicated.getSpec().getTarget().setReplicas(2);

        assertThat(VerificationPod.applies(own, true)).isTrue();
        assertThat(VerificationPod.applies(own, false)).isFalse();
        assertThat(VerificationPod.applies(external, true)).isFalse();
        assertThat(VerificationPod.gatesTheLoad(own, true)).isTrue();
        // Two replicas: no early load, the TestRun is created after the verdict.
        assertThat(VerificationPod.gatesTheLoad(replicated, true)).isFalse();
    }

    @Test
    void theClosedServiceRoutesToNoPodUntilTheOpenOneIsAppliedOverIt() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        TargetService service = new TargetService();

        Service closed = service.closed(run);
        Service open = service.desired(run);

        assertThat(TargetService.isClosed(closed)).isTrue();
        assertThat(TargetService.isClosed(open)).isFalse();
        assertThat(closed.getSpec().getSelector())
                .containsAllEntriesOf(open.getSpec().getSelector())
                .containsEntry(VerificationPod.GATE_KEY, VerificationPod.GATE_CLOSED);
        // No target pod carries the key, so nothing matches while it is there.
        assertThat(new TargetDeployment(ExampleRuns.catalogue(), ExampleRuns.settings())
                        .desired(run)
                        .getSpec()
                        .getTemplate()
                        .getMetadata()
                        .getLabels())
                .doesNotContainKey(VerificationPod.GATE_KEY);
        assertThat(closed.getMetadata().getName()).isEqualTo(open.getMetadata().getName());
    }

    /**
     * The counted pass's setup and teardown with the real k6 of the runners, against two delay-service pods on
     * 127.0.0.1: the counter is summed over the pods and their series, read before and after the iterations.
     */
    @Test
    void theCountedPassPrintsTheDelayServicesCallsSummedOverItsPodsBeforeAndAfter(@TempDir Path dir) throws Exception {
        AtomicInteger pagesOfFirst = new AtomicInteger();
        HttpServer first = prometheus(() -> "stackbench_delay_calls_total{protocol=\"http\"} "
                + (pagesOfFirst.getAndIncrement() == 0 ? "5.0" : "8.0") + "\n");
        HttpServer second = prometheus(() -> "# TYPE stackbench_delay_calls_total counter\n"
                + "stackbench_delay_calls_total{protocol=\"http\"} 1.0\n"
                + "stackbench_delay_calls_total{protocol=\"rsocket\"} 2.0\n"
                + "stackbench_delay_calls_other 100.0\n");
        try {
            K6 k6 = k6(dir, url(first) + " " + url(second));

            assertThat(k6.exitCode()).as(k6.log()).isZero();
            assertThat(VerificationSteps.calls(k6.log(), VerificationPod.CALLS_BEFORE))
                    .contains(8.0);
            assertThat(VerificationSteps.calls(k6.log(), VerificationPod.CALLS_AFTER))
                    .contains(11.0);
        } finally {
            first.stop(0);
            second.stop(0);
        }
    }

    @Test
    void aDelayServiceWithoutTheCounterFailsTheCountedPassNamingIt(@TempDir Path dir) throws Exception {
        HttpServer old = prometheus(() -> "jvm_threads_live_threads 20.0\n");
        try {
            K6 k6 = k6(dir, url(old));

            assertThat(k6.exitCode()).as(k6.log()).isNotZero();
            assertThat(k6.log()).contains("shows no stackbench_delay_calls_total");
        } finally {
            old.stop(0);
        }
    }

    /**
     * The warmup's setup with the real k6, against a health endpoint that answers 503 for its first second and 200
     * after: the iterations start only once it answers 200.
     */
    @Test
    void theWarmupWaitsUntilEveryHealthEndpointAnswers(@TempDir Path dir) throws Exception {
        long startsAnswering = System.currentTimeMillis() + 1_000;
        AtomicInteger asked = new AtomicInteger();
        java.util.concurrent.atomic.AtomicLong firstAnswer = new java.util.concurrent.atomic.AtomicLong();
        HttpServer target = server("/actuator/health", () -> {
            asked.incrementAndGet();
            long now = System.currentTimeMillis();
            if (now < startsAnswering) {
                return 503;
            }
            firstAnswer.compareAndSet(0, now);
            return 200;
        });
        HttpServer delay = server("/actuator/health", () -> 200);
        try {
            K6 k6 = k6(
                    dir,
                    VerificationPod.HEALTH_IMPORTS
                            + "export default function () { console.log('ITERATION ' + Date.now()); }\n"
                            + VerificationPod.HEALTH_HOOKS,
                    Map.of(
                            VerificationPod.HEALTH_URLS_ENV,
                            health(target) + " " + health(delay),
                            VerificationPod.HEALTH_SECONDS_ENV,
                            "30"));

            assertThat(k6.exitCode()).as(k6.log()).isZero();
            assertThat(asked.get()).as("asked every 200 ms until it answered").isGreaterThan(2);
            long iteration = Long.parseLong(k6.log().replaceAll("(?s).*ITERATION (\\d+).*", "$1"));
            // Both clocks are this machine's wall clock, in milliseconds.
            assertThat(iteration)
                    .as("the iteration came after the first 200")
                    .isGreaterThanOrEqualTo(firstAnswer.get());
        } finally {
            target.stop(0);
            delay.stop(0);
        }
    }

    @Test
    void aTargetThatNeverAnswersEndsTheWarmupNamingItsHealthEndpoint(@TempDir Path dir) throws Exception {
        HttpServer target = server("/actuator/health", () -> 503);
        try {
            K6 k6 = k6(
                    dir,
                    VerificationPod.HEALTH_IMPORTS + "export default function () {}\n" + VerificationPod.HEALTH_HOOKS,
                    Map.of(VerificationPod.HEALTH_URLS_ENV, health(target), VerificationPod.HEALTH_SECONDS_ENV, "1"));

            assertThat(k6.exitCode()).as(k6.log()).isNotZero();
            assertThat(k6.log()).contains("not healthy within 1 s: " + health(target));
        } finally {
            target.stop(0);
        }
    }

    private record K6(int exitCode, String log) {}

    private static K6 k6(Path dir, String urls) throws Exception {
        return k6(
                dir,
                VerificationPod.CALLS_IMPORTS + "export default function () {}\n" + VerificationPod.CALLS_HOOKS,
                Map.of(VerificationPod.URLS_ENV, urls));
    }

    private static K6 k6(Path dir, String text, Map<String, String> env) throws Exception {
        Path k6 = ProjectTools.requireExecutable("STACKBENCH_K6", "k6 for the verification's steps");
        Path script = dir.resolve("verify.js");
        Files.writeString(script, text);
        ProcessBuilder builder = new ProcessBuilder(
                        k6.toString(), "run", "--quiet", "--no-color", "--log-format=raw", script.toString())
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("k6.log").toFile());
        builder.environment().put("K6_NO_USAGE_REPORT", "true");
        builder.environment().putAll(env);
        Process process = builder.start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("k6 ended").isTrue();
        return new K6(process.exitValue(), Files.readString(dir.resolve("k6.log")));
    }

    private static HttpServer prometheus(java.util.function.Supplier<String> page) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/actuator/prometheus", exchange -> {
            byte[] body = page.get().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return server;
    }

    /** A server on 127.0.0.1 whose {@code path} answers the status {@code status} gives, with an empty body. */
    private static HttpServer server(String path, java.util.function.IntSupplier status) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext(path, exchange -> {
            exchange.sendResponseHeaders(status.getAsInt(), -1);
            exchange.close();
        });
        server.start();
        return server;
    }

    private static String health(HttpServer server) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/actuator/health";
    }

    private static String url(HttpServer server) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/actuator/prometheus";
    }

    private static Container container(Pod pod, String name) {
        return Stream.concat(pod.getSpec().getInitContainers().stream(), pod.getSpec().getContainers().stream())
                .filter(container -> name.equals(container.getName()))
                .findFirst()
                .orElseThrow();
    }

    private static Map<String, String> env(Container container) {
        return container.getEnv().stream()
                .filter(variable -> variable.getValue() != null)
                .collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue));
    }
}
