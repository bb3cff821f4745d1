package dev.stackbench.api;

/** A BenchmarkRun file could not be read; the message names the file, the line and the field, and the fix. */
public class BenchmarkRunFileException extends RuntimeException {

    public BenchmarkRunFileException(String message, Throwable cause) {
        super(message, cause);
    }

    public BenchmarkRunFileException(String message) {
        super(message);
    }
}
