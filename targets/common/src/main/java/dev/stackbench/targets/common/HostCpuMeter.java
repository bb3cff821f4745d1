package dev.stackbench.targets.common;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The counters {@code stackbench.host.cpu.ticks{mode="steal"}} and {@code {mode="all"}}: the CPU time of the whole
 * machine the app runs on, in clock ticks, from the aggregate line of /proc/stat. {@code steal} is the time the
 * machine's hypervisor gave to other guests while this machine wanted to run; {@code all} is every tick (user, nice,
 * system, idle, iowait, irq, softirq, steal). /proc/stat is not namespaced, so in a container it is the node's: the
 * share stolen over a window is the difference of the first counter over the difference of the second, whatever the
 * tick's length. A machine without /proc/stat (or a container whose /proc/stat is virtualised per container) gives no
 * or zero steal; a registry then holds no such counter or one that never rises.
 */
public final class HostCpuMeter implements MeterBinder {

    public static final String NAME = "stackbench.host.cpu.ticks";

    private static final Path PROC_STAT = Path.of("/proc/stat");

    /** The fields after "cpu" counted as time: guest and guest_nice are already inside user and nice. */
    private static final int COUNTED_FIELDS = 8;

    private static final int STEAL_FIELD = 7;

    private final Path stat;

    public HostCpuMeter() {
        this(PROC_STAT);
    }

    HostCpuMeter(Path stat) {
        this.stat = stat;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        if (read() == null) {
            return;
        }
        FunctionCounter.builder(NAME, this, meter -> meter.ticks(true))
                .tag("mode", "steal")
                .description("Clock ticks of the whole machine's CPUs its hypervisor gave to others (/proc/stat)")
                .register(registry);
        FunctionCounter.builder(NAME, this, meter -> meter.ticks(false))
                .tag("mode", "all")
                .description("Clock ticks of the whole machine's CPUs, every mode (/proc/stat)")
                .register(registry);
    }

    /** The steal or the total ticks so far; NaN when /proc/stat cannot be read now. */
    double ticks(boolean steal) {
        long[] counters = read();
        if (counters == null) {
            return Double.NaN;
        }
        if (steal) {
            return counters[STEAL_FIELD];
        }
        long all = 0;
        for (long counter : counters) {
            all += counter;
        }
        return all;
    }

    /** The first {@value #COUNTED_FIELDS} counters of the aggregate cpu line, or null when there is none. */
    private long[] read() {
        try {
            return parse(Files.readAllLines(stat));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The counters user, nice, system, idle, iowait, irq, softirq and steal of the line starting "cpu " (a kernel
     * older than steal accounting gives fewer fields; the missing ones count 0).
     */
    static long[] parse(List<String> lines) {
        for (String line : lines) {
            if (line.startsWith("cpu ")) {
                String[] fields = line.trim().split("\\s+");
                long[] counters = new long[COUNTED_FIELDS];
                for (int i = 0; i < COUNTED_FIELDS && i + 1 < fields.length; i++) {
                    counters[i] = Long.parseLong(fields[i + 1]);
                }
                return counters;
            }
        }
        throw new IllegalArgumentException("no aggregate cpu line");
    }
}
