package dev.stackbench.model;

import dev.stackbench.api.Quantities;
import dev.stackbench.api.run.ResourcesSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * JVM options that make a JVM see exactly its limits, in a container or as a local process: as many processors as
 * whole CPUs in the limit (so pool sizes derived from the CPU count are the same everywhere), the memory limit as the
 * RAM the JVM sizes itself from (so MaxRAMPercentage means the same outside a container), and a heap of 75 % of the
 * limit unless the user sizes the heap. The user's own options follow and win where they set the same flag.
 */
public final class JvmSizing {

    /** Every JVM reads it whatever its entry point; the operator passes the options through it. */
    public static final String ENV = "JAVA_TOOL_OPTIONS";
    /** Share of the memory limit given to the heap; the rest is metaspace, threads, buffers and code cache. */
    static final double HEAP_SHARE = 0.75;

    private JvmSizing() {}

    /** Processors the JVM reports for a CPU limit: the limit rounded up, at least one. */
    public static int activeProcessors(String cpu) {
        return Math.max(1, (int) Math.ceil(Quantities.cpuCores(cpu) - 1e-9));
    }

    /** The options for these limits, before the user's own. */
    public static List<String> sizingOptions(ResourcesSpec resources, String userOptions) {
        List<String> options = new ArrayList<>();
        options.add("-XX:ActiveProcessorCount=" + activeProcessors(resources.getCpu()));
        long memoryBytes = Quantities.memoryBytes(resources.getMemory());
        options.add("-XX:MaxRAM=" + memoryBytes);
        boolean userSizesHeap = userOptions != null
                && (userOptions.contains("-Xmx")
                        || userOptions.contains("RAMPercentage")
                        || userOptions.contains("MaxHeapSize"));
        if (!userSizesHeap) {
            long heapMiB = (long) (memoryBytes * HEAP_SHARE / (1024 * 1024));
            options.add("-Xmx" + Math.max(16, heapMiB) + "m");
        }
        return options;
    }

    /**
     * Options that choose a class archive of their own (or none): the JVM refuses to start when one of them meets the
     * start cache a runner adds ({@code -XX:AOTCache}), so a runner leaves its cache out for such options.
     */
    private static final List<String> CLASS_ARCHIVE_OPTIONS = List.of(
            "-Xshare:",
            "SharedArchiveFile",
            "ArchiveClassesAtExit",
            "AutoCreateSharedArchive",
            "SharedClassListFile",
            "DumpLoadedClassList",
            "AOTCache",
            "AOTMode",
            "AOTConfiguration");

    /** Whether the user's options choose a class archive of their own, or none ({@code -Xshare:off}). */
    public static boolean choosesClassArchive(String userOptions) {
        return userOptions != null && CLASS_ARCHIVE_OPTIONS.stream().anyMatch(userOptions::contains);
    }

    /** The sizing options and the user's own as one JAVA_TOOL_OPTIONS value (the user's part exactly as written). */
    public static String javaToolOptions(List<String> sizingOptions, String userOptions) {
        List<String> options = new ArrayList<>(sizingOptions);
        if (userOptions != null && !userOptions.isBlank()) {
            options.add(userOptions.strip());
        }
        return String.join(" ", options);
    }

    /**
     * Splits JVM options on whitespace; single or double quotes keep a value with spaces together.
     *
     * @throws IllegalArgumentException when a quote is not closed
     */
    public static List<String> split(String options) {
        List<String> words = new ArrayList<>();
        if (options == null) {
            return words;
        }
        StringBuilder word = new StringBuilder();
        char quote = 0;
        boolean inWord = false;
        for (char c : options.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException(
                    "spec.target.jvmOptions has an unclosed " + quote + " quote: " + options + ": close the quote");
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }
}
