package dev.stackbench.mvc.upstream;

import dev.stackbench.targets.common.ApiException;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Parallel blocking calls the way virtual threads make cheap: each call on a virtual thread of its own, the request's
 * thread waiting until all have answered. A platform-thread variant has no such option short of a second thread pool.
 */
public final class VirtualThreadFanout {

    private VirtualThreadFanout() {}

    /**
     * Runs {@code call} {@code calls} times at once. The first call to fail stops the others (they are interrupted)
     * and its exception is rethrown on the request's thread, so the endpoint answers as its single call would.
     */
    public static void runAll(int calls, Runnable call) {
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            CompletionService<Void> finished = new ExecutorCompletionService<>(threads);
            for (int i = 0; i < calls; i++) {
                finished.submit(call, null);
            }
            for (int i = 0; i < calls; i++) {
                try {
                    finished.take().get();
                } catch (ExecutionException e) {
                    threads.shutdownNow();
                    throw unchecked(e.getCause());
                } catch (InterruptedException e) {
                    threads.shutdownNow();
                    Thread.currentThread().interrupt();
                    throw new ApiException(
                            503, "the target is stopping: the upstream calls were interrupted, retry later");
                }
            }
        }
    }

    private static RuntimeException unchecked(Throwable failure) {
        if (failure instanceof RuntimeException runtime) {
            return runtime;
        }
        if (failure instanceof Error error) {
            throw error;
        }
        return new IllegalStateException(failure);
    }
}
