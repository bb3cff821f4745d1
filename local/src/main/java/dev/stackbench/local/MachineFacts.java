package dev.stackbench.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Facts about this machine that a reader needs to judge or reproduce a local result. */
public final class MachineFacts {

    private MachineFacts() {}

    public static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(line -> line.startsWith("model name"))
                    .map(line -> line.substring(line.indexOf(':') + 1).trim())
                    .findFirst()
                    .orElse(System.getProperty("os.arch"));
        } catch (IOException e) {
            return System.getProperty("os.arch");
        }
    }

    /** The first three fields of /proc/loadavg (1, 5 and 15 minute load), or empty off Linux. */
    public static Optional<String> loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return Optional.of(fields[0] + " " + fields[1] + " " + fields[2]);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    public static String kernel() {
        return System.getProperty("os.name") + " " + System.getProperty("os.version");
    }

    public static String hostName() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
        } catch (IOException e) {
            return "localhost";
        }
    }
}
