package dev.stackbench.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** An ordered set of CPU numbers, written the way taskset and /proc write it ("0-3,6"). */
public record CpuSet(List<Integer> cpus) {

    public CpuSet {
        cpus = List.copyOf(new TreeSet<>(cpus));
        if (cpus.isEmpty()) {
            throw new IllegalArgumentException("a CPU set needs at least one CPU");
        }
    }

    public static CpuSet of(Integer... cpus) {
        return new CpuSet(List.of(cpus));
    }

    /** Parses the list format of /proc/PID/status (Cpus_allowed_list) and taskset -c: "0-2,5,7-8". */
    public static CpuSet parse(String list) {
        List<Integer> cpus = new ArrayList<>();
        for (String part : list.trim().split(",")) {
            if (part.isBlank()) {
                continue;
            }
            String[] range = part.trim().split("-");
            int from = Integer.parseInt(range[0].trim());
            int to = range.length > 1 ? Integer.parseInt(range[1].trim()) : from;
            for (int cpu = from; cpu <= to; cpu++) {
                cpus.add(cpu);
            }
        }
        return new CpuSet(cpus);
    }

    /**
     * The CPUs this process may run on. The affinity mask, not the core count, is what can be handed out:
     * a launcher started under taskset or in a cpuset-limited container sees only part of the machine.
     */
    public static CpuSet ofThisProcess() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return parse(line.substring(line.indexOf(':') + 1));
                }
            }
        } catch (IOException | RuntimeException notLinux) {
            // Fall through to the JVM's own count, which is all a non-Linux machine offers.
        }
        List<Integer> cpus = new ArrayList<>();
        for (int cpu = 0; cpu < Runtime.getRuntime().availableProcessors(); cpu++) {
            cpus.add(cpu);
        }
        return new CpuSet(cpus);
    }

    public int size() {
        return cpus.size();
    }

    public CpuSet first(int count) {
        return new CpuSet(cpus.subList(0, count));
    }

    public CpuSet last(int count) {
        return new CpuSet(cpus.subList(cpus.size() - count, cpus.size()));
    }

    public CpuSet without(CpuSet other) {
        return new CpuSet(cpus.stream().filter(cpu -> !other.cpus.contains(cpu)).toList());
    }

    public CpuSet with(CpuSet other) {
        List<Integer> both = new ArrayList<>(cpus);
        both.addAll(other.cpus);
        return new CpuSet(both);
    }

    public boolean overlaps(CpuSet other) {
        return cpus.stream().anyMatch(other.cpus::contains);
    }

    /** The taskset -c argument; ranges are collapsed so long lists stay readable. */
    public String toList() {
        List<String> parts = new ArrayList<>();
        int start = cpus.get(0);
        int previous = start;
        for (int i = 1; i <= cpus.size(); i++) {
            Integer cpu = i < cpus.size() ? cpus.get(i) : null;
            if (cpu != null && cpu == previous + 1) {
                previous = cpu;
                continue;
            }
            parts.add(start == previous ? Integer.toString(start) : start + "-" + previous);
            if (cpu != null) {
                start = cpu;
                previous = cpu;
            }
        }
        return String.join(",", parts);
    }

    @Override
    public String toString() {
        return cpus.stream().map(String::valueOf).collect(Collectors.joining(",", "CPU ", ""));
    }
}
