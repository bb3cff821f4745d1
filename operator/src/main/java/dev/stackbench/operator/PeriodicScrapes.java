package dev.stackbench.operator;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The clock the target is scraped on while load runs, one thread for every run. Scrapes that only came with
 * reconciles could miss the whole measured window when the operator was slow (a busy node, a fresh JVM): then the run
 * had no target figures at all.
 */
final class PeriodicScrapes {

    /** The scrapes on the clock, by run uid. */
    private final Map<String, ScheduledFuture<?>> scheduled = new ConcurrentHashMap<>();

    private ScheduledExecutorService clock;

    /** Runs {@code scrape} every {@code interval} from now on; nothing changes for a run on the clock already. */
    void start(String runUid, Duration interval, Runnable scrape) {
        scheduled.computeIfAbsent(
                runUid, key -> clock().scheduleWithFixedDelay(scrape, 0, interval.toMillis(), TimeUnit.MILLISECONDS));
    }

    void stop(String runUid) {
        ScheduledFuture<?> scrapes = scheduled.remove(runUid);
        if (scrapes != null) {
            scrapes.cancel(false);
        }
    }

    private synchronized ScheduledExecutorService clock() {
        if (clock == null) {
            clock = Executors.newSingleThreadScheduledExecutor(task -> {
                Thread thread = new Thread(task, "stackbench-target-scraper");
                thread.setDaemon(true);
                return thread;
            });
        }
        return clock;
    }
}
