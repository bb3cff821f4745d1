package dev.stackbench.k6;

/** A k6 runner's output holds no usable stackbench summary; the message says where to look. */
public class K6SummaryException extends RuntimeException {

    public K6SummaryException(String message) {
        super(message);
    }

    public K6SummaryException(String message, Throwable cause) {
        super(message, cause);
    }
}
