package dev.stackbench.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * CPU time a process tree has used, from /proc, for processes that do not report it themselves (k6). A load
 * generator near one full CPU per CPU it may use is saturated: the result then measures the generator.
 */
public final class ProcessCpuClock {

    /** USER_HZ: the unit of utime/stime in /proc/PID/stat; 100 on every mainstream Linux architecture. */
    static final long CLOCK_TICKS_PER_SECOND = 100;

    private ProcessCpuClock() {}

    /** CPU seconds (user + system) used so far by the process and its live descendants. */
    public static double cpuSeconds(ProcessHandle root) {
        long ticks = ticks(root.pid()).orElse(0);
        for (ProcessHandle child : root.descendants().toList()) {
            ticks += ticks(child.pid()).orElse(0);
        }
        return ticks / (double) CLOCK_TICKS_PER_SECOND;
    }

    static OptionalLong ticks(long pid) {
        try {
            return OptionalLong.of(parseTicks(Files.readString(Path.of("/proc", Long.toString(pid), "stat"))));
        } catch (IOException | RuntimeException gone) {
            return OptionalLong.empty();
        }
    }

    /**
     * utime + stime from a /proc/PID/stat line. The command name (field 2) may contain spaces and parentheses,
     * so fields are counted from the last closing parenthesis.
     */
    static long parseTicks(String statLine) {
        String afterName = statLine.substring(statLine.lastIndexOf(')') + 2);
        String[] fields = afterName.trim().split("\\s+");
        // afterName starts at field 3 (state); utime is field 14 and stime field 15.
        return Long.parseLong(fields[14 - 3]) + Long.parseLong(fields[15 - 3]);
    }
}
