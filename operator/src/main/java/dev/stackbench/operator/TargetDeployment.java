package dev.stackbench.operator;

import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.BenchmarkRunDefaults;
import dev.stackbench.api.DatabaseSpec;
import dev.stackbench.api.SecretKeysRef;
import dev.stackbench.api.TargetSpec;
import dev.stackbench.catalogue.VariantCatalogue;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The target under test: the variant's image on the target pool, requests equal to limits (Guaranteed QoS), the JVM
 * sized to the limits, configured through the environment variables of the HTTP contract.
 */
public final class TargetDeployment {

    public static final int HTTP_PORT = 8080;
    public static final int MANAGEMENT_PORT = 8081;
    /**
     * Asks the target to empty the orders of earlier runs at start (a Flyway afterMigrate callback in the apps), so
     * every run begins from the same database: the seeded items and no orders.
     */
    public static final String RESET_DATABASE_ENV = "STACKBENCH_RESET_DATABASE";

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
        TargetSpec target = run.getSpec().getTarget();
        return SpringAppDeployment.desired(
                run,
                new SpringAppDeployment.App(
                        RunLabels.targetName(run),
                        RunLabels.ROLE_TARGET,
                        "target",
                        image(run),
                        target.getReplicas(),
                        Placements.target(run.getSpec()),
                        target.getResources(),
                        HTTP_PORT,
                        MANAGEMENT_PORT,
                        environment(run)));
    }

    /** The contract's variables, then the spec's own env (which wins on a clash, except for the database secret). */
    List<EnvVar> environment(BenchmarkRun run) {
        TargetSpec target = run.getSpec().getTarget();
        Map<String, String> plain = new LinkedHashMap<>();
        plain.put(
                "SPRING_PROFILES_ACTIVE", catalogue.variant(target.getVariant()).profile());
        plain.put("PORT", Integer.toString(HTTP_PORT));
        plain.put("MANAGEMENT_PORT", Integer.toString(MANAGEMENT_PORT));
        plain.put("BIND_ADDRESS", "0.0.0.0");
        plain.put("DELAY_SERVICE_URL", DelayServiceService.url(run));
        DatabaseSpec database = database(run);
        plain.put("DB_HOST", database.getHost());
        plain.put("DB_PORT", Integer.toString(database.getPort()));
        plain.put("DB_NAME", database.getDatabase());
        plain.put(RESET_DATABASE_ENV, "true");
        plain.put(JvmSizing.ENV, JvmSizing.options(target.getResources(), target.getJvmOptions()));
        if (target.getEnv() != null) {
            plain.putAll(target.getEnv());
        }
        List<EnvVar> env = new ArrayList<>();
        plain.forEach((name, value) -> env.add(new EnvVar(name, value, null)));
        SecretKeysRef secret = database.getSecretRef();
        env.add(secretEnv("DB_USER", secret.getName(), secret.getUserKey()));
        env.add(secretEnv("DB_PASSWORD", secret.getName(), secret.getPasswordKey()));
        return env;
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
