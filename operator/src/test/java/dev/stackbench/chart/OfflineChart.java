package dev.stackbench.chart;

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
 * <p>Every dependency is the real chart, put into the copy's charts/ by hack/chart-deps-offline.sh, the script
 * users run for an offline install, so the tests exercise what they get: k6-operator packaged by hack/setup.sh
 * from its source archive, kube-prometheus-stack and Bitnami PostgreSQL unpacked from the charts in
 * ../shared/third-party with the charts they depend on. Running the script is simpler than pointing a temporary
 * helm repository cache at local chart repositories: helm would still resolve download URLs against the public
 * repositories' addresses.
 */
final class OfflineChart implements AutoCloseable {

    static final Duration HELM_TIMEOUT = Duration.ofMinutes(5);

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
            addDependencies(chart);
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

    /** The dependency charts, by the script users run; it fails saying what is missing and what to do. */
    private static void addDependencies(Path chart) {
        Path script = ProjectTools.repositoryRoot().resolve("hack/chart-deps-offline.sh");
        CommandResult result = Commands.run(List.of(script.toString(), chart.toString()), chart, HELM_TIMEOUT);
        if (!result.succeeded()) {
            throw new IllegalStateException(
                    "hack/chart-deps-offline.sh could not add the chart's dependencies:\n" + result.describe());
        }
    }

    /**
     * The CRDs kube-prometheus-stack brings (Prometheus, PrometheusRule, ServiceMonitor, ...), of the
     * prometheus-operator version its chart runs: what its rendered custom resources are validated against.
     */
    Path prometheusOperatorCrds() {
        return chart.resolve("charts/kube-prometheus-stack/charts/crds/crds");
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
