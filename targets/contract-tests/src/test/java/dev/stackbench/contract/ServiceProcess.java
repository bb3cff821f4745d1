package dev.stackbench.contract;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
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
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * One Spring Boot jar started as a real {@code java -jar} process on 127.0.0.1 with the JDK running the tests, its
 * output in a log file, considered up once its Actuator health answers on the management port.
 */
final class ServiceProcess implements AutoCloseable {

    // Modest JVMs: the build machine is small and several of them run at once. C1 only starts Spring faster.
    private static final List<String> JVM_OPTIONS = List.of("-Xmx256m", "-XX:TieredStopAtLevel=1", "-Xss512k");
    private static final Duration START_TIMEOUT = Duration.ofMinutes(5);

    private static final int PORT_ATTEMPTS = 3;

    private final String name;
    private final List<String> command;
    private final Map<String, String> env;
    private final Path log;
    private final long startedNanos = System.nanoTime();
    private int port;
    private int managementPort;
    private Process process;
    private Duration startupTime;

    private ServiceProcess(String name, Path jar, List<String> args, Map<String, String> env, Path logDir)
            throws IOException {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " does not exist: package the targets first "
                    + "(mvn -pl targets -amd package, or run hack/test.sh)");
        }
        this.name = name;
        this.env = env;
        Files.createDirectories(logDir);
        this.log = logDir.resolve(name + ".log");
        List<String> javaCommand = new ArrayList<>();
        javaCommand.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        javaCommand.addAll(JVM_OPTIONS);
        javaCommand.addAll(List.of("-jar", jar.toString()));
        javaCommand.addAll(args);
        this.command = List.copyOf(javaCommand);
        launch();
    }

    private void launch() throws IOException {
        port = freePort();
        managementPort = freePort();
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(env);
        builder.environment().put("PORT", String.valueOf(port));
        builder.environment().put("MANAGEMENT_PORT", String.valueOf(managementPort));
        builder.environment().put("BIND_ADDRESS", "127.0.0.1");
        process = builder.start();
    }

    static ServiceProcess start(String name, Path jar, List<String> args, Map<String, String> env, Path logDir) {
        try {
            return new ServiceProcess(name, jar, args, env, logDir);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start " + name + " from " + jar, e);
        }
    }

    /**
     * Waits until health answers UP; fails at once, with the log, if the process exits first. A port taken between
     * picking it and binding it (other builds share the machine) is retried on new ports.
     */
    ServiceProcess awaitHealthy(HttpClient http) {
        for (int attempt = 1; ; attempt++) {
            URI health = URI.create("http://127.0.0.1:" + managementPort + "/actuator/health");
            boolean healthy = await(name + " healthy")
                    .atMost(START_TIMEOUT)
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> !process.isAlive() || isUp(http, health), done -> done);
            if (healthy && process.isAlive()) {
                startupTime = Duration.ofNanos(System.nanoTime() - startedNanos);
                return this;
            }
            String tail = tail();
            if (!tail.contains("was already in use") || attempt == PORT_ATTEMPTS) {
                throw new IllegalStateException(name + " exited with code " + process.exitValue()
                        + " before it was healthy. Log " + log + ":\n" + tail);
            }
            try {
                launch();
            } catch (IOException e) {
                throw new UncheckedIOException("Could not restart " + name, e);
            }
        }
    }

    private static boolean isUp(HttpClient http, URI health) throws InterruptedException {
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(health)
                            .timeout(Duration.ofSeconds(5))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 && response.body().contains("UP");
        } catch (IOException notYetListening) {
            return false;
        }
    }

    String name() {
        return name;
    }

    boolean alive() {
        return process.isAlive();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    String managementUrl() {
        return "http://127.0.0.1:" + managementPort;
    }

    int port() {
        return port;
    }

    int managementPort() {
        return managementPort;
    }

    Duration startupTime() {
        return startupTime;
    }

    /**
     * The JVM's threads, as jcmd prints them, written beside its log as {@code <name>-threads-<n>.txt}; the file's
     * path, or why there is none.
     */
    String dumpThreads() {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        try {
            Path dump;
            int n = 1;
            do {
                dump = log.resolveSibling(name + "-threads-" + n++ + ".txt");
            } while (Files.exists(dump));
            Process print = new ProcessBuilder(jcmd.toString(), Long.toString(process.pid()), "Thread.print")
                    .redirectErrorStream(true)
                    .redirectOutput(dump.toFile())
                    .start();
            if (!print.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                print.destroyForcibly();
                return dump + " (jcmd did not end within 30 s)";
            }
            return dump.toString();
        } catch (IOException e) {
            return "(no thread dump: " + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(no thread dump: interrupted)";
        }
    }

    String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 80), lines.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    /** SIGTERM (Spring shuts down gracefully), then SIGKILL for the process and anything it started. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /**
     * A port that is free now, below Linux's ephemeral range (32768-60999) so that outgoing connections of the many
     * processes on the machine cannot take it before the service binds it.
     */
    private static int freePort() throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            int candidate = ThreadLocalRandom.current().nextInt(20_000, 32_000);
            try (ServerSocket socket = new ServerSocket(candidate, 1, InetAddress.getByName("127.0.0.1"))) {
                return socket.getLocalPort();
            } catch (IOException taken) {
                // try another one
            }
        }
        throw new IOException("No free port found on 127.0.0.1 between 20000 and 32000");
    }
}
