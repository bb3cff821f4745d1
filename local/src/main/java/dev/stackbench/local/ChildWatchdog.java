package dev.stackbench.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Ends a child of the CLI when the CLI's JVM dies without stopping it (SIGKILL, the OOM killer, a JVM crash: no
 * shutdown hook runs then). Linux's {@code PR_SET_PDEATHSIG} would do it, but Java cannot call prctl, so each child
 * runs in a session and process group of its own ({@code setsid}) and gets a small shell beside it that polls the
 * CLI once a second. When the CLI is gone (its {@code /proc} entry missing, a zombie, or another process with its pid
 * but a different start time) the shell sends SIGTERM to the child's whole process group, SIGKILL to whatever is
 * left five seconds later, and then removes the child's temporary directory, if it has one (the CLI's orderly stop
 * removes it otherwise). It exits by itself when the group has ended, and the CLI ends it when it stops the child.
 *
 * <p>The shell sleeps between two reads of a {@code /proc} file, with builtins only: a fork per second. It is pinned
 * to the CPUs it is given (the run's support CPUs), never to the target's, and in a session of its own, so a Ctrl-C
 * in the terminal leaves it to the CLI's orderly stop.
 */
final class ChildWatchdog {

    /**
     * {@code $1} the CLI's pid, {@code $2} its start time in clock ticks since boot (field 22 of /proc/PID/stat),
     * {@code $3} the child's process group, {@code $4} the child's temporary directory or empty. The fields after the
     * command name (which may hold spaces) start with the state, so the start time is the 20th of them.
     */
    private static final String SCRIPT = """
            cli=$1 since=$2 group=$3 tmp=$4
            while read -r stat < "/proc/$cli/stat"; do
              set -- ${stat##*') '}
              [ "$1" != Z ] && [ "${20}" = "$since" ] || break
              kill -0 -"$group" 2>/dev/null || exit 0
              sleep 1
            done
            if kill -TERM -"$group" 2>/dev/null; then
              i=0
              while kill -0 -"$group" 2>/dev/null && [ "$i" -lt 10 ]; do sleep 0.5; i=$((i + 1)); done
              kill -KILL -"$group" 2>/dev/null
              i=0
              while kill -0 -"$group" 2>/dev/null && [ "$i" -lt 10 ]; do sleep 0.5; i=$((i + 1)); done
            fi
            [ -z "$tmp" ] || rm -rf "$tmp"
            exit 0
            """;

    private ChildWatchdog() {}

    /** The command that starts {@code command} as the leader of a new session and process group. */
    static List<String> inOwnGroup(List<String> command) {
        List<String> grouped = new ArrayList<>(List.of("setsid"));
        grouped.addAll(command);
        return grouped;
    }

    /**
     * Starts the watchdog of a child started with {@link #inOwnGroup}.
     *
     * @param child the child's pid, which is its process group's id
     * @param cpus where the watchdog runs, or null to leave it where the CLI runs
     */
    static Process watch(long child, CpuSet cpus) throws IOException {
        return watch(child, cpus, null);
    }

    /**
     * The same, removing {@code temporaryDirectory} (null: none) once the child's group has ended after the CLI died.
     */
    static Process watch(long child, CpuSet cpus, Path temporaryDirectory) throws IOException {
        List<String> command = new ArrayList<>();
        if (cpus != null) {
            command.addAll(List.of("taskset", "-c", cpus.toList()));
        }
        command.addAll(List.of(
                "setsid",
                "sh",
                "-c",
                SCRIPT,
                "stackbench-watchdog",
                String.valueOf(ProcessHandle.current().pid()),
                startTicks(Path.of("/proc/self/stat")),
                String.valueOf(child),
                temporaryDirectory == null ? "" : temporaryDirectory.toString()));
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
    }

    /** A process's start time in clock ticks after boot, from its {@code /proc/PID/stat}: unique with its pid. */
    static String startTicks(Path stat) throws IOException {
        String text = Files.readString(stat).strip();
        String[] fields = text.substring(text.lastIndexOf(") ") + 2).split(" ");
        if (fields.length < 20) {
            throw new IOException(stat + " has no start time field: '" + text + "'");
        }
        return fields[19];
    }
}
