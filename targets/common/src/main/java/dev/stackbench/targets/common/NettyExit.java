package dev.stackbench.targets.common;

/**
 * Reactor Netty waits a quiet period (2 s by default) after its event loops are asked to stop, in case more work
 * arrives. By then Spring's graceful shutdown has already drained the requests in flight, so the wait only delays the
 * process's exit: every benchmark run paid it once per target (and the next run started that much later).
 */
public final class NettyExit {

    static final String QUIET_PERIOD = "reactor.netty.ioShutdownQuietPeriod";

    private NettyExit() {}

    /** Call first in {@code main}; a value set on the command line ({@code -D...}) is kept. */
    public static void withoutQuietPeriod() {
        if (System.getProperty(QUIET_PERIOD) == null) {
            System.setProperty(QUIET_PERIOD, "0");
        }
    }
}
