package dev.stackbench.operator.run;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What a platform team allows the BenchmarkRuns of its cluster, set in the chart's {@code policy:} values and handed to
 * the operator: who may create a run may otherwise run any image, read any Secret of the namespace through the
 * database's secretRef, send the chart's database password to a host of their choosing, or rewire the target through
 * its environment. The defaults allow none of that; each list widens one rule. {@link PolicyCheck} applies it.
 *
 * @param imageRepositories repositories (normalized, see {@link ImageReference}) whose images spec.target.image may
 *     name, any tag; a path ending in {@code /} allows every repository under it. The catalogue's images at the
 *     operator's tag are always allowed
 * @param secretLabel the label ({@code key} or {@code key=value}) a Secret must carry for a run to name it in
 *     spec.backend.database.external.secretRef; empty: only the chart's database Secret
 * @param deniedEnv names a run may not set in spec.target.env, beyond the operator's own wiring ({@link TargetWiring})
 * @param databaseHosts external database hosts a run may name (lower case)
 */
public record AdmissionPolicy(
        List<String> imageRepositories,
        Optional<String> secretLabel,
        List<String> deniedEnv,
        List<String> databaseHosts) {

    /** The chart values each rule is set with, named in every refusal so the platform team knows what to change. */
    public static final String IMAGES_VALUE = "policy.targetImages.allowedRepositories";

    public static final String SECRET_LABEL_VALUE = "policy.databaseSecrets.label";
    public static final String DENIED_ENV_VALUE = "policy.targetEnv.denied";
    public static final String HOSTS_VALUE = "policy.externalDatabases.allowedHosts";

    /**
     * The JVM's own option variables: a second way to pass JVM options beside spec.target.jvmOptions, which the
     * operator combines with the sizing it records in the run's manifest.
     */
    public static final List<String> JVM_OPTION_VARIABLES =
            List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS", "JAVA_OPTS");

    private static final Pattern LABEL = Pattern.compile(
            "([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?(=[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?");

    public AdmissionPolicy {
        imageRepositories = imageRepositories.stream()
                .map(ImageReference::normalizeRepository)
                .toList();
        secretLabel = secretLabel.map(String::strip).filter(label -> !label.isEmpty());
        secretLabel.ifPresent(label -> {
            if (!LABEL.matcher(label).matches()) {
                throw new IllegalArgumentException("the database Secret label '" + label + "' is not a label key or"
                        + " key=value (e.g. stackbench.dev/database-credentials=true): correct the chart value "
                        + SECRET_LABEL_VALUE);
            }
        });
        deniedEnv = deniedEnv.stream().map(String::strip).toList();
        databaseHosts = databaseHosts.stream().map(AdmissionPolicy::host).toList();
    }

    /** The chart's defaults: the catalogue's images only, the chart's Secret only, no external host. */
    public static AdmissionPolicy strict() {
        return new AdmissionPolicy(List.of(), Optional.empty(), JVM_OPTION_VARIABLES, List.of());
    }

    /**
     * From the operator's options, each a comma-separated list as the chart writes them (empty: none); null for an
     * option not given leaves its default ({@link #strict()}).
     */
    public static AdmissionPolicy fromOptions(
            String imageRepositories, String secretLabel, String deniedEnv, String databaseHosts) {
        return new AdmissionPolicy(
                list(imageRepositories),
                Optional.ofNullable(secretLabel),
                deniedEnv == null ? JVM_OPTION_VARIABLES : list(deniedEnv),
                list(databaseHosts));
    }

    /** A host name as DNS compares it: case-insensitive, a trailing dot ignored. */
    static String host(String host) {
        String lower = host.strip().toLowerCase(Locale.ROOT);
        return lower.endsWith(".") ? lower.substring(0, lower.length() - 1) : lower;
    }

    /** The label key the policy looks for on Secrets. */
    Optional<String> secretLabelKey() {
        return secretLabel.map(label -> label.contains("=") ? label.substring(0, label.indexOf('=')) : label);
    }

    /** The value that label must have; empty: any. */
    Optional<String> secretLabelValue() {
        return secretLabel.filter(label -> label.contains("=")).map(label -> label.substring(label.indexOf('=') + 1));
    }

    private static List<String> list(String commaSeparated) {
        if (commaSeparated == null || commaSeparated.isBlank()) {
            return List.of();
        }
        return Arrays.stream(commaSeparated.split(","))
                .map(String::strip)
                .filter(item -> !item.isEmpty())
                .toList();
    }
}
