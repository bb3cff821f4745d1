package dev.stackbench.local;

/** A local run could not be carried out; the message says what went wrong and what to do about it. */
public class LocalRunException extends RuntimeException {

    public LocalRunException(String message) {
        super(message);
    }

    public LocalRunException(String message, Throwable cause) {
        super(message, cause);
    }
}
