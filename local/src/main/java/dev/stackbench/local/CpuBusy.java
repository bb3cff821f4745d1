package dev.stackbench.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * How busy some CPUs of this machine are, from the per-CPU counters of /proc/stat: all processes together, not one.
 * Local mode runs k6, the delay service and PostgreSQL on the same CPUs, so k6 can fall behind its schedule while
 * its own CPU share looks moderate: the CPUs are full with what it shares them with.
 */
final class CpuBusy {

    /** Busy and total time of a set of CPUs since boot, in clock ticks. */
    record Reading(long busy, long total) {

        /** The busy share of the CPUs between an earlier reading and this one, or empty without time between. */
        Optional<Double> busySince(Reading earlier) {
            long total = this.total - earlier.total;
            return total <= 0 ? Optional.empty() : Optional.of((double) (busy - earlier.busy) / total);
        }
    }

    private static final Path PROC_STAT = Path.of("/proc/stat");

    private CpuBusy() {}

    /** The counters of {@code cpus} now, or empty where /proc/stat cannot be read (not Linux). */
    static Optional<Reading> read(CpuSet cpus) {
        try {
            return Optional.of(parse(Files.readAllLines(PROC_STAT), cpus));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * The counters of {@code cpus} in the lines of /proc/stat: each {@code cpuN} line holds user, nice, system, idle,
     * iowait, irq, softirq, steal (guest time is already in user); idle and iowait are not busy.
     */
    static Reading parse(List<String> lines, CpuSet cpus) {
        long busy = 0;
        long total = 0;
        int found = 0;
        for (String line : lines) {
            if (!line.startsWith("cpu") || line.startsWith("cpu ")) {
                continue;
            }
            String[] fields = line.trim().split("\\s+");
            int cpu = Integer.parseInt(fields[0].substring(3));
            if (!cpus.cpus().contains(cpu)) {
                continue;
            }
            found++;
            long all = 0;
            for (int i = 1; i <= Math.min(8, fields.length - 1); i++) {
                all += Long.parseLong(fields[i]);
            }
            long idle = Long.parseLong(fields[4]) + (fields.length > 5 ? Long.parseLong(fields[5]) : 0);
            busy += all - idle;
            total += all;
        }
        if (found != cpus.size()) {
            throw new IllegalStateException("/proc/stat lacks some of the CPUs " + cpus);
        }
        return new Reading(busy, total);
    }
}
