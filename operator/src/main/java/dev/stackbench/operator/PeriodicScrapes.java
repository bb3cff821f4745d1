package dev.stackbench.operator;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The clock the target is scraped on while load runs. Scrapes that only came with reconciles could miss the whole
 * measured window when the operator was slow (a busy node, a fresh JVM): then the run had no target figures at all.
 * The clock has {@link #THREADS} threads, and each run's next scrape waits for its last one only: a target that is slow
 * to answer (up to {@link ProxyPages#TIMEOUT} a page) delays its own run's scrapes, not those of the other runs.
 */
final class PeriodicScrapes {

    /** Runs scraped at the same moment; more wait for a thread, a moment late, never skipped. */
    static final int THREADS = 8;

    /** The scrapes on the clock, by run uid. */
    private final Map<String, ScheduledFuture<?>> scheduled = new ConcurrentHashMap<>();

    private ScheduledExecutorService clock;

    /** Set by {@link #stopAll}: the clock starts no run's scrapes any more. */
    private volatile boolean stopped;

    /** Runs {@code scrape} every {@code interval} from now on; nothing changes for a run on the clock already. */
    void start(String runUid, Duration interval, Runnable scrape) {
        if (stopped) {
            return;
        }
        scheduled.computeIfAbsent(
                runUid, key -> clock().scheduleWithFixedDelay(scrape, 0, interval.toMillis(), TimeUnit.MILLISECONDS));
    }

    void stop(String runUid) {
        ScheduledFuture<?> scrapes = scheduled.remove(runUid);
        if (scrapes != null) {
            scrapes.cancel(false);
        }
    }

    /** Stops the clock for good: no scrape starts any more, and those under way get up to {@code wait} to end. */
    void stopAll(Duration wait) throws InterruptedException {
        ScheduledExecutorService stopping;
        synchronized (this) {
            stopped = true;
            scheduled.clear();
            stopping = clock;
        }
        if (stopping != null) {
            stopping.shutdown();
            stopping.awaitTermination(wait.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private synchronized ScheduledExecutorService clock() {
        if (clock == null) {
            AtomicInteger threads = new AtomicInteger();
            ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(THREADS, task -> {
                Thread thread = new Thread(task, "stackbench-target-scraper-" + threads.incrementAndGet());
                thread.setDaemon(true);
                return thread;
            });
            // A stopped run's scrapes leave the queue at once rather than at their next time.
            pool.setRemoveOnCancelPolicy(true);
            clock = pool;
        }
        return clock;
    }
}
