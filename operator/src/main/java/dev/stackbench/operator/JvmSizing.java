package dev.stackbench.operator;

import dev.stackbench.api.Quantities;
import dev.stackbench.api.ResourcesSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * JVM options that make a JVM in a container see exactly its limits: as many processors as whole CPUs in the limit
 * (so pool sizes derived from the CPU count match local mode) and a heap sized from the memory limit. Passed as
 * JAVA_TOOL_OPTIONS, which every JVM reads whatever its entry point.
 */
public final class JvmSizing {

    public static final String ENV = "JAVA_TOOL_OPTIONS";
    /** Share of the memory limit given to the heap; the rest is metaspace, threads, buffers and code cache. */
    static final double HEAP_SHARE = 0.75;

    private JvmSizing() {}

    /** Processors the JVM reports for a CPU limit: the limit rounded up, at least one. */
    public static int activeProcessors(String cpu) {
        return Math.max(1, (int) Math.ceil(Quantities.cpuCores(cpu) - 1e-9));
    }

    /** The options for these limits, followed by the user's own (which win where they set the same flag). */
    public static String options(ResourcesSpec resources, String userOptions) {
        List<String> options = new ArrayList<>();
        options.add("-XX:ActiveProcessorCount=" + activeProcessors(resources.getCpu()));
        boolean userSizesHeap = userOptions != null
                && (userOptions.contains("-Xmx")
                        || userOptions.contains("RAMPercentage")
                        || userOptions.contains("MaxHeapSize"));
        if (!userSizesHeap) {
            long heapMiB = (long) (Quantities.memoryBytes(resources.getMemory()) * HEAP_SHARE / (1024 * 1024));
            options.add("-Xmx" + Math.max(16, heapMiB) + "m");
        }
        if (userOptions != null && !userOptions.isBlank()) {
            options.add(userOptions.strip());
        }
        return String.join(" ", options);
    }
}
