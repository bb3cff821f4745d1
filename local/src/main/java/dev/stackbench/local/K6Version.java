package dev.stackbench.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * What {@code k6 version} says of a k6 binary: its version line ("k6 v1.8.1 (...)") for the environment manifest,
 * and whether it has the stackbench output compiled in (hack/k6; the version lists it under "Extensions:").
 */
final class K6Version {

    /** How {@code k6 version} lists the stackbench output: "MODULE VERSION, stackbench [output]". */
    private static final String STACKBENCH_OUTPUT = ", stackbench [output]";

    private K6Version() {}

    static String of(Path k6) {
        try {
            return versionText(k6)
                    .map(out -> out.lines().findFirst().orElse("unknown"))
                    .orElse("unknown");
        } catch (IOException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    /**
     * Whether {@code k6 run --out stackbench=FILE} works with this binary; a k6 that cannot say (does not run, or
     * runs too long) has not.
     */
    static boolean hasStackbenchOutput(Path k6) {
        try {
            return versionText(k6)
                    .map(out -> out.lines().anyMatch(line -> line.strip().endsWith(STACKBENCH_OUTPUT)))
                    .orElse(false);
        } catch (IOException e) {
            return false;
        }
    }

    /** What {@code k6 version} printed; empty when it did not finish within 10 s. */
    private static Optional<String> versionText(Path k6) throws IOException {
        Process process = new ProcessBuilder(k6.toString(), "version")
                .redirectErrorStream(true)
                .start();
        try {
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return Optional.empty();
            }
            return Optional.of(out);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            return Optional.empty();
        }
    }
}
