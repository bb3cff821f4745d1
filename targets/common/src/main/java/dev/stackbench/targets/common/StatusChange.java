package dev.stackbench.targets.common;

/**
 * The outcome of a status change made under the order's row lock.
 *
 * @param lockWaitMs how long the {@code SELECT ... FOR UPDATE} took from being sent until its row arrived: the wait
 *     behind concurrent changes of the same order plus one round trip to PostgreSQL, in milliseconds
 */
public record StatusChange(OrderStatus status, double lockWaitMs) {

    /**
     * Call as soon as the locked row has arrived: takes the lock wait since {@code lockSentNanos} (System.nanoTime()
     * just before the statement was sent) and moves the order from {@code current} to {@code target}. A move that is
     * not allowed (any more) is the 409 of {@link OrderStatus#moveTo}, carrying the lock wait too.
     */
    public static StatusChange afterLock(String current, long lockSentNanos, OrderStatus target, long orderId) {
        double lockWaitMs = millisSince(lockSentNanos);
        try {
            return new StatusChange(OrderStatus.valueOf(current).moveTo(target, orderId), lockWaitMs);
        } catch (ApiException refused) {
            throw refused.withLockWaitMs(lockWaitMs);
        }
    }

    /** Milliseconds with microsecond resolution: finer digits would only be noise of the clock. */
    private static double millisSince(long startNanos) {
        return Math.round((System.nanoTime() - startNanos) / 1_000.0) / 1_000.0;
    }
}
