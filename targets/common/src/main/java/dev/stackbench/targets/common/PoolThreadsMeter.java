package dev.stackbench.targets.common;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;

/**
 * The gauge {@code stackbench.pool.threads{pool=...}}: how many live threads an offloading pool has (boundedElastic,
 * Dispatchers.IO), counted by thread name. Those pools start a thread when work arrives and no idle one is left, and
 * keep an idle thread for 60 s, so the peak of this gauge is the peak number of threads the pool had busy at once.
 */
public final class PoolThreadsMeter implements MeterBinder {

    public static final String NAME = "stackbench.pool.threads";

    private final String pool;
    private final String threadNamePrefix;
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

    public PoolThreadsMeter(String pool, String threadNamePrefix) {
        this.pool = pool;
        this.threadNamePrefix = threadNamePrefix;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder(NAME, this, PoolThreadsMeter::liveThreads)
                .tag("pool", pool)
                .description("Live threads of the pool, counted by the thread name prefix " + threadNamePrefix)
                .register(registry);
    }

    /** Names only (stack depth 0), which the JVM reads without stopping the application's threads. */
    int liveThreads() {
        int count = 0;
        for (ThreadInfo thread : threads.getThreadInfo(threads.getAllThreadIds(), 0)) {
            if (thread != null && isWorker(thread.getThreadName())) {
                count++;
            }
        }
        return count;
    }

    /**
     * A worker is the prefix followed by its number: the pool's housekeeping threads share the prefix
     * ({@code boundedElastic-evictor-1}) but run no task.
     */
    boolean isWorker(String threadName) {
        return threadName.startsWith(threadNamePrefix)
                && threadName.length() > threadNamePrefix.length()
                && Character.isDigit(threadName.charAt(threadNamePrefix.length()));
    }
}
