package dev.stackbench.local;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Moves every thread of a running process onto a set of CPUs, and checks that it stayed there.
 *
 * <p>{@code taskset -a -p} walks the threads one by one; a thread the process creates during the walk copies the
 * mask of its creator, which may not have been moved yet. So after each walk every thread's
 * {@code Cpus_allowed_list} is read back, and the walk repeats until none is left outside the set.
 */
public final class CpuAffinity {

    private static final int ATTEMPTS = 5;

    private CpuAffinity() {}

    /**
     * Pins all threads of {@code pid} to {@code cpus}.
     *
     * @throws IOException naming the threads that could not be moved, or why taskset failed
     */
    public static void pin(long pid, CpuSet cpus) throws IOException {
        List<String> strays = List.of();
        String tasksetOutput = "";
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            tasksetOutput = taskset(pid, cpus);
            strays = threadsOutside(pid, cpus);
            if (strays.isEmpty()) {
                return;
            }
        }
        throw new IOException("could not pin process " + pid + " to " + cpus + " after " + ATTEMPTS
                + " attempts; threads still elsewhere: " + String.join(", ", strays)
                + (tasksetOutput.isBlank() ? "" : " (taskset said: " + tasksetOutput.strip() + ")"));
    }

    /**
     * Pins this JVM (sampler, k6 output follower, progress) to {@code cpus}: during a run, off the target's CPUs, so
     * the tool that measures the target does not take CPU time from it. Returns whether taskset succeeded.
     */
    static boolean pinThisProcess(CpuSet cpus) {
        try {
            pin(ProcessHandle.current().pid(), cpus);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Threads of {@code pid} whose affinity is not exactly {@code cpus}, as "tid (CPU list)". */
    static List<String> threadsOutside(long pid, CpuSet cpus) throws IOException {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        if (!Files.isDirectory(tasks)) {
            throw new IOException("process " + pid + " is gone: it could not be pinned to " + cpus);
        }
        List<String> strays = new ArrayList<>();
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
            for (Path thread : threads) {
                Optional<CpuSet> allowed = allowedCpus(thread.resolve("status"));
                if (allowed.isPresent() && !allowed.get().equals(cpus)) {
                    strays.add(thread.getFileName() + " (" + allowed.get() + ")");
                }
            }
        }
        return strays;
    }

    private static Optional<CpuSet> allowedCpus(Path status) throws IOException {
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return Optional.of(CpuSet.parse(line.substring(line.indexOf(':') + 1)));
                }
            }
            return Optional.empty();
        } catch (NoSuchFileException threadEnded) {
            return Optional.empty();
        }
    }

    private static String taskset(long pid, CpuSet cpus) throws IOException {
        Process taskset = new ProcessBuilder("taskset", "-a", "-p", "-c", cpus.toList(), Long.toString(pid))
                .redirectErrorStream(true)
                .start();
        String output = new String(taskset.getInputStream().readAllBytes());
        try {
            int code = taskset.waitFor();
            if (code != 0) {
                throw new IOException("taskset -a -p -c " + cpus.toList() + " " + pid + " failed with code " + code
                        + ": " + output.strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while pinning process " + pid + " to " + cpus, e);
        }
        return output;
    }
}
