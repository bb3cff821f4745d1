package dev.stackbench.targets.common;

/**
 * {@code Thread.sleep} on the calling thread: what the sleep endpoint does on the blocking variants, so the thread
 * that runs the request is held (or, on a virtual thread, unmounted) for the whole wait.
 */
public final class BlockingSleep {

    private BlockingSleep() {}

    public static void sleep(int millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(503, "the target is stopping: the sleep was interrupted, retry later");
        }
    }
}
