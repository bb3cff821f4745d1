package dev.stackbench.k6;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The real k6 binary that hack/setup.sh installs, run as a bounded child process. */
public final class K6Binary {

    public record Result(int exitCode, String stdout, String stderr) {}

    private K6Binary() {}

    public static Path locate() {
        String configured = System.getenv("STACKBENCH_K6");
        if (configured != null && Files.isExecutable(Path.of(configured))) {
            return Path.of(configured);
        }
        throw new IllegalStateException("k6 not found: STACKBENCH_K6 is " + configured + "; run hack/setup.sh and"
                + " source .tools/env.sh (or use hack/test.sh), which install k6 and export STACKBENCH_K6");
    }

    public static Result run(Path workDir, Map<String, String> env, long timeoutSeconds, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(locate().toString());
        command.addAll(List.of(args));
        Path stdout = workDir.resolve("k6.stdout");
        Path stderr = workDir.resolve("k6.stderr");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile());
        builder.environment().put("K6_NO_USAGE_REPORT", "true");
        builder.environment().putAll(env);
        Process process = builder.start();
        try {
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                throw new IllegalStateException(
                        "k6 " + String.join(" ", args) + " did not finish within " + timeoutSeconds + " s");
            }
            return new Result(
                    process.exitValue(),
                    Files.readString(stdout, StandardCharsets.UTF_8),
                    Files.readString(stderr, StandardCharsets.UTF_8));
        } finally {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
