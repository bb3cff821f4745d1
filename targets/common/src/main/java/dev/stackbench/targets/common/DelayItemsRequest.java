package dev.stackbench.targets.common;

/**
 * The payload of the delay service's RSocket route {@value RSocketDelayClient#ROUTE}: {@code {"ms":D,"count":N}},
 * N items, each D ms after the previous one. Boxed, so that the delay service can tell a missing field from a zero.
 */
public record DelayItemsRequest(Integer ms, Integer count) {

    /** What to send, for the route's error messages. */
    public static final String USAGE = "send {\"ms\":D,\"count\":N} to route " + RSocketDelayClient.ROUTE
            + " with 0 <= D <= " + Limits.MAX_MILLIS + " and 1 <= N <= " + Limits.MAX_STREAM_ITEMS;
}
