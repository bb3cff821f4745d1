package dev.stackbench.chart;

import dev.stackbench.testcluster.CommandResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** Runs the command-line tools the chart tests drive (helm, kubeconform), bounded in time. */
final class Commands {

    private Commands() {}

    static CommandResult run(List<String> command, Path workingDirectory, Duration timeout) {
        return CommandResult.run(command, null, timeout, workingDirectory);
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
