package dev.stackbench.operator;

import static org.awaitility.Awaitility.await;

import dev.stackbench.postgres.LocalPostgres;
import dev.stackbench.testcluster.ProjectTools;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A real target on 127.0.0.1 for the k6 runners of {@link K6OperatorStandIn}: PostgreSQL, the delay service and
 * the webflux-app jar as the webflux-r2dbc variant, small (one CPU's worth of JVM, a pool of 10 connections).
 */
final class LocalTargetStack implements AutoCloseable {

    static final String VARIANT = "webflux-r2dbc";

    private final LocalPostgres postgres;
    private final List<Process> processes = new ArrayList<>();
    private final List<Path> logs = new ArrayList<>();
    private final int targetPort;

    LocalTargetStack() {
        Path root = ProjectTools.repositoryRoot();
        Path delayJar = requireJar(root.resolve("targets/delay-service/target/delay-service.jar"));
        Path appJar = requireJar(root.resolve("targets/webflux-app/target/webflux-app.jar"));
        postgres = LocalPostgres.builder().maxConnections(40).start();
        try {
            int delayPort = freePort();
            int delayManagement = freePort();
            start(
                    "delay-service",
                    delayJar,
                    Map.of(
                            "PORT",
                            Integer.toString(delayPort),
                            "MANAGEMENT_PORT",
                            Integer.toString(delayManagement),
                            "BIND_ADDRESS",
                            "127.0.0.1"));
            targetPort = freePort();
            int targetManagement = freePort();
            start(
                    "target",
                    appJar,
                    Map.ofEntries(
                            Map.entry("SPRING_PROFILES_ACTIVE", VARIANT),
                            Map.entry("PORT", Integer.toString(targetPort)),
                            Map.entry("MANAGEMENT_PORT", Integer.toString(targetManagement)),
                            Map.entry("BIND_ADDRESS", "127.0.0.1"),
                            Map.entry("DB_HOST", postgres.host()),
                            Map.entry("DB_PORT", Integer.toString(postgres.port())),
                            Map.entry("DB_NAME", postgres.database()),
                            Map.entry("DB_USER", postgres.user()),
                            Map.entry("DB_PASSWORD", postgres.password()),
                            Map.entry("DB_POOL_SIZE", "10"),
                            Map.entry("DELAY_SERVICE_URL", "http://127.0.0.1:" + delayPort)));
            awaitHealthy("delay service", delayManagement);
            awaitHealthy("target " + VARIANT, targetManagement);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    String baseUrl() {
        return "http://127.0.0.1:" + targetPort;
    }

    private void start(String name, Path jar, Map<String, String> env) {
        try {
            Path log = Files.createTempFile("stackbench-it-" + name + "-", ".log");
            logs.add(log);
            ProcessBuilder builder = new ProcessBuilder(
                            ProcessHandle.current().info().command().orElse("java"),
                            "-Xmx256m",
                            "-XX:ActiveProcessorCount=1",
                            "-XX:TieredStopAtLevel=1",
                            "-jar",
                            jar.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            builder.environment().putAll(env);
            processes.add(builder.start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
    }

    private void awaitHealthy(String what, int managementPort) {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest health = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + managementPort + "/actuator/health"))
                .timeout(Duration.ofSeconds(2))
                .build();
        await(what + " healthy on 127.0.0.1:" + managementPort + " (logs: " + logs + ")")
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(500))
                .ignoreExceptions()
                .until(() -> {
                    if (processes.stream().anyMatch(process -> !process.isAlive())) {
                        throw new IllegalStateException(what + " exited; see " + logs);
                    }
                    return http.send(health, HttpResponse.BodyHandlers.discarding())
                                    .statusCode()
                            == 200;
                });
    }

    private static Path requireJar(Path jar) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(
                    jar + " is missing: build the targets first (mvn -pl targets -am" + " package, or hack/test.sh)");
        }
        return jar;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 0, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        for (Process process : processes.reversed()) {
            process.destroy();
        }
        for (Process process : processes) {
            try {
                if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
        postgres.close();
        logs.forEach(log -> log.toFile().delete());
    }
}
