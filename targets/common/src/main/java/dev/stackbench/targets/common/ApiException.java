package dev.stackbench.targets.common;

/**
 * A request the application refuses, with the HTTP status to answer and a message that tells the client what to
 * send instead. Both web stacks turn it into an {@link ApiError} body.
 */
public class ApiException extends RuntimeException {

    private final int status;

    public ApiException(int status, String message) {
        super(message);
        this.status = status;
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

    public int status() {
        return status;
    }
}
