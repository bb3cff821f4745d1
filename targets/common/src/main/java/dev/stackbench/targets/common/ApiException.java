package dev.stackbench.targets.common;

/**
 * A request the application refuses, with the HTTP status to answer and a message that tells the client what to
 * send instead. Both web stacks turn it into an {@link ApiError} body, with the lock wait when it has one.
 */
public class ApiException extends RuntimeException {

    private final int status;
    private final Double lockWaitMs;

    public ApiException(int status, String message) {
        this(status, message, null);
    }

    private ApiException(int status, String message, Double lockWaitMs) {
        super(message);
        this.status = status;
        this.lockWaitMs = lockWaitMs;
    }

    public static ApiException badRequest(String message) {
        return new ApiException(400, message);
    }

    public static ApiException notFound(String message) {
        return new ApiException(404, message);
    }

    public static ApiException conflict(String message) {
        return new ApiException(409, message);
    }

    /** The same refusal, made after waiting {@code lockWaitMs} for a row lock (see {@link StatusChange}). */
    public ApiException withLockWaitMs(double lockWaitMs) {
        return new ApiException(status, getMessage(), lockWaitMs);
    }

    public int status() {
        return status;
    }

    /** Null unless the refusal came after a row lock. */
    public Double lockWaitMs() {
        return lockWaitMs;
    }
}
