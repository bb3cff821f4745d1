package dev.stackbench.operator.objects;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.BenchmarkRunDefaults;
import dev.stackbench.api.run.ResourcesSpec;
import dev.stackbench.operator.OperatorSettings;
import dev.stackbench.operator.RunLabels;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The PostgreSQL a run gets for itself when its spec names no external database: one pod on the backend pool with
 * requests equal to limits (spec.backend.database.resources, by default the target's), data in an emptyDir, a Service
 * for the target, and a Secret with a password made for this run. All three belong to the run, so they go with it;
 * the next run starts from an empty database that the target's migrations fill with the same schema and seed rows
 * as local mode's. The server settings are local mode's: a throwaway database, so no fsync.
 */
public final class RunDatabase {

    public static final int PORT = BenchmarkRunDefaults.DATABASE_PORT;
    public static final String USER = "stackbench";
    public static final String DATABASE = BenchmarkRunDefaults.DATABASE_NAME;
    public static final String CONTAINER = "postgresql";
    /**
     * The user the server runs as. Stackbench's image has it (nonroot); the official postgres image runs any user id
     * (its entrypoint supplies the passwd entry initdb needs).
     */
    static final long RUN_AS_USER = 65532;

    /** Seconds a deleted database pod gets to stop before it is killed. */
    static final long TERMINATION_GRACE_SECONDS = 5;

    /** Local mode's server settings (targets/local-postgres): enough connections, no durability. */
    static final Map<String, String> SETTINGS = settings();

    private static final SecureRandom RANDOM = new SecureRandom();

    private final OperatorSettings settings;
    private final java.util.Optional<DatabaseExporter> exporter;

    /**
     * The most a run's database files may take on the node: a bound, not a size to fill; a database that grows past
     * it is evicted (and the run says so) instead of filling the node's disk.
     */
    static final String DATA_SIZE = "1Gi";

    public RunDatabase(OperatorSettings settings) {
        this(settings, DatabaseExporter.fromEnvironment());
    }

    RunDatabase(OperatorSettings settings, java.util.Optional<DatabaseExporter> exporter) {
        this.settings = settings;
        this.exporter = exporter;
    }

    public String image() {
        return settings.databaseImage();
    }

    public static String name(BenchmarkRun run) {
        return run.getMetadata().getName() + "-db";
    }

    /** The Service name the target connects to. */
    public static String host(BenchmarkRun run) {
        return name(run);
    }

    /** Whether the run gets a database of its own (no spec.backend.database.external). */
    public static boolean ownDatabase(BenchmarkRun run) {
        return run.getSpec().getBackend() == null
                || run.getSpec().getBackend().getDatabase() == null
                || !run.getSpec().getBackend().getDatabase().isExternal();
    }

    /** The run's credentials: created once (a new password per run), never read back by the operator. */
    public Secret secret(BenchmarkRun run) {
        byte[] password = new byte[18];
        RANDOM.nextBytes(password);
        return new SecretBuilder()
                .withNewMetadata()
                .withName(name(run))
                .withNamespace(run.getMetadata().getNamespace())
                .withLabels(RunLabels.forRole(run, RunLabels.ROLE_DATABASE))
                .withOwnerReferences(RunLabels.ownerReference(run))
                .endMetadata()
                .withType("Opaque")
                .addToStringData(BenchmarkRunDefaults.SECRET_USER_KEY, USER)
                .addToStringData(
                        BenchmarkRunDefaults.SECRET_PASSWORD_KEY, HexFormat.of().formatHex(password))
                .build();
    }

    /** The variable {@code name} holding the run's database password, read by the kubelet from the run's Secret. */
    static io.fabric8.kubernetes.api.model.EnvVar password(BenchmarkRun run, String name) {
        return new io.fabric8.kubernetes.api.model.EnvVarBuilder()
                .withName(name)
                .withNewValueFrom()
                .withNewSecretKeyRef()
                .withName(name(run))
                .withKey(BenchmarkRunDefaults.SECRET_PASSWORD_KEY)
                .endSecretKeyRef()
                .endValueFrom()
                .build();
    }

    public Service service(BenchmarkRun run) {
        return new ServiceBuilder()
                .withNewMetadata()
                .withName(name(run))
                .withNamespace(run.getMetadata().getNamespace())
                .withLabels(RunLabels.forRole(run, RunLabels.ROLE_DATABASE))
                .withOwnerReferences(RunLabels.ownerReference(run))
                .endMetadata()
                .withNewSpec()
                .withType("ClusterIP")
                // The target connects as soon as the server listens, not once the kubelet's next probe (every 2 s)
                // and the endpoint's way to every node say so: its start-up migration retries until it answers, and
                // the target's start waits for that migration.
                .withPublishNotReadyAddresses(true)
                .withSelector(RunLabels.selector(run, RunLabels.ROLE_DATABASE))
                .addNewPort()
                .withName("postgresql")
                .withPort(PORT)
                .withTargetPort(new IntOrString("postgresql"))
                .endPort()
                .endSpec()
                .build();
    }

    public Deployment deployment(BenchmarkRun run) {
        ResourcesSpec resources = run.getSpec().getBackend().getDatabase().getResources();
        Map<String, Quantity> pod = Map.of(
                "cpu", new Quantity(resources.getCpu()),
                "memory", new Quantity(resources.getMemory()));
        // The exporter's share comes out of the pod's size, so the pod still takes what the spec gives the database
        // (and fits where it did): PostgreSQL itself gets the rest.
        Map<String, Quantity> limits =
                exporter.isPresent() && DatabaseExporter.fits(pod) ? DatabaseExporter.serverShare(pod) : pod;
        List<String> args = new ArrayList<>();
        SETTINGS.forEach((name, value) -> args.addAll(List.of("-c", name + "=" + value)));
        var placement = Placements.backend(run.getSpec());
        return new DeploymentBuilder()
                .withNewMetadata()
                .withName(name(run))
                .withNamespace(run.getMetadata().getNamespace())
                .withLabels(RunLabels.forRole(run, RunLabels.ROLE_DATABASE))
                .withOwnerReferences(RunLabels.ownerReference(run))
                .endMetadata()
                .withNewSpec()
                .withReplicas(1)
                // One server on one emptyDir: never two at once.
                .withNewStrategy()
                .withType("Recreate")
                .endStrategy()
                .withNewSelector()
                .withMatchLabels(RunLabels.selector(run, RunLabels.ROLE_DATABASE))
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .withLabels(RunLabels.forRole(run, RunLabels.ROLE_DATABASE))
                .endMetadata()
                .withNewSpec()
                .withNodeSelector(placement.getNodeSelector())
                .withTolerations(placement.getTolerations())
                .withEnableServiceLinks(false)
                .withAutomountServiceAccountToken(false)
                // The data goes with the run, so nothing needs a clean shutdown, and an image's entrypoint shell
                // ignores SIGTERM while it creates the cluster: a run that fails that early would otherwise hold the
                // backend node's CPU for the default 30 s, and the next run's pods wait Pending for it.
                .withTerminationGracePeriodSeconds(TERMINATION_GRACE_SECONDS)
                .withSecurityContext(new io.fabric8.kubernetes.api.model.PodSecurityContextBuilder(RestrictedPods.pod())
                        .withRunAsUser(RUN_AS_USER)
                        .withRunAsGroup(RUN_AS_USER)
                        .withFsGroup(RUN_AS_USER)
                        .build())
                .addNewContainer()
                .withName(CONTAINER)
                .withImage(image())
                .withArgs(args)
                .withSecurityContext(RestrictedPods.container())
                .addNewPort()
                .withName("postgresql")
                .withContainerPort(PORT)
                .endPort()
                .addNewEnv()
                .withName("POSTGRES_USER")
                .withValue(USER)
                .endEnv()
                .addToEnv(password(run, "POSTGRES_PASSWORD"))
                .addNewEnv()
                .withName("POSTGRES_DB")
                .withValue(DATABASE)
                .endEnv()
                // Below the volume's mount point: initdb must own PGDATA, and a mount point belongs to root.
                .addNewEnv()
                .withName("PGDATA")
                .withValue("/var/lib/postgresql/data/pgdata")
                .endEnv()
                .withNewResources()
                .withRequests(limits)
                .withLimits(limits)
                .endResources()
                .withNewReadinessProbe()
                .withNewExec()
                .withCommand("pg_isready", "-h", "127.0.0.1", "-p", Integer.toString(PORT), "-U", USER, "-d", DATABASE)
                .endExec()
                .withPeriodSeconds(2)
                .withTimeoutSeconds(5)
                .endReadinessProbe()
                .addNewVolumeMount()
                .withName("data")
                .withMountPath("/var/lib/postgresql/data")
                .endVolumeMount()
                .addNewVolumeMount()
                .withName("run")
                .withMountPath("/var/run/postgresql")
                .endVolumeMount()
                .addToVolumeMounts(RestrictedPods.mount("tmp", RestrictedPods.TMP))
                .endContainer()
                .addAllToContainers(exporter.filter(e -> DatabaseExporter.fits(pod))
                        .map(e -> java.util.List.of(e.container(run)))
                        .orElse(java.util.List.of()))
                // The root filesystem is read-only (RestrictedPods): the data, the socket directory and /tmp are
                // all PostgreSQL writes.
                .addToVolumes(RestrictedPods.scratch("data", DATA_SIZE, false))
                .addToVolumes(RestrictedPods.scratch("run", "1Mi", true))
                .addToVolumes(RestrictedPods.scratch("tmp", "16Mi", false))
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }

    /**
     * The version in PostgreSQL's start line ("starting PostgreSQL 15.14 (Debian 15.14-0+deb12u1) on x86_64...").
     * Public for the run's environment record.
     */
    public static java.util.Optional<String> announcedVersion(String log) {
        if (log == null) {
            return java.util.Optional.empty();
        }
        String marker = "starting PostgreSQL ";
        return log.lines()
                .filter(line -> line.contains(marker))
                .map(line -> {
                    String rest = line.substring(line.indexOf(marker) + marker.length());
                    int on = rest.indexOf(" on ");
                    return (on < 0 ? rest : rest.substring(0, on)).trim();
                })
                .filter(version -> !version.isEmpty())
                .reduce((first, last) -> last);
    }

    private static Map<String, String> settings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("max_connections", "300");
        settings.put("fsync", "off");
        settings.put("synchronous_commit", "off");
        settings.put("full_page_writes", "off");
        // The verification counts each request's statements (VerificationPod): the module must be loaded at start.
        settings.put("shared_preload_libraries", "pg_stat_statements");
        settings.put("pg_stat_statements.track_utility", "off");
        return settings;
    }
}
