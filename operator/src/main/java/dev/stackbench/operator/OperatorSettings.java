package dev.stackbench.operator;

import dev.stackbench.operator.run.AdmissionPolicy;
import java.time.Duration;
import java.util.Objects;

/**
 * How the operator fills in what a BenchmarkRun leaves open: image tags, the image of each run's own database, the
 * credentials of an external database whose spec names no Secret, what the cluster's policy allows runs, and how often it looks at a run that is waiting on time rather than on a Kubernetes event.
 *
 * @param imageTag tag appended to the catalogue images (stackbench/mvc-app -> stackbench/mvc-app:TAG)
 * @param databaseImage PostgreSQL image of the database each run gets for itself (official postgres image conventions:
 *     POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB, PGDATA; pg_isready on the PATH)
 * @param defaultDatabaseSecret Secret (in the run's namespace) with username/password for an external database whose
 *     spec names none (the chart's)
 * @param k6Image runner and initializer image for the TestRun; null leaves k6-operator's default
 * @param k6StarterImage starter image for the TestRun (sh and curl); null leaves k6-operator's default
 * @param pollInterval how often a run waiting on elapsed time (warmup, duration, queue, timeout) is looked at again
 * @param targetReadyLimit the longest a target may take to become Ready, capped further by half the run's timeout
 * @param policy what the cluster's platform team allows runs (images, Secrets, environment, database hosts)
 */
public record OperatorSettings(
        String imageTag,
        String databaseImage,
        String defaultDatabaseSecret,
        String k6Image,
        String k6StarterImage,
        Duration pollInterval,
        Duration targetReadyLimit,
        AdmissionPolicy policy) {

    /** The official image, on clusters that reach Docker Hub; the chart sets database.image. */
    public static final String DEFAULT_DATABASE_IMAGE = "postgres:17";

    public static final String DEFAULT_DATABASE_SECRET = "stackbench-postgresql";

    public OperatorSettings {
        Objects.requireNonNull(imageTag, "imageTag");
        Objects.requireNonNull(databaseImage, "databaseImage");
        Objects.requireNonNull(defaultDatabaseSecret, "defaultDatabaseSecret");
        Objects.requireNonNull(pollInterval, "pollInterval");
        Objects.requireNonNull(targetReadyLimit, "targetReadyLimit");
        Objects.requireNonNull(policy, "policy");
    }

    private static final AdmissionPolicy STRICT = AdmissionPolicy.strict();

    /** Settings under the strictest policy, the chart's default. */
    public OperatorSettings(
            String imageTag,
            String databaseImage,
            String defaultDatabaseSecret,
            String k6Image,
            String k6StarterImage,
            Duration pollInterval,
            Duration targetReadyLimit) {
        this(
                imageTag,
                databaseImage,
                defaultDatabaseSecret,
                k6Image,
                k6StarterImage,
                pollInterval,
                targetReadyLimit,
                STRICT);
    }

    /** Settings for a cluster installed with the chart. */
    public static OperatorSettings defaults() {
        return new OperatorSettings(
                defaultImageTag(),
                DEFAULT_DATABASE_IMAGE,
                DEFAULT_DATABASE_SECRET,
                null,
                null,
                Duration.ofSeconds(5),
                Duration.ofMinutes(5));
    }

    public OperatorSettings withPollInterval(Duration interval) {
        return new OperatorSettings(
                imageTag,
                databaseImage,
                defaultDatabaseSecret,
                k6Image,
                k6StarterImage,
                interval,
                targetReadyLimit,
                policy);
    }

    public OperatorSettings withTargetReadyLimit(Duration limit) {
        return new OperatorSettings(
                imageTag, databaseImage, defaultDatabaseSecret, k6Image, k6StarterImage, pollInterval, limit, policy);
    }

    /** The images are built with the operator's own version (hack/images.sh), so that is the matching tag. */
    static String defaultImageTag() {
        String version = OperatorSettings.class.getPackage().getImplementationVersion();
        return version == null ? "latest" : version;
    }
}
