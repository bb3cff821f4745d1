package dev.stackbench.operator;

import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.operator.run.AdmissionPolicy;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The operator's entry point (the main class of its image): runs the BenchmarkRun operator against the cluster of the
 * in-cluster config or the current kubeconfig.
 */
@Command(
        name = "stackbench-operator",
        mixinStandardHelpOptions = true,
        description = "Run the BenchmarkRun operator (in-cluster config or the current kubeconfig).")
public final class OperatorCommand implements Runnable {

    /**
     * The longest a stop may take before the JVM ends anyway: inside a pod's default grace period of 30 s, with
     * java-operator-sdk's 10 s for reconciles under way and 5 s for scrapes under way.
     */
    static final Duration STOP_LIMIT = Duration.ofSeconds(25);

    public static void main(String[] args) {
        System.exit(new CommandLine(new OperatorCommand())
                .setExecutionExceptionHandler((exception, commandLine, parseResult) -> {
                    commandLine.getErr().println("stackbench-operator: " + exception.getMessage());
                    return 1;
                })
                .execute(args));
    }

    @Option(
            names = "--namespace",
            split = ",",
            paramLabel = "NS",
            description = "Namespaces to watch (comma-separated); all namespaces when omitted.")
    List<String> namespaces = List.of();

    @Option(
            names = "--health-port",
            defaultValue = "8080",
            description = "Port of /healthz and /readyz (default: ${DEFAULT-VALUE}).")
    int healthPort;

    @Option(
            names = "--health-address",
            defaultValue = "0.0.0.0",
            description = "Address the health endpoints bind to (default: ${DEFAULT-VALUE}).")
    String healthAddress;

    @Option(
            names = "--leader-election-namespace",
            defaultValue = "${env:POD_NAMESPACE}",
            description = "Namespace of the leader-election Lease (default: $POD_NAMESPACE).")
    String leaseNamespace;

    @Option(names = "--no-leader-election", description = "Run without leader election (one replica only).")
    boolean noLeaderElection;

    @Option(
            names = "--image-tag",
            defaultValue = "${env:STACKBENCH_IMAGE_TAG}",
            description = "Tag of the catalogue images (default: $STACKBENCH_IMAGE_TAG, else the operator version).")
    String imageTag;

    @Option(
            names = "--k6-image",
            defaultValue = "${env:STACKBENCH_K6_IMAGE}",
            description = "Image of the k6 runners and initializer (default: $STACKBENCH_K6_IMAGE, else"
                    + " k6-operator's default).")
    String k6Image;

    @Option(
            names = "--k6-starter-image",
            defaultValue = "${env:STACKBENCH_K6_STARTER_IMAGE}",
            description = "Image of the k6-operator starter, which needs sh and curl (default:"
                    + " $STACKBENCH_K6_STARTER_IMAGE, else k6-operator's default).")
    String k6StarterImage;

    @Option(
            names = "--database-image",
            defaultValue = OperatorSettings.DEFAULT_DATABASE_IMAGE,
            description = "PostgreSQL image of the database each run gets for itself (default: ${DEFAULT-VALUE}).")
    String databaseImage;

    @Option(
            names = "--default-database-secret",
            defaultValue = OperatorSettings.DEFAULT_DATABASE_SECRET,
            description = "Secret with username/password for an external database whose run names none (default:"
                    + " ${DEFAULT-VALUE}).")
    String defaultDatabaseSecret;

    @Option(
            names = "--allowed-image-repositories",
            paramLabel = "REPOS",
            defaultValue = "${env:STACKBENCH_POLICY_IMAGE_REPOSITORIES}",
            description = "Repositories (comma-separated; a path ending in / allows all under it) whose images"
                    + " spec.target.image may name, beside the catalogue's images at the operator's tag (default:"
                    + " $STACKBENCH_POLICY_IMAGE_REPOSITORIES, else none).")
    String allowedImageRepositories;

    @Option(
            names = "--database-secret-label",
            paramLabel = "KEY[=VALUE]",
            defaultValue = "${env:STACKBENCH_POLICY_DATABASE_SECRET_LABEL}",
            description = "Label a Secret must carry for a run to name it in spec.backend.database.external.secretRef,"
                    + " beside the default database Secret (default: $STACKBENCH_POLICY_DATABASE_SECRET_LABEL, else"
                    + " none: that Secret only).")
    String databaseSecretLabel;

    @Option(
            names = "--denied-env",
            paramLabel = "NAMES",
            defaultValue = "${env:STACKBENCH_POLICY_DENIED_ENV}",
            description = "Environment variables (comma-separated) a run may not set in spec.target.env, beside the"
                    + " operator's own wiring (default: $STACKBENCH_POLICY_DENIED_ENV, else the JVM option variables).")
    String deniedEnv;

    @Option(
            names = "--allowed-database-hosts",
            paramLabel = "HOSTS",
            defaultValue = "${env:STACKBENCH_POLICY_DATABASE_HOSTS}",
            description = "External database hosts (comma-separated) a run may name (default:"
                    + " $STACKBENCH_POLICY_DATABASE_HOSTS, else none).")
    String allowedDatabaseHosts;

    @Option(
            names = "--catalogue",
            paramLabel = "FILE",
            description = "Variant catalogue file (default: the one shipped in the jar).")
    Path catalogueFile;

    /** The settings the options (and the variables behind them, as the chart sets them) give. */
    OperatorSettings settings() {
        OperatorSettings defaults = OperatorSettings.defaults();
        return new OperatorSettings(
                imageTag == null || imageTag.isBlank() ? defaults.imageTag() : imageTag,
                databaseImage,
                defaultDatabaseSecret,
                k6Image == null || k6Image.isBlank() ? null : k6Image,
                k6StarterImage == null || k6StarterImage.isBlank() ? null : k6StarterImage,
                defaults.pollInterval(),
                defaults.targetReadyLimit(),
                AdmissionPolicy.fromOptions(
                        allowedImageRepositories, databaseSecretLabel, deniedEnv, allowedDatabaseHosts));
    }

    @Override
    public void run() {
        OperatorSettings settings = settings();
        VariantCatalogue catalogue =
                catalogueFile == null ? VariantCatalogue.load() : VariantCatalogue.load(catalogueFile);
        String lease = noLeaderElection ? null : leaseNamespace;
        if (!noLeaderElection && (lease == null || lease.isBlank())) {
            throw new IllegalArgumentException("leader election needs the operator's namespace: set POD_NAMESPACE"
                    + " (the chart does), pass --leader-election-namespace NS, or run one replica with"
                    + " --no-leader-election");
        }
        // The JDK HTTP client (java-operator-sdk's choice) rather than Vert.x, which fabric8 also ships: no extra
        // event-loop threads, a smaller footprint, and no random pick between two factories.
        KubernetesClient client = new KubernetesClientBuilder()
                .withHttpClientFactory(new JdkHttpClientFactory())
                .build();
        CountDownLatch stopped = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        // On SIGTERM (a deleted pod, a rollout) the JVM ends once its shutdown hooks have: this one waits for the stop
        // below, which hands the scrapes and the Lease to the next operator, within the pod's grace period.
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            stopped.countDown();
                            try {
                                closed.await(STOP_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        },
                        "stackbench-operator-stop"));
        try (StackbenchOperator operator =
                        new StackbenchOperator(client, catalogue, settings, new LinkedHashSet<>(namespaces), lease);
                HealthServer health =
                        new HealthServer(healthAddress, healthPort, operator::isAlive, operator::isReady)) {
            operator.start();
            System.err.println("stackbench operator started; health on " + healthAddress + ":" + health.port()
                    + (lease == null ? "" : ", leader election in namespace " + lease));
            stopped.await();
            System.err.println("stackbench operator stopping: handing the runs' scrapes"
                    + (lease == null ? "" : " and the Lease") + " over to the next operator");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            client.close();
            closed.countDown();
        }
    }
}
