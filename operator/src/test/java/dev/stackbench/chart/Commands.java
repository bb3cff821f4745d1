package dev.stackbench.chart;

import dev.stackbench.testcluster.CommandResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the command-line tools the chart tests drive (helm, kubeconform), bounded in time. */
final class Commands {

    private Commands() {
    }

    static CommandResult run(List<String> command, Path workingDirectory, Duration timeout) {
        Path stdout = null;
        Path stderr = null;
        try {
            stdout = Files.createTempFile("stackbench-chart-", ".out");
            stderr = Files.createTempFile("stackbench-chart-", ".err");
            Process process = new ProcessBuilder(command).directory(workingDirectory.toFile())
                    .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
            process.getOutputStream().close();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor();
                throw new IllegalStateException(String.join(" ", command) + " did not finish within " + timeout
                        + "\n--- stderr ---\n" + Files.readString(stderr));
            }
            return new CommandResult(List.copyOf(command), process.exitValue(), Files.readString(stdout),
                    Files.readString(stderr));
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

    static void deleteTree(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(Commands::deleteQuietly);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + root, e);
        }
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // Best effort: a leftover temp file must not hide the test's real outcome.
            }
        }
    }
}
