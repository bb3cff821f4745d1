package dev.stackbench.testcluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

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

    /**
     * Runs a command to the end, bounded in time (killed with its children after {@code timeout}), feeding it
     * {@code stdin} when not null, and captures what it printed.
     */
    public static CommandResult run(List<String> command, String stdin, Duration timeout, Path workingDirectory) {
        Path stdout = null;
        Path stderr = null;
        try {
            stdout = Files.createTempFile("stackbench-command-", ".out");
            stderr = Files.createTempFile("stackbench-command-", ".err");
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(workingDirectory.toFile())
                    .redirectOutput(stdout.toFile())
                    .redirectError(stderr.toFile());
            Process process = builder.start();
            try (var input = process.getOutputStream()) {
                if (stdin != null) {
                    input.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            }
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor();
                throw new IllegalStateException(String.join(" ", command) + " did not finish within " + timeout
                        + "\n--- stdout ---\n" + Files.readString(stdout) + "\n--- stderr ---\n"
                        + Files.readString(stderr));
            }
            return new CommandResult(
                    List.copyOf(command), process.exitValue(), Files.readString(stdout), Files.readString(stderr));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + String.join(" ", command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + String.join(" ", command), e);
        } finally {
            deleteQuietly(stdout);
            deleteQuietly(stderr);
        }
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // A leftover temp file is harmless; the command's result matters more.
            }
        }
    }
}
