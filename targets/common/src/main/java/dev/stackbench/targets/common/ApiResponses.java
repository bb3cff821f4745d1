package dev.stackbench.targets.common;

import java.util.List;

/**
 * Builds the answers of one variant. Each method records the thread that calls it, so call it on the thread that ran
 * the blocking work or, for non-blocking work, in the step that completes it.
 */
public final class ApiResponses {

    private final String variant;

    public ApiResponses(String variant) {
        this.variant = variant;
    }

    public String variant() {
        return variant;
    }

    public ApiResponse upstream(int delayMs, UpstreamProtocol protocol) {
        return build("upstream", delayMs, null, null, null, null, null, null, null, protocol);
    }

    public ApiResponse db(int sleepMs) {
        return build("db", null, sleepMs, null, null, null, null, null, null, null);
    }

    public ApiResponse sleep(int sleepMs) {
        return build("sleep", null, sleepMs, null, null, null, null, null, null, null);
    }

    public ApiResponse mixed(int delayMs, int sleepMs, UpstreamProtocol protocol) {
        return build("mixed", delayMs, sleepMs, null, null, null, null, null, null, protocol);
    }

    /** {@code count} is the number of upstream calls, {@code mode} how they ran, {@code protocol} over what. */
    public ApiResponse fanout(int delayMs, int calls, FanoutMode mode, UpstreamProtocol protocol) {
        return build("fanout", delayMs, null, calls, null, null, null, mode, null, protocol);
    }

    public ApiResponse rows(List<Item> items) {
        return build("rows", null, null, items.size(), items, null, null, null, null, null);
    }

    public ApiResponse orderCreated(long orderId) {
        return build("order-create", null, null, null, null, orderId, OrderStatus.NEW, null, null, null);
    }

    /** Also reports how long the change waited for the order's row lock. */
    public ApiResponse orderStatus(long orderId, StatusChange change) {
        return build("order-status", null, null, null, null, orderId, change.status(), null, change.lockWaitMs(), null);
    }

    private ApiResponse build(
            String operation,
            Integer delayMs,
            Integer sleepMs,
            Integer count,
            List<Item> items,
            Long orderId,
            OrderStatus status,
            FanoutMode mode,
            Double lockWaitMs,
            UpstreamProtocol protocol) {
        Thread current = Thread.currentThread();
        return new ApiResponse(
                variant,
                operation,
                current.getName(),
                current.isVirtual(),
                delayMs,
                sleepMs,
                count,
                items,
                orderId,
                status == null ? null : status.name(),
                mode == null ? null : mode.value(),
                lockWaitMs,
                protocol == null ? null : protocol.value());
    }
}
