package dev.stackbench.local;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A process the local runner started, with its whole process tree and where its output goes. */
public final class ManagedProcess {

    private final String name;
    private final Process process;
    private final Process watchdog;
    private final Path logFile;
    private final List<String> command;

    /** @param watchdog the process's {@link ChildWatchdog}, ended with it; null when it has none */
    ManagedProcess(String name, Process process, Process watchdog, Path logFile, List<String> command) {
        this.name = name;
        this.process = process;
        this.watchdog = watchdog;
        this.logFile = logFile;
        this.command = List.copyOf(command);
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public Path logFile() {
        return logFile;
    }

    public List<String> command() {
        return command;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public Process process() {
        return process;
    }

    public int waitFor() throws InterruptedException {
        return process.waitFor();
    }

    /**
     * Asks the process tree to stop (SIGTERM, so JVMs run their shutdown and k6 writes its summary), and kills
     * whatever is left after the grace period. Children are signalled first: a parent that dies first would
     * leave them re-parented to init and out of reach of ProcessHandle.descendants().
     */
    public void stop(Duration grace) {
        List<ProcessHandle> tree = ProcessTree.of(process.toHandle());
        tree.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + grace.toNanos();
        for (ProcessHandle handle : tree) {
            long left = deadline - System.nanoTime();
            try {
                if (left > 0) {
                    handle.onExit().get(left, TimeUnit.NANOSECONDS);
                }
            } catch (Exception stillRunning) {
                // Killed below.
            }
        }
        tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle handle : tree) {
            try {
                handle.onExit().get(5, TimeUnit.SECONDS);
            } catch (Exception unkillable) {
                // Nothing more a user-space process can do; the caller reports live pids.
            }
        }
        if (watchdog != null) {
            watchdog.destroy();
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + pid() + ")";
    }
}
