package dev.stackbench.operator;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The operator as it is deployed: {@code OperatorCommand} in a JVM of its own, with a heap limit and the chart's exit
 * on OutOfMemoryError, as the ServiceAccount of {@code operatorClient}, watching one namespace. Its GC log and output
 * go to files beside {@code name} under operator/target, and its peak memory can be read while it runs.
 */
final class OperatorProcess implements AutoCloseable {

    private static final Pattern HEAP_BEFORE_GC = Pattern.compile(" (\\d+)M->\\d+M\\(\\d+M\\)");

    private final Process process;
    private final Path gcLog;
    private final Path output;

    OperatorProcess(String name, String maxHeap, KubernetesClient operatorClient, String namespace) {
        Path target = Path.of("target").toAbsolutePath();
        gcLog = target.resolve(name + "-gc.log");
        output = target.resolve(name + "-operator.log");
        Config config = operatorClient.getConfiguration();
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-Xmx" + maxHeap,
                "-XX:+ExitOnOutOfMemoryError",
                "-Xlog:gc:file=" + gcLog,
                "-cp",
                System.getProperty("java.class.path"),
                "-Dkubernetes.master=" + config.getMasterUrl(),
                "-Dkubernetes.auth.token=" + config.getOauthToken(),
                "-Dkubernetes.auth.tryKubeConfig=false",
                "-Dkubernetes.auth.tryServiceAccount=false",
                "-Dkubernetes.namespace=" + namespace,
                // As OperatorHarness's operators: fake nodes never end a verification pod.
                "-D" + dev.stackbench.operator.objects.VerificationPod.ENABLED_PROPERTY + "=false"));
        if (config.getCaCertData() != null) {
            command.add("-Dkubernetes.certs.ca.data=" + config.getCaCertData());
        } else if (config.getCaCertFile() != null) {
            command.add("-Dkubernetes.certs.ca.file=" + config.getCaCertFile());
        } else {
            command.add("-Dkubernetes.trust.certificates=true");
        }
        command.addAll(List.of(
                OperatorCommand.class.getName(),
                "--namespace",
                namespace,
                "--no-leader-election",
                "--health-address",
                "127.0.0.1",
                "--health-port",
                "0",
                "--image-tag",
                "it",
                "--database-image",
                "stackbench/postgres:15",
                "--default-database-secret",
                OperatorHarness.DATABASE_SECRET));
        try {
            Files.createDirectories(target);
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the operator in a JVM of its own", e);
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** What the operator printed, for a failure's message. */
    String output() {
        try {
            String text = Files.readString(output);
            return text.length() > 20_000 ? text.substring(text.length() - 20_000) : text;
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    /** The most resident memory the process has had so far (VmHWM of /proc/PID/status), in KiB. */
    OptionalLong peakResidentKiB() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
                if (line.startsWith("VmHWM:")) {
                    return OptionalLong.of(Long.parseLong(line.replaceAll("[^0-9]", "")));
                }
            }
        } catch (IOException e) {
            // gone, or not Linux
        }
        return OptionalLong.empty();
    }

    /** The most heap in use before any collection so far, from the GC log, in MiB. */
    OptionalLong peakHeapMiB() {
        try {
            Matcher heap = HEAP_BEFORE_GC.matcher(Files.readString(gcLog));
            long peak = -1;
            while (heap.find()) {
                peak = Math.max(peak, Long.parseLong(heap.group(1)));
            }
            return peak < 0 ? OptionalLong.empty() : OptionalLong.of(peak);
        } catch (IOException e) {
            return OptionalLong.empty();
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(Duration.ofSeconds(20).toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
