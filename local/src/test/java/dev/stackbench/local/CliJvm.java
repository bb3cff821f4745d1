package dev.stackbench.local;

import static org.assertj.core.api.Assertions.fail;

import dev.stackbench.cli.StackbenchCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The stackbench CLI in a JVM of its own, as {@code ./stackbench run} starts it, so a test can signal or kill it and
 * look at what it leaves behind. Its stdout and stderr go to files in the test's directory.
 */
final class CliJvm implements AutoCloseable {

    static final Path REPO_ROOT = Path.of("").toAbsolutePath().getParent();

    /** A process seen while the CLI ran: its pid, when it started (pids are reused) and its command line. */
    record Seen(long pid, Instant started, String command) {
        boolean stillAlive() {
            return ProcessHandle.of(pid)
                    .filter(ProcessHandle::isAlive)
                    .flatMap(handle -> handle.info().startInstant())
                    .filter(started::equals)
                    .isPresent();
        }

        /** The same process, if it still runs. */
        Optional<ProcessHandle> handle() {
            return ProcessHandle.of(pid).filter(handle -> stillAlive());
        }

        @Override
        public String toString() {
            return pid + " " + (command.length() > 160 ? command.substring(0, 160) + "..." : command);
        }
    }

    private static final Pattern LISTENER = Pattern.compile(":(\\d+)\\s+\\S+\\s+users:(.*)$");
    private static final Pattern PID = Pattern.compile("pid=(\\d+)");

    private final Process process;
    private final Path stdout;
    private final Path stderr;

    private CliJvm(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /**
     * Starts {@code stackbench ARGS...} with this checkout as its root.
     *
     * @param name names the output files in {@code dir}
     * @param environment added to this JVM's environment
     */
    static CliJvm start(Path dir, String name, Map<String, String> environment, String... arguments)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.awt.headless=true",
                "-Dstackbench.stderr.tty=false",
                "-cp",
                System.getProperty("java.class.path"),
                StackbenchCommand.class.getName()));
        command.addAll(List.of(arguments));
        if ("run".equals(arguments[0])) {
            command.addAll(command.size() - arguments.length + 1, List.of("--root", REPO_ROOT.toString()));
        }
        Path stdout = dir.resolve(name + ".out");
        Path stderr = dir.resolve(name + ".err");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().putAll(environment);
        return new CliJvm(builder.start(), stdout, stderr);
    }

    /**
     * A low-rate run of webflux-r2dbc on one CPU against a 20 ms upstream: enough to have every process up and the
     * load flowing, little enough to leave a shared machine alone.
     */
    static String lowRateRun(String name, String duration) {
        return """
                apiVersion: stackbench.dev/v1alpha1
                kind: BenchmarkRun
                metadata:
                  name: %s
                spec:
                  target:
                    variant: webflux-r2dbc
                    resources: {cpu: "1", memory: 512Mi}
                  workload:
                    scenario: upstream
                    upstreamDelay: 20ms
                    load: {executor: constant-arrival-rate, rate: 5, vus: 10}
                    warmup: 2s
                    duration: %s
                """.formatted(name, duration);
    }

    /**
     * Starts {@code stackbench run --results-dir RESULTS FILE...} with the lock file {@code dir/run.lock}, so that
     * only the CLIs of one test see each other.
     */
    static CliJvm startRun(Path dir, String name, Path results, Path... files) throws IOException {
        List<String> arguments = new ArrayList<>(List.of("run", "--results-dir", results.toString()));
        for (Path file : files) {
            arguments.add(file.toString());
        }
        return start(dir, name, Map.of(RunLock.PATH_ENV, lockFile(dir).toString()), arguments.toArray(String[]::new));
    }

    /** The lock file of the CLIs a test starts in {@code dir}. */
    static Path lockFile(Path dir) {
        return dir.resolve("run.lock");
    }

    long pid() {
        return process.pid();
    }

    Process process() {
        return process;
    }

    String out() {
        return read(stdout);
    }

    String err() {
        return read(stderr);
    }

    /** Waits until stderr contains {@code text}; fails with the end of stderr when the CLI exits or time is up. */
    void awaitErr(String text, Duration timeout) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (!err().contains(text)) {
            if (!process.isAlive()) {
                fail("the CLI exited (code " + process.exitValue() + ") before printing '" + text + "'; stderr:\n"
                        + err());
            }
            if (Instant.now().isAfter(deadline)) {
                fail("the CLI did not print '" + text + "' within " + timeout.toSeconds() + " s; stderr:\n" + err());
            }
            Thread.sleep(250);
        }
    }

    /** Waits for the CLI to exit and returns its exit code. */
    int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
            fail("the CLI did not exit within " + timeout.toSeconds() + " s; stderr:\n" + err());
        }
        return process.exitValue();
    }

    /** Every process the CLI started that runs now, at any depth. */
    List<Seen> descendants() {
        return process.toHandle()
                .descendants()
                .map(CliJvm::seen)
                .flatMap(Optional::stream)
                .toList();
    }

    /** TCP ports the given processes listen on, from {@code ss}. */
    static Map<Integer, Long> listeningPorts(List<Seen> processes) throws IOException, InterruptedException {
        Process ss =
                new ProcessBuilder("ss", "-Hltnp").redirectErrorStream(true).start();
        String text = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        ss.waitFor(10, TimeUnit.SECONDS);
        Map<Integer, Long> ports = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            Matcher listener = LISTENER.matcher(line);
            if (!listener.find()) {
                continue;
            }
            Matcher pid = PID.matcher(listener.group(2));
            while (pid.find()) {
                long owner = Long.parseLong(pid.group(1));
                if (processes.stream().anyMatch(seen -> seen.pid() == owner)) {
                    ports.put(Integer.parseInt(listener.group(1)), owner);
                }
            }
        }
        return ports;
    }

    /** Ports on 127.0.0.1 that still accept a connection. */
    static List<Integer> stillAccepting(Iterable<Integer> ports) {
        List<Integer> open = new ArrayList<>();
        for (int port : ports) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
                open.add(port);
            } catch (IOException refused) {
                // Nothing listens: what the caller hopes.
            }
        }
        return open;
    }

    /** Waits until none of {@code processes} runs and returns those that still do when time is up. */
    static List<Seen> awaitGone(List<Seen> processes, Duration timeout) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        List<Seen> left = processes;
        while (true) {
            left = left.stream().filter(Seen::stillAlive).toList();
            if (left.isEmpty() || Instant.now().isAfter(deadline)) {
                return left;
            }
            Thread.sleep(200);
        }
    }

    /** Kills what a failed test left, so no process outlives the test whatever the code under test did. */
    static void killAll(List<Seen> processes) {
        processes.forEach(seen -> seen.handle().ifPresent(ProcessHandle::destroyForcibly));
    }

    /** The distinct commands of {@code processes}, one per line, for a failure message. */
    static String describe(List<Seen> processes) {
        TreeSet<String> lines = new TreeSet<>();
        processes.forEach(seen -> lines.add(seen.toString()));
        return String.join("\n", lines);
    }

    @Override
    public void close() {
        List<Seen> left = process.isAlive() ? descendants() : List.of();
        process.destroyForcibly();
        killAll(left);
    }

    private static Optional<Seen> seen(ProcessHandle handle) {
        ProcessHandle.Info info = handle.info();
        return info.startInstant()
                .map(started -> new Seen(
                        handle.pid(),
                        started,
                        info.commandLine().orElse(info.command().orElse("?"))));
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
