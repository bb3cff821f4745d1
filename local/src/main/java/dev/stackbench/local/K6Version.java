package dev.stackbench.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** The version line of a k6 binary ("k6 v1.8.1 (...)"), for the environment manifest. */
final class K6Version {

    private K6Version() {}

    static String of(Path k6) {
        try {
            Process process = new ProcessBuilder(k6.toString(), "version")
                    .redirectErrorStream(true)
                    .start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return "unknown";
            }
            return out.lines().findFirst().orElse("unknown");
        } catch (IOException e) {
            return "unknown (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }
}
