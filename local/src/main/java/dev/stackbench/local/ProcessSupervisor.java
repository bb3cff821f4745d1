package dev.stackbench.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Starts the processes of a local run and guarantees they are gone afterwards: on success, on failure and on
 * Ctrl-C (a JVM shutdown hook), in reverse start order so the target stops before the database it uses. When the
 * JVM dies without running its hooks (SIGKILL, the OOM killer), each process's {@link ChildWatchdog} ends it.
 */
public final class ProcessSupervisor implements AutoCloseable {

    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final List<ManagedProcess> started = Collections.synchronizedList(new ArrayList<>());
    private final List<AutoCloseable> otherResources = Collections.synchronizedList(new ArrayList<>());
    private final List<Long> everStarted = Collections.synchronizedList(new ArrayList<>());
    private static volatile boolean interrupted;

    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread shutdownHook;
    private final CpuSet watchdogCpus;

    /** @param watchdogCpus where the processes' watchdogs run (never the target's CPUs), or null for anywhere */
    public ProcessSupervisor(CpuSet watchdogCpus) {
        this.watchdogCpus = watchdogCpus;
        shutdownHook = new Thread(
                () -> {
                    interrupted = true;
                    // Nothing may start after this: the JVM is about to exit.
                    closed.set(true);
                    stopAll();
                },
                "stackbench-stop-processes");
        try {
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // A signal came first: this supervisor starts nothing, so the run ends as interrupted.
            interrupted = true;
            closed.set(true);
        }
    }

    /**
     * Starts a command with its output sent to a log file.
     *
     * @param cpus CPUs to pin it to with taskset, or null to leave it unpinned
     */
    public ManagedProcess start(
            String name, List<String> command, Map<String, String> environment, CpuSet cpus, Path logFile)
            throws IOException {
        return start(name, command, environment, cpus, logFile, null);
    }

    /**
     * The same for a process with a temporary directory of its own, which its watchdog removes after it when this
     * CLI dies without stopping it (the orderly stop removes it through {@link #register}).
     */
    public ManagedProcess start(
            String name,
            List<String> command,
            Map<String, String> environment,
            CpuSet cpus,
            Path logFile,
            Path temporaryDirectory)
            throws IOException {
        if (closed.get()) {
            throw new IllegalStateException("the run is stopping; not starting " + name);
        }
        List<String> fullCommand = new ArrayList<>();
        if (cpus != null) {
            fullCommand.addAll(List.of("taskset", "-c", cpus.toList()));
        }
        fullCommand.addAll(command);
        Files.createDirectories(logFile.toAbsolutePath().getParent());
        ProcessBuilder builder = new ProcessBuilder(ChildWatchdog.inOwnGroup(fullCommand))
                .redirectErrorStream(true)
                .redirectOutput(logFile.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().putAll(environment);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new IOException(
                    "could not start " + name + " (" + String.join(" ", fullCommand) + "): " + e.getMessage()
                            + "; are setsid and taskset (util-linux) installed?",
                    e);
        }
        Process watchdog;
        try {
            watchdog = ChildWatchdog.watch(process.pid(), watchdogCpus, temporaryDirectory);
        } catch (IOException e) {
            new ManagedProcess(name, process, null, logFile, fullCommand).stop(STOP_GRACE);
            throw new IOException(
                    "could not start the watchdog that stops " + name + " if this CLI is killed (setsid sh -c ...): "
                            + e.getMessage() + "; check that sh, setsid and taskset (util-linux) are installed",
                    e);
        }
        ManagedProcess managed = new ManagedProcess(name, process, watchdog, logFile, fullCommand);
        started.add(managed);
        everStarted.add(process.pid());
        return managed;
    }

    /** Registers something else to close with the processes (a database, a temp directory), in the same order. */
    public void register(AutoCloseable resource) {
        otherResources.add(resource);
    }

    /** True once the JVM is shutting down (Ctrl-C, SIGTERM) while a command or its processes were running. */
    public static boolean interrupted() {
        return interrupted;
    }

    /** Records that the JVM is shutting down: the run under way ends as interrupted and no other one starts. */
    static void markInterrupted() {
        interrupted = true;
    }

    /** Every pid this supervisor started, including ones already stopped: lets tests check none survives. */
    public List<Long> startedPids() {
        synchronized (everStarted) {
            return List.copyOf(everStarted);
        }
    }

    public void stop(ManagedProcess process) {
        process.stop(STOP_GRACE);
        started.remove(process);
    }

    /** Stops everything still running, newest first. Safe to call more than once and from the shutdown hook. */
    public void stopAll() {
        List<ManagedProcess> processes;
        synchronized (started) {
            processes = new ArrayList<>(started);
            started.clear();
        }
        Collections.reverse(processes);
        for (ManagedProcess process : processes) {
            process.stop(STOP_GRACE);
        }
        List<AutoCloseable> resources;
        synchronized (otherResources) {
            resources = new ArrayList<>(otherResources);
            otherResources.clear();
        }
        Collections.reverse(resources);
        for (AutoCloseable resource : resources) {
            try {
                resource.close();
            } catch (Exception e) {
                System.err.println("stackbench: could not clean up " + resource + ": " + e.getMessage());
            }
        }
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            stopAll();
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException alreadyShuttingDown) {
                // The hook is running or has run; it does the same work.
            }
        }
    }
}
