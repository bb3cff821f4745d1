package dev.stackbench.local;

import dev.stackbench.lifecycle.RunProgress;

/**
 * A local run could not be carried out; the message says what went wrong and what to do about it, the reason is the
 * one the run's status shows (the same reasons the operator uses, see {@link RunProgress}).
 */
public class LocalRunException extends RuntimeException {

    /** Reason of a failure that has no more specific one. */
    public static final String LOCAL_RUN_FAILED = "LocalRunFailed";

    private final String reason;

    public LocalRunException(String message) {
        this(LOCAL_RUN_FAILED, message);
    }

    public LocalRunException(String reason, String message) {
        super(message);
        this.reason = reason;
    }

    public LocalRunException(String message, Throwable cause) {
        super(message, cause);
        this.reason = LOCAL_RUN_FAILED;
    }

    /** The CamelCase reason for the run's status. */
    public String reason() {
        return reason;
    }
}
