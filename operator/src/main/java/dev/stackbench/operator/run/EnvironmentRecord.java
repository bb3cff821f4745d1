package dev.stackbench.operator.run;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.RunEnvironment;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.model.RunApps;
import dev.stackbench.operator.BoundedReads;
import dev.stackbench.operator.OperatorIdentity;
import dev.stackbench.operator.OperatorSettings;
import dev.stackbench.operator.PodCpuScraper;
import dev.stackbench.operator.RunLabels;
import dev.stackbench.operator.RunManifest;
import dev.stackbench.operator.RunnerHealth;
import dev.stackbench.operator.TargetMetricsScraper;
import dev.stackbench.operator.objects.DelayServiceDeployment;
import dev.stackbench.operator.objects.K6TestRun;
import dev.stackbench.operator.objects.RunDatabase;
import dev.stackbench.operator.objects.TargetDeployment;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The environment a run's figures were measured in, for status.environment: the apps as configured, the nodes, the
 * images and the exact versions the pods announced (Java, Spring Boot, PostgreSQL, k6), and the run's manifest of
 * image digests, QoS classes and node facts.
 */
public final class EnvironmentRecord {

    private static final Logger LOG = LoggerFactory.getLogger(EnvironmentRecord.class);

    /**
     * The most of a container's log read for the version it announced: the version is in its first lines, and the
     * log of a long-running database can be megabytes.
     */
    static final int HEAD_BYTES = 64 * 1024;

    private final VariantCatalogue catalogue;
    private final OperatorSettings settings;
    private final TargetDeployment target;
    private final DelayServiceDeployment delayService;
    private final RunDatabase database;

    public EnvironmentRecord(VariantCatalogue catalogue, OperatorSettings settings) {
        this.catalogue = catalogue;
        this.settings = settings;
        this.target = new TargetDeployment(catalogue, settings);
        this.delayService = new DelayServiceDeployment(catalogue, settings);
        this.database = new RunDatabase(settings);
    }

    /**
     * @param load the run, or the view of the step whose figures the run keeps
     * @param metrics what the target's scrapes found, with the versions the target announced
     */
    RunEnvironment describe(RunContext pass, BenchmarkRun load, TargetMetricsScraper.Outcome metrics) {
        Map<String, String> images = new LinkedHashMap<>();
        images.put(RunLabels.ROLE_TARGET, target.image(load));
        images.put(RunLabels.ROLE_DELAY_SERVICE, delayService.image());
        String databaseSource;
        Optional<String> postgresVersion = Optional.empty();
        if (RunDatabase.ownDatabase(load)) {
            images.put(RunLabels.ROLE_DATABASE, database.image());
            databaseSource = RunEnvironment.DATABASE_OWN;
            postgresVersion = postgresVersion(pass, load);
        } else {
            var external = TargetDeployment.database(load, settings);
            databaseSource = "external " + external.getHost() + ":" + external.getPort() + "/" + external.getDatabase();
        }
        pass.runnerPods(load).stream()
                .findFirst()
                .ifPresent(pod -> images.put(
                        RunLabels.ROLE_LOADGEN,
                        pod.getSpec().getContainers().getFirst().getImage()));
        RunEnvironment environment = RunApps.environment(
                load.getSpec(),
                target.app(load),
                catalogue,
                new RunApps.Platform(
                        "cluster",
                        pass.pods(RunLabels.ROLE_TARGET).stream()
                                .map(pod -> pod.getSpec().getNodeName())
                                .filter(Objects::nonNull)
                                .distinct()
                                .sorted()
                                .toList(),
                        null,
                        load.getSpec().getWorkload().getParallelism(),
                        images,
                        databaseSource,
                        postgresVersion.orElse(null),
                        k6Version(pass, load).orElse(null),
                        metrics.javaVersion().orElse(null),
                        metrics.springBootVersion().orElse(null)));
        Map<String, List<Pod>> podsByRole = new LinkedHashMap<>();
        podsByRole.put(RunLabels.ROLE_TARGET, pass.pods(RunLabels.ROLE_TARGET));
        podsByRole.put(RunLabels.ROLE_DELAY_SERVICE, pass.pods(RunLabels.ROLE_DELAY_SERVICE));
        podsByRole.put(RunLabels.ROLE_DATABASE, pass.pods(RunLabels.ROLE_DATABASE));
        podsByRole.put(PodCpuScraper.ROLE_RUNNER, RunnerHealth.sorted(pass.runnerPods(load)));
        RunManifest.describePods(environment, podsByRole, node -> {
            try {
                return Optional.ofNullable(pass.client().nodes().withName(node).get());
            } catch (KubernetesClientException e) {
                LOG.warn(
                        "run {}: cannot read node {} for the manifest: {}",
                        load.getMetadata().getName(),
                        node,
                        e.getMessage());
                return Optional.empty();
            }
        });
        OperatorIdentity operator = OperatorIdentity.current();
        environment.setOperatorVersion(operator.version());
        environment.setOperatorImage(operator.image());
        return environment;
    }

    /**
     * The server version the run's own PostgreSQL announced at start ("starting PostgreSQL 15.14 (Debian ...) on
     * ..."), from its pod's log: the exact server, whatever the image tag says.
     */
    private static Optional<String> postgresVersion(RunContext pass, BenchmarkRun load) {
        return fromContainerLog(
                pass, load, pass.pods(RunLabels.ROLE_DATABASE), RunDatabase.CONTAINER, RunDatabase::announcedVersion);
    }

    /** What `k6 version` printed in a runner's version init container ("k6 v1.8.1 (commit/..., go1.24, ...)"). */
    private static Optional<String> k6Version(RunContext pass, BenchmarkRun load) {
        List<Pod> withVersionContainer = RunnerHealth.sorted(pass.runnerPods(load)).stream()
                .filter(pod -> pod.getSpec().getInitContainers() != null
                        && pod.getSpec().getInitContainers().stream()
                                .anyMatch(c -> K6TestRun.VERSION_CONTAINER.equals(c.getName())))
                .toList();
        return fromContainerLog(
                pass, load, withVersionContainer, K6TestRun.VERSION_CONTAINER, K6TestRun::printedVersion);
    }

    /**
     * The first figure {@code parse} finds in the first {@link #HEAD_BYTES} of the log of {@code container} of one of
     * the pods, in their order.
     */
    private static Optional<String> fromContainerLog(
            RunContext pass,
            BenchmarkRun load,
            List<Pod> pods,
            String container,
            Function<String, Optional<String>> parse) {
        for (Pod pod : pods) {
            try {
                Optional<String> found = parse.apply(BoundedReads.head(
                        pass.client()
                                .pods()
                                .inNamespace(load.getMetadata().getNamespace())
                                .withName(pod.getMetadata().getName())
                                .inContainer(container)
                                .limitBytes(HEAD_BYTES)
                                .getLogInputStream(),
                        HEAD_BYTES));
                if (found.isPresent()) {
                    return found;
                }
            } catch (KubernetesClientException e) {
                LOG.warn(
                        "run {}: cannot read the log of container {} of pod {}: {}",
                        load.getMetadata().getName(),
                        container,
                        pod.getMetadata().getName(),
                        e.getMessage());
            }
        }
        return Optional.empty();
    }
}
