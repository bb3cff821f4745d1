package dev.stackbench.testcluster;

import java.util.List;

/** What a finished command printed and how it exited. */
public record CommandResult(List<String> command, int exitCode, String stdout, String stderr) {

    public boolean succeeded() {
        return exitCode == 0;
    }

    /** Returns this result if the command succeeded; otherwise fails with everything it printed. */
    public CommandResult requireSuccess() {
        if (!succeeded()) {
            throw new IllegalStateException(describe());
        }
        return this;
    }

    /** The command, its exit code and its output, for failure messages. */
    public String describe() {
        return String.join(" ", command) + " exited with " + exitCode
                + "\n--- stdout ---\n" + stdout
                + "\n--- stderr ---\n" + stderr;
    }
}
