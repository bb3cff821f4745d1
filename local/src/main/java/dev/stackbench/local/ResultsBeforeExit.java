package dev.stackbench.local;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Keeps what a command measured when SIGTERM or Ctrl-C ends it. The JVM runs its shutdown hooks and then halts,
 * whatever its other threads are doing: without this hook the summary table, summary.txt and report.html of the runs
 * that had finished were lost. Its hook marks the command as interrupted (every {@link ProcessSupervisor} stops its
 * processes from its own hook meanwhile; the run under way ends as interrupted and no further run starts) and holds
 * the JVM until the command says it has written and printed what it has, or a bounded time has passed.
 */
public final class ResultsBeforeExit implements AutoCloseable {

    /** Enough to stop the processes (10 s grace each) and write the files; a signal must still end the CLI. */
    static final Duration WAIT = Duration.ofSeconds(90);

    private final CountDownLatch written = new CountDownLatch(1);
    private final Thread hook;

    /** @param say where the hook says what it waits for, and when it gave up waiting */
    public ResultsBeforeExit(Consumer<String> say) {
        hook = new Thread(
                () -> {
                    ProcessSupervisor.markInterrupted();
                    say.accept("stackbench: stopping; writing the results of the runs that finished first");
                    try {
                        if (!written.await(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                            say.accept("stackbench: the results were not written within " + WAIT.toSeconds()
                                    + " s of the signal; exiting with what is on disk");
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "stackbench-results-before-exit");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** The command has written and printed its results: the JVM may exit. */
    @Override
    public void close() {
        written.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The hook is waiting for this very call; it returns now.
        }
    }
}
