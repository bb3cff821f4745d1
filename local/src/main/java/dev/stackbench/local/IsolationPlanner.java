package dev.stackbench.local;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits this machine's CPUs between the target and everything else, the local stand-in for a dedicated
 * node pool with a CPU limit. Pure, so the rules can be checked for any machine shape.
 *
 * <p>The target takes the highest-numbered CPUs (CPU 0 usually carries interrupts and the shell) and the
 * load generator, database and delay service share the rest. A whole CPU is the smallest unit taskset can
 * give, so fractional requests are rounded up and said so.
 */
public final class IsolationPlanner {

    private IsolationPlanner() {}

    public static IsolationPlan plan(CpuSet machine, BigDecimal requestedCpu) {
        if (requestedCpu == null || requestedCpu.signum() <= 0) {
            throw new IllegalArgumentException("requested CPU must be positive, got " + requestedCpu);
        }
        List<String> notes = new ArrayList<>();
        int wholeCpus = requestedCpu.setScale(0, RoundingMode.CEILING).intValueExact();
        String requested = describeCpus(requestedCpu);
        if (requestedCpu.compareTo(BigDecimal.valueOf(wholeCpus)) != 0) {
            notes.add("requested " + requested + " for the target: pinned to " + wholeCpus + " whole CPU"
                    + plural(wholeCpus) + " (taskset cannot give a fraction of a CPU and no CPU quota is applied "
                    + "locally), so the target may use more CPU time than a pod with this limit");
        }
        if (wholeCpus < machine.size()) {
            CpuSet target = machine.last(wholeCpus);
            CpuSet support = machine.without(target);
            notes.add("target pinned to " + target + " (" + requested + " requested); k6, PostgreSQL and the "
                    + "delay service on " + support);
            if (support.size() == 1) {
                notes.add("k6, PostgreSQL and the delay service share one CPU: at high rates the load generator "
                        + "may saturate it (see the k6 CPU column)");
            }
            return new IsolationPlan(target, support, wholeCpus, true, notes);
        }
        notes.add("requested " + requested + " for the target, machine has " + machine.size() + ": target shares "
                + "CPUs with k6 and PostgreSQL: results are not isolated");
        if (wholeCpus > machine.size()) {
            notes.add("the target JVM is told it has " + wholeCpus + " CPUs (-XX:ActiveProcessorCount) so its "
                    + "thread pools match the cluster, but only " + machine.size() + " exist here");
        }
        return new IsolationPlan(machine, machine, wholeCpus, false, notes);
    }

    private static String describeCpus(BigDecimal cpus) {
        String amount = cpus.stripTrailingZeros().toPlainString();
        return amount + " CPU" + (cpus.compareTo(BigDecimal.ONE) == 0 ? "" : "s");
    }

    private static String plural(int count) {
        return count == 1 ? "" : "s";
    }
}
