package dev.stackbench.operator.objects;

import dev.stackbench.api.run.BenchmarkRun;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import java.util.Optional;

/**
 * PostgreSQL's own figures for Prometheus: a postgres_exporter container beside the server in each run's own database
 * pod, connecting to it over the pod's loopback as the run's user, serving /metrics on a port named
 * {@value #PORT_NAME} that the chart's PodMonitor scrapes (with the run's name from the pod's labels). Only when the
 * chart names an exporter image (it does when it creates its monitors): without a Prometheus nobody reads it, and an
 * external database is not the operator's to instrument. Its CPU and memory come out of the database pod's size
 * (spec.backend.database.resources), so the pod takes on its node what it took without it, and it is left out of a
 * database smaller than {@link #SMALLEST_DATABASE_CPU} cores, where its share would be a large part of the server's.
 *
 * @param image the exporter's image (quay.io/prometheuscommunity/postgres-exporter, or one built offline)
 */
public record DatabaseExporter(String image) {

    /** The exporter image (chart value metrics.databaseExporter.image); empty or unset: no exporter. */
    public static final String IMAGE_ENV = "STACKBENCH_DATABASE_EXPORTER_IMAGE";

    public static final String CONTAINER = "metrics";
    public static final String PORT_NAME = "metrics";
    /** postgres_exporter's registered default port. */
    public static final int PORT = 9187;

    /** A small fixed share beside the server (requests equal to limits, like every container of a run). */
    static final Map<String, Quantity> RESOURCES = Map.of("cpu", new Quantity("50m"), "memory", new Quantity("48Mi"));

    /** The smallest database the exporter goes beside: its 50m is then at most a tenth of the pod's CPU. */
    static final java.math.BigDecimal SMALLEST_DATABASE_CPU = new java.math.BigDecimal("0.5");

    public DatabaseExporter {
        if (image == null || image.isBlank()) {
            throw new IllegalArgumentException("the database exporter needs an image: set " + IMAGE_ENV
                    + " (chart value metrics.databaseExporter.image) or leave it unset for no exporter");
        }
    }

    /** The exporter the chart configured, or none. */
    public static Optional<DatabaseExporter> fromEnvironment() {
        return from(System.getenv());
    }

    static Optional<DatabaseExporter> from(Map<String, String> env) {
        String image = env.get(IMAGE_ENV);
        return image == null || image.isBlank() ? Optional.empty() : Optional.of(new DatabaseExporter(image.strip()));
    }

    /** Whether a database pod of this size gets the exporter (see {@link #SMALLEST_DATABASE_CPU}). */
    static boolean fits(Map<String, Quantity> pod) {
        return Quantity.getAmountInBytes(pod.get("cpu")).compareTo(SMALLEST_DATABASE_CPU) >= 0
                && Quantity.getAmountInBytes(pod.get("memory"))
                                .compareTo(Quantity.getAmountInBytes(RESOURCES.get("memory"))
                                        .multiply(java.math.BigDecimal.valueOf(4)))
                        >= 0;
    }

    /** What the server keeps of the pod's size: the pod's less the exporter's. */
    static Map<String, Quantity> serverShare(Map<String, Quantity> pod) {
        java.math.BigDecimal millicores = Quantity.getAmountInBytes(pod.get("cpu"))
                .subtract(Quantity.getAmountInBytes(RESOURCES.get("cpu")))
                .multiply(java.math.BigDecimal.valueOf(1000));
        java.math.BigDecimal bytes = Quantity.getAmountInBytes(pod.get("memory"))
                .subtract(Quantity.getAmountInBytes(RESOURCES.get("memory")));
        return Map.of(
                "cpu",
                        new Quantity(millicores
                                        .setScale(0, java.math.RoundingMode.DOWN)
                                        .toPlainString() + "m"),
                "memory",
                        new Quantity(
                                bytes.setScale(0, java.math.RoundingMode.DOWN).toPlainString()));
    }

    /** The container beside the server of {@code run}'s database, reading the password from the run's Secret. */
    Container container(BenchmarkRun run) {
        return new ContainerBuilder()
                .withName(CONTAINER)
                .withImage(image)
                .withArgs("--web.listen-address=:" + PORT)
                .withSecurityContext(RestrictedPods.container())
                .addNewPort()
                .withName(PORT_NAME)
                .withContainerPort(PORT)
                .endPort()
                .addNewEnv()
                .withName("DATA_SOURCE_URI")
                .withValue("127.0.0.1:" + RunDatabase.PORT + "/" + RunDatabase.DATABASE + "?sslmode=disable")
                .endEnv()
                .addNewEnv()
                .withName("DATA_SOURCE_USER")
                .withValue(RunDatabase.USER)
                .endEnv()
                .addToEnv(RunDatabase.password(run, "DATA_SOURCE_PASS"))
                .withNewResources()
                .withRequests(RESOURCES)
                .withLimits(RESOURCES)
                .endResources()
                .build();
    }
}
