package dev.stackbench.operator.objects;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.BenchmarkRunDefaults;
import dev.stackbench.api.run.DatabaseSpec;
import dev.stackbench.api.run.ExternalDatabaseSpec;
import dev.stackbench.api.run.SecretKeysRef;
import dev.stackbench.api.run.TargetSpec;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.model.AppWiring;
import dev.stackbench.model.RunApps;
import dev.stackbench.model.SpringApp;
import dev.stackbench.operator.OperatorSettings;
import dev.stackbench.operator.RunLabels;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.List;

/**
 * The target under test as a Deployment: the app the shared model describes ({@link RunApps#target}), on the target
 * pool, with the database credentials from a Secret.
 */
public final class TargetDeployment {

    public static final int HTTP_PORT = AppWiring.CLUSTER_TARGET.httpPort();
    public static final int MANAGEMENT_PORT = AppWiring.CLUSTER_TARGET.managementPort();

    /**
     * How many more times, a second apart, the target's start-up migration tries a database that does not answer
     * yet (the apps' {@value #DB_CONNECT_RETRIES_ENV}). The target starts beside the run's database rather than after
     * it, so its JVM starts while the database is created; two minutes is far more than that takes. Local mode starts
     * the database first and leaves the apps' default (no retry), so a wrong database fails the start at once.
     */
    static final String DB_CONNECT_RETRIES_ENV = "DB_CONNECT_RETRIES";

    static final String DB_CONNECT_RETRIES = "120";

    private final VariantCatalogue catalogue;
    private final OperatorSettings settings;

    public TargetDeployment(VariantCatalogue catalogue, OperatorSettings settings) {
        this.catalogue = catalogue;
        this.settings = settings;
    }

    /** The image of the run's target: the spec's override or the catalogue image with the operator's tag. */
    public String image(BenchmarkRun run) {
        TargetSpec target = run.getSpec().getTarget();
        if (target.getImage() != null && !target.getImage().isBlank()) {
            return target.getImage();
        }
        return catalogue.app(target.getVariant()).image() + ":" + settings.imageTag();
    }

    public Deployment desired(BenchmarkRun run) {
        SpringApp app = app(run);
        List<EnvVar> env = SpringAppDeployment.plainEnv(app);
        if (!app.environment().containsKey(DB_CONNECT_RETRIES_ENV)) {
            env.add(new EnvVar(DB_CONNECT_RETRIES_ENV, DB_CONNECT_RETRIES, null));
        }
        SecretKeysRef secret = database(run).getSecretRef();
        env.add(secretEnv(SpringApp.DB_USER_ENV, secret.getName(), secret.getUserKey()));
        env.add(secretEnv(SpringApp.DB_PASSWORD_ENV, secret.getName(), secret.getPasswordKey()));
        return SpringAppDeployment.desired(
                run,
                new SpringAppDeployment.App(
                        RunLabels.targetName(run),
                        RunLabels.ROLE_TARGET,
                        "target",
                        image(run),
                        run.getSpec().getTarget().getReplicas(),
                        Placements.target(run.getSpec()),
                        app,
                        env));
    }

    /** The target as the shared model describes it, wired to the run's Services and database. */
    public SpringApp app(BenchmarkRun run) {
        ExternalDatabaseSpec database = database(run);
        AppWiring wiring = new AppWiring(
                AppWiring.CLUSTER_TARGET,
                AppWiring.CLUSTER_DELAY_SERVICE,
                DelayServiceService.url(run),
                new AppWiring.Database(
                        database.getHost(),
                        database.getPort(),
                        database.getDatabase(),
                        run.getSpec().getBackend().getDatabase().isExternal()));
        return RunApps.target(run.getSpec(), catalogue, wiring);
    }
    /**
     * Where the target's database is: the run's own (its Service, its Secret) or the spec's external one, with the
     * operator's default Secret when that names none. Public for the run's environment record.
     */
    public static ExternalDatabaseSpec database(BenchmarkRun run, OperatorSettings settings) {
        DatabaseSpec database = run.getSpec().getBackend() == null
                ? null
                : run.getSpec().getBackend().getDatabase();
        SecretKeysRef secret = new SecretKeysRef()
                .withUserKey(BenchmarkRunDefaults.SECRET_USER_KEY)
                .withPasswordKey(BenchmarkRunDefaults.SECRET_PASSWORD_KEY);
        if (database == null || !database.isExternal()) {
            return new ExternalDatabaseSpec()
                    .withHost(RunDatabase.host(run))
                    .withPort(RunDatabase.PORT)
                    .withDatabase(RunDatabase.DATABASE)
                    .withSecretRef(secret.withName(RunDatabase.name(run)));
        }
        ExternalDatabaseSpec external = database.getExternal();
        SecretKeysRef given = external.getSecretRef();
        secret.setName(given != null && given.getName() != null ? given.getName() : settings.defaultDatabaseSecret());
        if (given != null && given.getUserKey() != null) {
            secret.setUserKey(given.getUserKey());
        }
        if (given != null && given.getPasswordKey() != null) {
            secret.setPasswordKey(given.getPasswordKey());
        }
        return new ExternalDatabaseSpec()
                .withHost(external.getHost())
                .withPort(external.getPort() != null ? external.getPort() : BenchmarkRunDefaults.DATABASE_PORT)
                .withDatabase(
                        external.getDatabase() != null ? external.getDatabase() : BenchmarkRunDefaults.DATABASE_NAME)
                .withSecretRef(secret);
    }

    ExternalDatabaseSpec database(BenchmarkRun run) {
        return database(run, settings);
    }

    private static EnvVar secretEnv(String name, String secret, String key) {
        return new EnvVarBuilder()
                .withName(name)
                .withNewValueFrom()
                .withNewSecretKeyRef()
                .withName(secret)
                .withKey(key)
                .endSecretKeyRef()
                .endValueFrom()
                .build();
    }
}
