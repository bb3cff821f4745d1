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
 * A copy of charts/stackbench that helm can lint, render and install with no network, helm refusing a chart
 * whose declared dependencies are missing from charts/ even when they are switched off.
 *
 * <p>k6-operator is the real chart: hack/setup.sh (hack/install/k6-operator.sh) packages it from k6-operator's
 * source archive, and its .tgz is copied into the copy's charts/, where helm takes a packaged dependency as it
 * would after `helm dependency build`. Copying is simpler than pointing a temporary helm repository cache at the
 * local chart repository: helm would still resolve the download URL against the public repository's address.
 *
 * <p>Bitnami PostgreSQL and kube-prometheus-stack cannot be downloaded here, so each gets a stand-in chart of the
 * same name and version: helm's dependency check passes, and when switched on it renders only a ConfigMap
 * {@code <release>-<name>-values-received} with the values helm passed it. What is tested is the stackbench side of
 * their switches; users get the real ones with `helm dependency build`.
 */
final class OfflineChart implements AutoCloseable {

    static final Duration HELM_TIMEOUT = Duration.ofMinutes(5);
    private static final YAMLMapper YAML = new YAMLMapper();
    private static final String K6_OPERATOR = "k6-operator";

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
            if (K6_OPERATOR.equals(name)) {
                addPackagedK6Operator(chart, dependency.path("version").asText());
                continue;
            }
            Path standIn = chart.resolve("charts").resolve(name);
            Files.createDirectories(standIn);
            Files.writeString(
                    standIn.resolve("Chart.yaml"),
                    "apiVersion: v2\nname: " + name + "\nversion: "
                            + dependency.path("version").asText() + "\ndescription: offline stand-in\n");
            // What the dependency would receive from stackbench's values (its own values and the merged globals),
            // as one ConfigMap, so tests can read stackbench's side of the switch.
            Files.createDirectories(standIn.resolve("templates"));
            Files.writeString(standIn.resolve("templates").resolve("values-received.yaml"), """
                    apiVersion: v1
                    kind: ConfigMap
                    metadata:
                      name: {{ .Release.Name }}-%s-values-received
                    data:
                      values.json: {{ toJson .Values | quote }}
                    """.formatted(name));
        }
    }

    /** The k6-operator chart hack/setup.sh packaged, checked to be the version charts/stackbench declares. */
    private static void addPackagedK6Operator(Path chart, String version) throws IOException {
        Path packaged = ProjectTools.toolSetting("STACKBENCH_K6_OPERATOR_CHART")
                .map(Path::of)
                .orElseThrow(() -> new IllegalStateException("the k6-operator chart is not packaged "
                        + "(STACKBENCH_K6_OPERATOR_CHART is not set): run hack/setup.sh k6-operator"));
        if (!Files.isRegularFile(packaged)) {
            throw new IllegalStateException("the packaged k6-operator chart is missing at " + packaged
                    + " (STACKBENCH_K6_OPERATOR_CHART): run hack/setup.sh k6-operator");
        }
        String expected = K6_OPERATOR + "-" + version + ".tgz";
        if (!packaged.getFileName().toString().equals(expected)) {
            throw new IllegalStateException("charts/stackbench/Chart.yaml wants k6-operator " + version
                    + " but hack/setup.sh packaged " + packaged.getFileName() + ": make the dependency version"
                    + " in Chart.yaml and K6_OPERATOR_VERSION in hack/lib.sh agree, then re-run hack/setup.sh");
        }
        Files.createDirectories(chart.resolve("charts"));
        Files.copy(packaged, chart.resolve("charts").resolve(expected));
    }

    private static void copyTree(Path from, Path to) throws IOException {
        // Dependencies a developer fetched into charts/ (helm dependency build, hack/chart-deps-offline.sh) are not
        // the chart's source: the copy gets its own.
        Path fetched = from.resolve("charts");
        try (var paths = Files.walk(from)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                if (path.startsWith(fetched)) {
                    continue;
                }
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
