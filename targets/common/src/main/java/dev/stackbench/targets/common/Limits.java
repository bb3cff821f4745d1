package dev.stackbench.targets.common;

/** The input limits of the contract, checked the same way by every variant so that errors read the same. */
public final class Limits {

    public static final int MAX_MILLIS = 60_000;
    public static final int MAX_ROWS = 10_000;
    public static final int MAX_QUANTITY = 1_000;
    public static final int MAX_FANOUT_CALLS = 100;
    public static final int MAX_STREAM_ITEMS = 100;

    private Limits() {}

    public static int delayMs(int delayMs) {
        return delayMs("delayMs", delayMs);
    }

    /** The delay limit under another parameter name (the delay service calls it {@code ms}). */
    public static int delayMs(String name, int delayMs) {
        return within(name, delayMs, 0, MAX_MILLIS, " (milliseconds the delay service waits)");
    }

    public static int sleepMs(int sleepMs) {
        return within("sleepMs", sleepMs, 0, MAX_MILLIS, " (milliseconds the database sleeps)");
    }

    /** The in-process sleep of the sleep endpoint; same parameter name and limit as the database's. */
    public static int inProcessSleepMs(int sleepMs) {
        return within("sleepMs", sleepMs, 0, MAX_MILLIS, " (milliseconds the request waits inside the target)");
    }

    public static int count(int count) {
        return within("count", count, 1, MAX_ROWS, " (rows of the seeded items table)");
    }

    /** The calls one fan-out request makes to the delay service. */
    public static int calls(int calls) {
        return within("calls", calls, 1, MAX_FANOUT_CALLS, " (upstream calls per request)");
    }

    /** The items one request-stream of the delay service's RSocket route emits. */
    public static int streamItems(int count) {
        return within("count", count, 1, MAX_STREAM_ITEMS, " (items the delay service streams)");
    }

    public static int quantity(int quantity) {
        return within("quantity", quantity, 1, MAX_QUANTITY, "");
    }

    private static int within(String name, int value, int min, int max, String meaning) {
        if (value < min || value > max) {
            throw ApiException.badRequest(
                    name + " must be between " + min + " and " + max + meaning + ", got " + value);
        }
        return value;
    }
}
