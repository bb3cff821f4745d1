package dev.stackbench.local;

import dev.stackbench.model.AppWiring;
import dev.stackbench.model.SpringApp;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Starts the Spring Boot apps of a run (the target, the delay service) as processes from their jars in the checkout,
 * with their JVM options in JAVA_TOOL_OPTIONS as in a pod, and waits for them to be healthy.
 */
final class SpringAppLauncher {

    /**
     * One app to start.
     *
     * @param name the process's name in progress lines and errors
     * @param jar the app's jar, relative to the repository root
     * @param environment the app's environment, credentials included
     * @param cpus the CPUs the JVM starts on
     * @param log where its output goes
     */
    record Launch(String name, String jar, SpringApp app, Map<String, String> environment, CpuSet cpus, Path log) {}

    private final Path repoRoot;
    private final Path javaBin;
    private final Duration startTimeout;
    private final JvmStartCache startCache;

    SpringAppLauncher(LocalRunner.Settings settings) {
        this.repoRoot = settings.repoRoot();
        this.javaBin = settings.javaBin();
        this.startTimeout = settings.startTimeout();
        String tools = System.getenv("STACKBENCH_TOOLS");
        this.startCache = new JvmStartCache(
                settings.javaBin(),
                (tools == null || tools.isBlank() ? settings.repoRoot().resolve(".tools") : Path.of(tools))
                        .resolve("jvm-start"));
    }

    /**
     * Starts the app from an unpacked copy with a class archive when this JVM can make one (see
     * {@link JvmStartCache}). When the archive is missing, a training start makes it first, on the CPUs and with the
     * environment the app gets, and logs next to the app's log; if that fails the app starts without it.
     */
    ManagedProcess start(ProcessSupervisor supervisor, Launch launch, Consumer<String> say) throws IOException {
        Path jar = jar(launch.jar());
        String name = launch.name();
        Path log = launch.log();
        Path tmp = temporaryDirectory(supervisor, name);
        JvmStartCache.Start prepared = startCache.prepare(jar, launch.app().javaToolOptions());
        JvmStartCache.Start start = new JvmStartCache.Start(
                withTemporaryDirectory(prepared.command(), tmp),
                prepared.training() == null ? null : withTemporaryDirectory(prepared.training(), tmp),
                prepared.cache());
        if (start.training() == null) {
            return supervisor.start(name, start.command(), launch.environment(), launch.cpus(), log, tmp);
        }
        say.accept("making the start cache of the " + name + " (once per build of " + jar.getFileName()
                + ", JVM and JVM options; it shortens startup only)");
        Path trainingLog =
                log.resolveSibling(log.getFileName().toString().replaceAll("\\.log$", "") + "-start-cache.log");
        ManagedProcess training = supervisor.start(
                name + " start cache", start.training(), launch.environment(), launch.cpus(), trainingLog, tmp);
        boolean made = false;
        try {
            made = training.process().waitFor(startTimeout.toSeconds() + 60, TimeUnit.SECONDS)
                    && training.process().exitValue() == 0
                    && Files.isRegularFile(start.cache());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (training.isAlive()) {
                training.stop(Duration.ofSeconds(5));
            }
        }
        if (!made) {
            JvmStartCache.discard(start);
            say.accept("warning: could not make the start cache of the " + name + " (see " + trainingLog
                    + "); it starts without one");
            return supervisor.start(
                    name,
                    withTemporaryDirectory(List.of(javaBin.toString(), "-jar", jar.toString()), tmp),
                    launch.environment(),
                    launch.cpus(),
                    log,
                    tmp);
        }
        return supervisor.start(name, start.command(), launch.environment(), launch.cpus(), log, tmp);
    }

    /**
     * A temporary directory of the app's own (its JVM's java.io.tmpdir), removed with the run's processes: embedded
     * Tomcat makes its base and document directories there and, stopped by a signal, leaves them behind, which under
     * the machine's /tmp would stay after every run. In a pod the container's own file system goes with it.
     */
    private static Path temporaryDirectory(ProcessSupervisor supervisor, String name) throws IOException {
        Path tmp = Files.createTempDirectory("stackbench-" + name.replaceAll("[^A-Za-z0-9-]", "-") + "-");
        supervisor.register(new AutoCloseable() {
            @Override
            public void close() throws IOException {
                try (java.util.stream.Stream<Path> paths = Files.walk(tmp)) {
                    for (Path path :
                            paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(path);
                    }
                }
            }

            @Override
            public String toString() {
                return "the temporary directory " + tmp + " of " + name;
            }
        });
        return tmp;
    }

    /** The java command with its temporary directory as the first option after the launcher. */
    static List<String> withTemporaryDirectory(List<String> command, Path tmp) {
        List<String> with = new java.util.ArrayList<>(command);
        with.add(1, "-Djava.io.tmpdir=" + tmp);
        return List.copyOf(with);
    }

    /** Waits for the app's health endpoint, as long as the settings allow. */
    void awaitHealthy(ManagedProcess process, SpringApp app) {
        ServiceProbe.awaitHealthy(process, managementUri(app, SpringApp.HEALTH_PATH), startTimeout);
    }

    static URI managementUri(SpringApp app, String path) {
        return URI.create("http://" + AppWiring.LOOPBACK + ":" + app.endpoint().managementPort() + path);
    }

    private Path jar(String relative) {
        Path jar = repoRoot.resolve(relative);
        if (!Files.isRegularFile(jar)) {
            throw new LocalRunException(jar + " does not exist: build it with ./stackbench (it builds missing jars)"
                    + " or mvn -pl targets/mvc-app,targets/webflux-app,targets/delay-service -am package");
        }
        return jar;
    }
}
