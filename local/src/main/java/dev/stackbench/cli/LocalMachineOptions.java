package dev.stackbench.cli;

import dev.stackbench.local.CpuSet;
import dev.stackbench.local.LocalRunner;
import dev.stackbench.local.RunLock;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The options of the commands that start stacks on this machine (run, verify): where the jars and k6 are, how long a
 * service may take to start, whether PostgreSQL's data directory is kept.
 */
final class LocalMachineOptions {

    @Option(names = "--keep", description = "keep PostgreSQL's data directory after the run, for inspection")
    boolean keep;

    @Option(
            names = "--root",
            paramLabel = "DIR",
            description =
                    "repository root holding the jars " + "(default: $STACKBENCH_ROOT, else the current directory)")
    Path root;

    @Option(names = "--k6", paramLabel = "PATH", description = "k6 binary (default: $STACKBENCH_K6, else k6 on PATH)")
    Path k6;

    @Option(
            names = "--start-timeout",
            paramLabel = "SECONDS",
            defaultValue = "180",
            description = "how long each service may take to become healthy (default: ${DEFAULT-VALUE})")
    long startTimeoutSeconds;

    /** The settings of the runs on this machine, or null after saying on {@code err} why k6 cannot be used. */
    LocalRunner.Settings settingsOrExplain(Path repoRoot, PrintWriter err) {
        try {
            return settings(repoRoot);
        } catch (IllegalStateException e) {
            err.println("stackbench: " + e.getMessage());
            err.flush();
            return null;
        }
    }

    /** This machine's run lock, or null after saying on {@code err} which run holds it. */
    static RunLock lockOrExplain(PrintWriter err) throws IOException {
        try {
            return RunLock.acquire(RunLock.path());
        } catch (RunLock.Busy busy) {
            err.println("stackbench: " + busy.getMessage());
            err.flush();
            return null;
        }
    }

    private LocalRunner.Settings settings(Path repoRoot) {
        return new LocalRunner.Settings(
                repoRoot,
                Path.of(System.getProperty("java.home"), "bin", "java"),
                k6Binary(),
                CpuSet.ofThisProcess(),
                keep,
                Duration.ofSeconds(startTimeoutSeconds));
    }

    Path repoRoot() {
        if (root != null) {
            return root.toAbsolutePath();
        }
        String fromLauncher = System.getenv("STACKBENCH_ROOT");
        return fromLauncher != null && !fromLauncher.isBlank()
                ? Path.of(fromLauncher)
                : Path.of("").toAbsolutePath();
    }

    private Path k6Binary() {
        if (k6 != null) {
            return requireExecutable(k6, "--k6");
        }
        String fromSetup = System.getenv("STACKBENCH_K6");
        if (fromSetup != null && !fromSetup.isBlank()) {
            return requireExecutable(Path.of(fromSetup), "STACKBENCH_K6");
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(dir, "k6");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("k6 not found: run hack/setup.sh k6 (./stackbench does this for you), or "
                + "pass --k6 PATH or set STACKBENCH_K6");
    }

    private static Path requireExecutable(Path path, String source) {
        if (!Files.isExecutable(path)) {
            throw new IllegalStateException(source + " points to " + path + ", which is not an executable k6: run "
                    + "hack/setup.sh k6 or fix the path");
        }
        return path;
    }
}
