package dev.stackbench.operator.run;

import dev.stackbench.api.comparison.BenchmarkComparisonSpec;
import dev.stackbench.api.comparison.ComparisonVariant;
import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.run.ExternalDatabaseSpec;
import dev.stackbench.api.run.TargetSpec;
import dev.stackbench.catalogue.AppImage;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.model.JvmSizing;
import dev.stackbench.validation.Violation;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Applies the cluster's {@link AdmissionPolicy} to a BenchmarkRun or a BenchmarkComparison before anything of it is
 * created: each refusal names the rule, the offending value, what the run may use instead and the chart value that
 * widens the rule. A cluster concern only: local mode runs what its user asks on the user's own machine.
 */
public final class PolicyCheck {

    /** The labels of a Secret in the namespace of the run; empty when there is no such Secret. */
    @FunctionalInterface
    public interface SecretLabels {
        Optional<Map<String, String>> of(String name);
    }

    /**
     * The Secrets of a namespace as the API server has them. Read only when the policy names a label, so only then
     * does the operator need {@code get} on Secrets (the chart grants it then).
     */
    public static SecretLabels secretsIn(KubernetesClient client, String namespace) {
        return name -> Optional.ofNullable(
                        client.secrets().inNamespace(namespace).withName(name).get())
                .map(secret -> secret.getMetadata().getLabels() == null
                        ? Map.<String, String>of()
                        : secret.getMetadata().getLabels());
    }

    private static final String REFUSED = " is refused by this cluster's admission policy";

    private final AdmissionPolicy policy;
    private final List<ImageReference> catalogueImages;
    private final String defaultSecret;

    /**
     * @param catalogue the variants, whose images at {@code imageTag} every run may use
     * @param imageTag the operator's tag of the catalogue images
     * @param defaultSecret the chart's database Secret, which every run may name
     */
    public PolicyCheck(AdmissionPolicy policy, VariantCatalogue catalogue, String imageTag, String defaultSecret) {
        this.policy = policy;
        this.catalogueImages = catalogue.apps().values().stream()
                .map(AppImage::image)
                .distinct()
                .map(image -> ImageReference.parse(image + ":" + imageTag))
                .toList();
        this.defaultSecret = defaultSecret;
    }

    /** Every refusal of a run's spec; empty when the policy allows it. */
    public List<Violation> check(BenchmarkRunSpec spec, SecretLabels secrets) {
        List<Violation> refusals = new ArrayList<>();
        TargetSpec target = spec.getTarget();
        if (target != null) {
            image(target.getImage(), "spec.target.image").ifPresent(refusals::add);
            refusals.addAll(env(target.getEnv(), "spec.target.env"));
            refusals.addAll(jvmOptions(target.getJvmOptions(), "spec.target.jvmOptions"));
        }
        refusals.addAll(database(spec, "spec.backend.database.external", secrets));
        return refusals;
    }

    /** Every refusal of a comparison: its template, and each variant's image, env and JVM options. */
    public List<Violation> check(BenchmarkComparisonSpec spec, SecretLabels secrets) {
        List<Violation> refusals = new ArrayList<>();
        BenchmarkRunSpec template = spec.getTemplate();
        if (template != null) {
            if (template.getTarget() != null) {
                refusals.addAll(env(template.getTarget().getEnv(), "spec.template.target.env"));
                refusals.addAll(jvmOptions(template.getTarget().getJvmOptions(), "spec.template.target.jvmOptions"));
            }
            refusals.addAll(database(template, "spec.template.backend.database.external", secrets));
        }
        List<ComparisonVariant> variants = spec.getVariants() == null ? List.of() : spec.getVariants();
        for (int i = 0; i < variants.size(); i++) {
            ComparisonVariant variant = variants.get(i);
            String field = "spec.variants[" + i + "]";
            image(variant.getImage(), field + ".image").ifPresent(refusals::add);
            refusals.addAll(env(variant.getEnv(), field + ".env"));
            refusals.addAll(jvmOptions(variant.getJvmOptions(), field + ".jvmOptions"));
        }
        return refusals;
    }

    private Optional<Violation> image(String image, String field) {
        if (image == null || image.isBlank()) {
            return Optional.empty();
        }
        ImageReference reference = ImageReference.parse(image);
        if (catalogueImages.contains(reference)
                || policy.imageRepositories().stream().anyMatch(reference::isIn)) {
            return Optional.empty();
        }
        return Optional.of(new Violation(
                field,
                field + " '" + image + "'" + REFUSED + " (allowed target images): a target runs the catalogue's"
                        + " images at the operator's tag ("
                        + catalogueImages.stream().map(PolicyCheck::spell).collect(Collectors.joining(", "))
                        + ") or an image of the repositories in the chart value " + AdmissionPolicy.IMAGES_VALUE
                        + " (" + listed(policy.imageRepositories()) + "). Remove " + field + " to run the"
                        + " catalogue's image, or have the cluster's administrators add '" + reference.repository()
                        + "' to " + AdmissionPolicy.IMAGES_VALUE));
    }

    private List<Violation> env(Map<String, String> env, String field) {
        if (env == null) {
            return List.of();
        }
        List<Violation> refusals = new ArrayList<>();
        for (String name : env.keySet()) {
            String named = field + "." + name;
            Optional<String> wiring = TargetWiring.overridden(name);
            if (wiring.isPresent()) {
                refusals.add(new Violation(
                        named,
                        named + REFUSED + " (the operator's wiring): the operator sets " + wiring.get()
                                + " itself to connect the target to its database, delay service and ports and to"
                                + " size its JVM; " + hint(wiring.get()) + ". Remove " + name + " from " + field));
            } else if (policy.deniedEnv().contains(name)) {
                refusals.add(new Violation(
                        named,
                        named + REFUSED + " (denied environment variables): the chart value "
                                + AdmissionPolicy.DENIED_ENV_VALUE + " lists it"
                                + (AdmissionPolicy.JVM_OPTION_VARIABLES.contains(name)
                                        ? "; JVM options go in spec.target.jvmOptions (a variant's jvmOptions in a"
                                                + " comparison)"
                                        : "")
                                + ". Remove " + name + " from " + field));
            }
        }
        return refusals;
    }

    /** System properties that would override the wiring (Spring Boot reads them before the environment). */
    private List<Violation> jvmOptions(String options, String field) {
        List<String> words;
        try {
            words = JvmSizing.split(options);
        } catch (IllegalArgumentException e) {
            return List.of(); // the spec validator names the unclosed quote
        }
        List<Violation> refusals = new ArrayList<>();
        for (String word : words) {
            if (!word.startsWith("-D") || word.length() < 3) {
                continue;
            }
            String property = word.substring(2).split("=", 2)[0];
            TargetWiring.overridden(property)
                    .ifPresent(wiring -> refusals.add(new Violation(
                            field,
                            field + " -D" + property + REFUSED + " (the operator's wiring): it overrides " + wiring
                                    + ", which the operator sets itself to connect the target to its database,"
                                    + " delay service and ports; " + hint(wiring) + ". Remove -D" + property
                                    + " from " + field)));
        }
        return refusals;
    }

    private List<Violation> database(BenchmarkRunSpec spec, String field, SecretLabels secrets) {
        if (spec.getBackend() == null
                || spec.getBackend().getDatabase() == null
                || spec.getBackend().getDatabase().getExternal() == null) {
            return List.of();
        }
        ExternalDatabaseSpec external = spec.getBackend().getDatabase().getExternal();
        List<Violation> refusals = new ArrayList<>();
        String host = external.getHost();
        if (host != null && !policy.databaseHosts().contains(AdmissionPolicy.host(host))) {
            refusals.add(new Violation(
                    field + ".host",
                    field + ".host '" + host + "'" + REFUSED + " (external database hosts): runs may name only the"
                            + " hosts in the chart value " + AdmissionPolicy.HOSTS_VALUE + " ("
                            + listed(policy.databaseHosts()) + "). Leave " + field + " out to give the run a"
                            + " PostgreSQL of its own, or have the cluster's administrators add '"
                            + AdmissionPolicy.host(host) + "' to " + AdmissionPolicy.HOSTS_VALUE));
        }
        String secret =
                external.getSecretRef() == null ? null : external.getSecretRef().getName();
        if (secret != null && !secret.equals(defaultSecret)) {
            secretRefusal(secret, field + ".secretRef.name", secrets).ifPresent(refusals::add);
        }
        return refusals;
    }

    private Optional<Violation> secretRefusal(String secret, String field, SecretLabels secrets) {
        Optional<String> key = policy.secretLabelKey();
        String allowed = "a run may name the chart's database Secret '" + defaultSecret + "' (or name none)"
                + key.map(k -> " or a Secret labelled " + policy.secretLabel().orElseThrow())
                        .orElse(", and no other: the chart value " + AdmissionPolicy.SECRET_LABEL_VALUE
                                + " names no label");
        if (key.isEmpty()) {
            return Optional.of(new Violation(
                    field,
                    field + " '" + secret + "'" + REFUSED + " (database Secrets): " + allowed + ". Name '"
                            + defaultSecret + "' or leave secretRef out, or have the cluster's administrators set "
                            + AdmissionPolicy.SECRET_LABEL_VALUE + " and label the Secret with it"));
        }
        Optional<Map<String, String>> labels = secrets.of(secret);
        if (labels.isEmpty()) {
            return Optional.of(new Violation(
                    field,
                    field + " '" + secret + "'" + REFUSED + " (database Secrets): there is no Secret '" + secret
                            + "' in the run's namespace; " + allowed + ". Create the Secret with that label, or"
                            + " name '" + defaultSecret + "'"));
        }
        String value = labels.get().get(key.get());
        boolean carries =
                value != null && policy.secretLabelValue().map(value::equals).orElse(true);
        if (carries) {
            return Optional.empty();
        }
        return Optional.of(new Violation(
                field,
                field + " '" + secret + "'" + REFUSED + " (database Secrets): the Secret does not carry the label "
                        + policy.secretLabel().orElseThrow() + " (the chart value " + AdmissionPolicy.SECRET_LABEL_VALUE
                        + "); " + allowed + ". Have the Secret's owner label it "
                        + policy.secretLabel().orElseThrow() + ", or name '" + defaultSecret + "'"));
    }

    /** What to do instead of overriding one part of the wiring. */
    private static String hint(String wiring) {
        if (wiring.startsWith("DB_")
                || wiring.startsWith("SPRING_DATASOURCE")
                || wiring.startsWith("SPRING_R2DBC")
                || wiring.startsWith("SPRING_FLYWAY")) {
            return "name another database in spec.backend.database.external (DB_POOL_SIZE sizes the pool)";
        }
        if (wiring.equals("JAVA_TOOL_OPTIONS") || wiring.equals("JDK_JAVA_OPTIONS")) {
            return "JVM options go in spec.target.jvmOptions (a variant's jvmOptions in a comparison)";
        }
        if (wiring.startsWith("SPRING_PROFILES")
                || wiring.startsWith("SPRING_CONFIG")
                || wiring.equals("SPRING_APPLICATION_JSON")) {
            return "the variant (spec.target.variant) selects the profile, and single properties can be set as"
                    + " environment variables of their own";
        }
        if (wiring.startsWith("MANAGEMENT_ENDPOINT_HEALTH")) {
            return "the operator switches Spring Boot's probes on for the kubelet's readiness probe, which asks"
                    + " Actuator's readiness group (the application's readiness state alone, no database check)";
        }
        return "the run's workload and backend settings choose what the target talks to";
    }

    private static String spell(ImageReference image) {
        return image.repository() + ":" + image.tag();
    }

    private static String listed(List<String> values) {
        return values.isEmpty() ? "none set" : String.join(", ", values);
    }
}
