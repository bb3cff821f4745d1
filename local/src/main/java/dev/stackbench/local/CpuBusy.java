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

    /**
     * Busy and total time of a set of CPUs since boot, in clock ticks, and the part of it the hypervisor gave to
     * someone else (steal, counted in busy: the CPU was not idle, this machine just did not get it).
     */
    record Reading(long busy, long total, long steal) {

        /** The busy share of the CPUs between an earlier reading and this one, or empty without time between. */
        Optional<Double> busySince(Reading earlier) {
            long total = this.total - earlier.total;
            return total <= 0 ? Optional.empty() : Optional.of((double) (busy - earlier.busy) / total);
        }

        /** The share of the CPUs' time stolen between an earlier reading and this one, or empty without time. */
        Optional<Double> stolenSince(Reading earlier) {
            long total = this.total - earlier.total;
            return total <= 0 ? Optional.empty() : Optional.of((double) (steal - earlier.steal) / total);
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

    /** The counters of all of this machine's CPUs now (the aggregate line), or empty where they cannot be read. */
    static Optional<Reading> readMachine() {
        try {
            return Optional.of(parseMachine(Files.readAllLines(PROC_STAT)));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The counters of the aggregate {@code cpu} line of /proc/stat: every CPU of the machine together. */
    static Reading parseMachine(List<String> lines) {
        return lines.stream()
                .filter(line -> line.startsWith("cpu "))
                .findFirst()
                .map(line -> counters(line.trim().split("\\s+")))
                .orElseThrow(() -> new IllegalStateException("/proc/stat has no aggregate cpu line"));
    }

    /**
     * The counters of {@code cpus} in the lines of /proc/stat: each {@code cpuN} line holds user, nice, system, idle,
     * iowait, irq, softirq, steal (guest time is already in user); idle and iowait are not busy.
     */
    static Reading parse(List<String> lines, CpuSet cpus) {
        long busy = 0;
        long total = 0;
        long steal = 0;
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
            Reading one = counters(fields);
            busy += one.busy();
            total += one.total();
            steal += one.steal();
        }
        if (found != cpus.size()) {
            throw new IllegalStateException("/proc/stat lacks some of the CPUs " + cpus);
        }
        return new Reading(busy, total, steal);
    }

    /** One line's counters: user, nice, system, idle, iowait, irq, softirq, steal (guest time is already in user). */
    private static Reading counters(String[] fields) {
        long all = 0;
        for (int i = 1; i <= Math.min(8, fields.length - 1); i++) {
            all += Long.parseLong(fields[i]);
        }
        long idle = Long.parseLong(fields[4]) + (fields.length > 5 ? Long.parseLong(fields[5]) : 0);
        long steal = fields.length > 8 ? Long.parseLong(fields[8]) : 0;
        return new Reading(all - idle, all, steal);
    }
}
