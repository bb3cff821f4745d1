package dev.stackbench.operator;

import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.BenchmarkRunDefaults;
import dev.stackbench.api.DatabaseSpec;
import dev.stackbench.api.SecretKeysRef;
import dev.stackbench.api.TargetSpec;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.model.AppWiring;
import dev.stackbench.model.RunApps;
import dev.stackbench.model.SpringApp;
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
        DatabaseSpec database = database(run);
        AppWiring wiring = new AppWiring(
                AppWiring.CLUSTER_TARGET,
                AppWiring.CLUSTER_DELAY_SERVICE,
                DelayServiceService.url(run),
                new AppWiring.Database(database.getHost(), database.getPort(), database.getDatabase()));
        return RunApps.target(run.getSpec(), catalogue, wiring);
    }
    /** The spec's database with defaults, or the operator's default database when the spec names none. */
    DatabaseSpec database(BenchmarkRun run) {
        DatabaseSpec database = run.getSpec().getBackend() == null
                ? null
                : run.getSpec().getBackend().getDatabase();
        DatabaseSpec result = new DatabaseSpec();
        result.setHost(
                database != null && database.getHost() != null ? database.getHost() : settings.defaultDatabaseHost());
        result.setPort(
                database != null && database.getPort() != null
                        ? database.getPort()
                        : BenchmarkRunDefaults.DATABASE_PORT);
        result.setDatabase(
                database != null && database.getDatabase() != null
                        ? database.getDatabase()
                        : BenchmarkRunDefaults.DATABASE_NAME);
        SecretKeysRef secret = new SecretKeysRef();
        SecretKeysRef given = database == null ? null : database.getSecretRef();
        secret.setName(given != null && given.getName() != null ? given.getName() : settings.defaultDatabaseSecret());
        secret.setUserKey(
                given != null && given.getUserKey() != null
                        ? given.getUserKey()
                        : BenchmarkRunDefaults.SECRET_USER_KEY);
        secret.setPasswordKey(
                given != null && given.getPasswordKey() != null
                        ? given.getPasswordKey()
                        : BenchmarkRunDefaults.SECRET_PASSWORD_KEY);
        result.setSecretRef(secret);
        return result;
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
