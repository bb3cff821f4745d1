package dev.stackbench.testcluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the repository and the tools hack/setup.sh installed. Environment variables win (Maven passes
 * the environment on to tests); otherwise the values recorded in .tools/env.sh are used, so tests
 * also work from a shell or an IDE that never sourced that file.
 */
public final class ProjectTools {

    private static final Pattern EXPORT_LINE = Pattern.compile("^export ([A-Z0-9_]+)='(.*)'$");

    private ProjectTools() {}

    /** The repository root: the nearest directory at or above the working directory holding hack/cluster.sh. */
    public static Path repositoryRoot() {
        Path start = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("hack/cluster.sh"))) {
                return dir;
            }
        }
        throw new IllegalStateException("cannot find the stackbench repository (a directory containing "
                + "hack/cluster.sh) at or above " + start + ": run the tests from inside the repository");
    }

    /** The value of a variable hack/setup.sh provides (e.g. STACKBENCH_KUBECTL), if known. */
    public static Optional<String> toolSetting(String name) {
        String fromEnvironment = System.getenv(name);
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            return Optional.of(fromEnvironment);
        }
        return Optional.ofNullable(recordedSettings().get(name));
    }

    /** The path of an executable tool recorded under the given variable, or a failure saying how to install it. */
    public static Path requireExecutable(String variable, String toolDescription) {
        Path path = toolSetting(variable)
                .map(Path::of)
                .orElseThrow(() -> new IllegalStateException(
                        toolDescription + " is not installed (" + variable + " is not set): run hack/setup.sh"));
        if (!Files.isExecutable(path)) {
            throw new IllegalStateException(
                    toolDescription + " is missing at " + path + " (" + variable + "): run hack/setup.sh");
        }
        return path;
    }

    private static Map<String, String> recordedSettings() {
        String toolsDir = System.getenv("STACKBENCH_TOOLS");
        Path envFile = toolsDir != null && !toolsDir.isBlank()
                ? Path.of(toolsDir, "env.sh")
                : repositoryRoot().resolve(".tools/env.sh");
        Map<String, String> settings = new HashMap<>();
        if (!Files.isRegularFile(envFile)) {
            return settings;
        }
        try {
            for (String line : Files.readAllLines(envFile)) {
                Matcher matcher = EXPORT_LINE.matcher(line.strip());
                if (matcher.matches()) {
                    settings.put(matcher.group(1), matcher.group(2));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + envFile, e);
        }
        return settings;
    }
}
