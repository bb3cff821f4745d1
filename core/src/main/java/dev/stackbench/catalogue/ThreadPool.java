package dev.stackbench.catalogue;

import java.util.Map;

/**
 * The pool that serves requests of a variant: a fixed {@code size}, or {@code perCpu} threads per CPU with an optional
 * {@code minimum}; {@code sizeEnv} names the environment variable that overrides the size.
 */
public record ThreadPool(String name, Integer size, Integer perCpu, Integer minimum, String sizeEnv) {

    /**
     * Threads the pool has when the process sees {@code cpus} CPUs. The JVM counts a fractional CPU limit as the next
     * whole CPU (its active processor count is the CFS quota rounded up), so 500m counts as one CPU.
     *
     * @param env the target's environment; an override in {@code sizeEnv} wins
     */
    public int threads(double cpus, Map<String, String> env) {
        if (sizeEnv != null && env != null && env.get(sizeEnv) != null) {
            String override = env.get(sizeEnv).trim();
            try {
                int threads = Integer.parseInt(override);
                if (threads > 0) {
                    return threads;
                }
            } catch (NumberFormatException e) {
                // fall through to the error below
            }
            throw new IllegalArgumentException(sizeEnv + "=" + override + " is not a positive whole number: set it to"
                    + " the number of " + name + " threads, e.g. " + sizeEnv + "=200");
        }
        if (size != null) {
            return size;
        }
        int processors = Math.max(1, (int) Math.ceil(cpus - 1e-9));
        int threads = perCpu * processors;
        return minimum == null ? threads : Math.max(minimum, threads);
    }
}
