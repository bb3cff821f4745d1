package dev.stackbench.chart;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.stackbench.testcluster.CommandResult;
import dev.stackbench.testcluster.ProjectTools;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A copy of charts/stackbench that helm can lint, render and install with no network. The chart's optional
 * dependencies (Bitnami PostgreSQL, k6-operator, kube-prometheus-stack) cannot be downloaded here, and helm
 * refuses a chart whose declared dependencies are missing from charts/ even when they are switched off. So the
 * copy gets an empty chart of the same name and version for each: helm's dependency check passes, the
 * dependencies render nothing, and what is tested is the stackbench side of every switch. Users get the real
 * dependencies with `helm dependency build`.
 */
final class OfflineChart implements AutoCloseable {

    static final Duration HELM_TIMEOUT = Duration.ofMinutes(5);
    private static final YAMLMapper YAML = new YAMLMapper();

    private final Path helm;
    private final Path workspace;
    private final Path chart;

    private OfflineChart(Path helm, Path workspace, Path chart) {
        this.helm = helm;
        this.workspace = workspace;
        this.chart = chart;
    }

    static OfflineChart create() {
        Path source = ProjectTools.repositoryRoot().resolve("charts/stackbench");
        Path helm = ProjectTools.requireExecutable("STACKBENCH_HELM", "helm");
        try {
            Path workspace = Files.createTempDirectory("stackbench-chart-");
            Path chart = workspace.resolve("stackbench");
            copyTree(source, chart);
            standInForDependencies(chart);
            return new OfflineChart(helm, workspace, chart);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy the chart " + source, e);
        }
    }

    Path directory() {
        return chart;
    }

    /** Runs helm with the given arguments; {@code chart} in them is replaced by the copy's path. */
    CommandResult helm(List<String> arguments) {
        List<String> command = new ArrayList<>();
        command.add(helm.toString());
        for (String argument : arguments) {
            command.add("chart".equals(argument) ? chart.toString() : argument);
        }
        return Commands.run(command, workspace, HELM_TIMEOUT);
    }

    CommandResult helm(String... arguments) {
        return helm(List.of(arguments));
    }

    /** `helm template` as release {@code release} in {@code namespace}, with extra arguments (--set ...). */
    Manifests template(String release, String namespace, List<String> extraArguments) {
        List<String> arguments = new ArrayList<>(
                List.of("template", release, "chart", "--namespace", namespace, "--kube-version", "1.36.0"));
        arguments.addAll(extraArguments);
        return Manifests.parse(helm(arguments).requireSuccess().stdout());
    }

    @Override
    public void close() {
        Commands.deleteTree(workspace);
    }

    private static void standInForDependencies(Path chart) throws IOException {
        JsonNode metadata = YAML.readTree(chart.resolve("Chart.yaml").toFile());
        for (JsonNode dependency : metadata.path("dependencies")) {
            String name = dependency.path("name").asText();
            Path standIn = chart.resolve("charts").resolve(name);
            Files.createDirectories(standIn);
            Files.writeString(
                    standIn.resolve("Chart.yaml"),
                    "apiVersion: v2\nname: " + name + "\nversion: "
                            + dependency.path("version").asText() + "\ndescription: empty offline stand-in\n");
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (var paths = Files.walk(from)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target);
                }
            }
        }
    }
}
