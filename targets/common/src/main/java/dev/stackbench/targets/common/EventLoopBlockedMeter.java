package dev.stackbench.targets.common;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;

/**
 * The gauge {@code stackbench.pool.threads{pool=...}} for an event loop: how many of its threads a thread-state sample
 * finds blocked, on average over the last second. An event-loop thread either waits in its selector for I/O or runs
 * the loop's tasks; one found inside JDBC, in a sleep, or waiting for a lock or a result outside its selector is
 * blocked, and every request on its connections waits with it. A loop whose threads are all found blocked most of the
 * time is what limits the run: the anti-pattern of blocking calls on the event loop, seen from the threads themselves
 * rather than inferred from the throughput.
 *
 * <p>The samples are taken by a thread of the meter's own every {@value #DEFAULT_PERIOD_MILLIS} ms, not when the gauge
 * is read: a scrape needs a free event-loop thread to be answered at all, so a sample taken by the scrape would
 * never see the whole loop blocked. Each sample reads the event-loop threads' states and their top {@value
 * #STACK_DEPTH} frames, as a thread dump does: the JVM brings the threads to a safepoint for it, a pause of well under
 * a millisecond for a handful of threads.
 */
public final class EventLoopBlockedMeter implements MeterBinder, AutoCloseable {

    static final long DEFAULT_PERIOD_MILLIS = 250;

    /** Samples the gauge averages: the last second's at the default period. */
    static final int WINDOW = 4;

    /** Frames sampled per thread: enough to reach the JDBC driver below the socket read it blocks in. */
    static final int STACK_DEPTH = 64;

    /** Classes whose frames at the top of the stack mean the thread waits in its selector: idle, not blocked. */
    private static final List<String> SELECTOR_WAITS = List.of(
            "sun.nio.ch.EPoll",
            "sun.nio.ch.KQueue",
            "sun.nio.ch.WEPoll",
            "sun.nio.ch.PollSelectorImpl",
            "io.netty.channel.epoll.Native",
            "io.netty.channel.kqueue.Native",
            "io.netty.channel.uring.Native");

    /** How many frames from the top may lead to the selector's wait (the native call and its wrappers). */
    private static final int SELECTOR_FRAMES = 4;

    /** Frames of the blocking calls the scenarios make: the JDBC driver, its pool, a sleep. */
    private static final List<String> BLOCKING_CALLS =
            List.of("org.postgresql.", "java.sql.", "com.zaxxer.hikari.", "java.lang.Thread.sleep");

    private final String pool;
    private final String threadNamePrefix;
    private final long periodMillis;
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    /** The last {@link #WINDOW} samples, oldest overwritten first. */
    private final int[] samples = new int[WINDOW];

    private int taken;
    private Thread sampler;

    /**
     * @param pool the pool's name in the variant catalogue (the gauge's tag)
     * @param threadNamePrefix the event-loop threads' name up to the transport, e.g. {@code reactor-http-} for
     *     reactor-netty's {@code reactor-http-nio-1} and {@code reactor-http-epoll-1}
     */
    public EventLoopBlockedMeter(String pool, String threadNamePrefix) {
        this(pool, threadNamePrefix, DEFAULT_PERIOD_MILLIS);
    }

    EventLoopBlockedMeter(String pool, String threadNamePrefix, long periodMillis) {
        this.pool = pool;
        this.threadNamePrefix = threadNamePrefix;
        this.periodMillis = periodMillis;
    }

    @Override
    public synchronized void bindTo(MeterRegistry registry) {
        Gauge.builder(PoolThreadsMeter.NAME, this, EventLoopBlockedMeter::meanBlocked)
                .tag("pool", pool)
                .description("Event-loop threads (" + threadNamePrefix
                        + "*) found blocked by a thread-state sample (in JDBC, a sleep, or waiting outside their"
                        + " selector), on average over the last second")
                .register(registry);
        if (sampler == null) {
            sampler = Thread.ofPlatform()
                    .name("stackbench-event-loop-sampler")
                    .daemon()
                    .start(this::sampleUntilClosed);
        }
    }

    /** Stops the sampling thread. */
    @Override
    public synchronized void close() {
        if (sampler != null) {
            sampler.interrupt();
            sampler = null;
        }
    }

    private void sampleUntilClosed() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                int blocked = blockedNow();
                synchronized (this) {
                    samples[taken++ % WINDOW] = blocked;
                }
                Thread.sleep(periodMillis);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The mean of the last {@link #WINDOW} samples; a sample of its own before the sampler took any. */
    synchronized double meanBlocked() {
        if (taken == 0) {
            return blockedNow();
        }
        int count = Math.min(taken, WINDOW);
        double sum = 0;
        for (int i = 0; i < count; i++) {
            sum += samples[i];
        }
        return sum / count;
    }

    /** Samples the event-loop threads' states and stacks; how many are blocked now. */
    int blockedNow() {
        long[] loop = Arrays.stream(threads.getThreadInfo(threads.getAllThreadIds(), 0))
                .filter(thread -> thread != null && isEventLoop(thread.getThreadName()))
                .mapToLong(ThreadInfo::getThreadId)
                .toArray();
        if (loop.length == 0) {
            return 0;
        }
        int blocked = 0;
        for (ThreadInfo thread : threads.getThreadInfo(loop, STACK_DEPTH)) {
            if (thread != null && blocked(thread.getThreadState(), thread.getStackTrace())) {
                blocked++;
            }
        }
        return blocked;
    }

    /** An event-loop thread is the prefix, a transport's name, a dash and a number ({@code reactor-http-nio-3}). */
    boolean isEventLoop(String threadName) {
        if (!threadName.startsWith(threadNamePrefix)) {
            return false;
        }
        int dash = threadName.lastIndexOf('-');
        return dash > threadNamePrefix.length()
                && dash < threadName.length() - 1
                && threadName.substring(dash + 1).chars().allMatch(Character::isDigit);
    }

    /**
     * Whether a thread in this state with this stack (top frame first) is blocked: not waiting in its selector, and
     * either inside a blocking call or waiting (parked, sleeping, on a monitor) anywhere else.
     */
    static boolean blocked(Thread.State state, StackTraceElement[] stack) {
        if (stack.length == 0) {
            return false;
        }
        for (int i = 0; i < Math.min(SELECTOR_FRAMES, stack.length); i++) {
            String className = stack[i].getClassName();
            if (SELECTOR_WAITS.stream().anyMatch(className::startsWith)) {
                return false;
            }
        }
        for (StackTraceElement frame : stack) {
            String where = frame.getClassName() + "." + frame.getMethodName();
            if (BLOCKING_CALLS.stream().anyMatch(where::startsWith)) {
                return true;
            }
        }
        return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING || state == Thread.State.BLOCKED;
    }
}
