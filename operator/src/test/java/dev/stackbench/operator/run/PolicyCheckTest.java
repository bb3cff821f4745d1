package dev.stackbench.operator.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stackbench.api.comparison.BenchmarkComparisonSpec;
import dev.stackbench.api.comparison.ComparisonVariant;
import dev.stackbench.api.run.BackendSpec;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.run.DatabaseSpec;
import dev.stackbench.api.run.ExternalDatabaseSpec;
import dev.stackbench.api.run.SecretKeysRef;
import dev.stackbench.operator.ExampleRuns;
import dev.stackbench.operator.objects.TargetDeployment;
import dev.stackbench.validation.Violation;
import io.fabric8.kubernetes.api.model.EnvVar;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each rule of the cluster's admission policy on its own, with the defaults the chart ships and with each rule widened
 * as a platform team would widen it. The operator's image tag is 1.2.3 and its database Secret postgres-credentials
 * ({@link ExampleRuns#settings()}).
 */
class PolicyCheckTest {

    private static final PolicyCheck.SecretLabels NO_SECRETS = name -> Optional.empty();

    private static PolicyCheck check(AdmissionPolicy policy) {
        return new PolicyCheck(policy, ExampleRuns.catalogue(), "1.2.3", "postgres-credentials");
    }

    private static final PolicyCheck STRICT = check(AdmissionPolicy.strict());

    private static BenchmarkRunSpec spec() {
        return ExampleRuns.webfluxR2dbc().getSpec();
    }

    private static List<String> refusals(PolicyCheck check, BenchmarkRunSpec spec) {
        return refusals(check, spec, NO_SECRETS);
    }

    private static List<String> refusals(PolicyCheck check, BenchmarkRunSpec spec, PolicyCheck.SecretLabels secrets) {
        return check.check(spec, secrets).stream().map(Violation::toString).toList();
    }

    private static BenchmarkRunSpec withImage(String image) {
        BenchmarkRunSpec spec = spec();
        spec.getTarget().setImage(image);
        return spec;
    }

    private static BenchmarkRunSpec withEnv(String name, String value) {
        BenchmarkRunSpec spec = spec();
        Map<String, String> env = new LinkedHashMap<>();
        env.put(name, value);
        spec.getTarget().setEnv(env);
        return spec;
    }

    private static BenchmarkRunSpec withExternal(String host, String secret) {
        BenchmarkRunSpec spec = spec();
        ExternalDatabaseSpec external = new ExternalDatabaseSpec().withHost(host);
        if (secret != null) {
            external.withSecretRef(new SecretKeysRef().withName(secret));
        }
        if (spec.getBackend() == null) {
            spec.setBackend(new BackendSpec());
        }
        if (spec.getBackend().getDatabase() == null) {
            spec.getBackend().setDatabase(new DatabaseSpec());
        }
        spec.getBackend().getDatabase().setExternal(external);
        return spec;
    }

    @Test
    void theExampleRunPassesTheStrictestPolicy() {
        assertThat(refusals(STRICT, spec())).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "stackbench/webflux-app:1.2.3",
                "docker.io/stackbench/mvc-app:1.2.3",
                "index.docker.io/stackbench/webflux-app:1.2.3"
            })
    void theCatalogueImagesAtTheOperatorsTagAreAllowedHoweverSpelt(String image) {
        assertThat(refusals(STRICT, withImage(image))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "stackbench/webflux-app:other",
                "stackbench/webflux-app",
                "evil.example.com/stackbench/webflux-app:1.2.3",
                "busybox:1.2.3"
            })
    void anyOtherImageIsRefusedNamingTheValueAndTheChartValue(String image) {
        assertThat(refusals(STRICT, withImage(image)))
                .singleElement()
                .asString()
                .startsWith("spec.target.image '" + image + "' is refused by this cluster's admission policy")
                .contains("docker.io/stackbench/mvc-app:1.2.3")
                .contains("Remove spec.target.image")
                .contains("policy.targetImages.allowedRepositories (none set)");
    }

    @Test
    void allowedRepositoriesAllowAnyTagOfTheRepositoryOrOfAPathEndingInASlash() {
        PolicyCheck widened = check(new AdmissionPolicy(
                List.of("registry.example.com/bench/app", "registry.example.com/team/"),
                Optional.empty(),
                List.of(),
                List.of()));

        assertThat(refusals(widened, withImage("registry.example.com/bench/app:7")))
                .isEmpty();
        assertThat(refusals(widened, withImage("registry.example.com/bench/app@sha256:abc")))
                .isEmpty();
        assertThat(refusals(widened, withImage("registry.example.com/team/x/y:1")))
                .isEmpty();
        assertThat(refusals(widened, withImage("registry.example.com/bench/app-evil:7")))
                .singleElement()
                .asString()
                .contains("add 'registry.example.com/bench/app-evil' to policy.targetImages.allowedRepositories");
        assertThat(refusals(widened, withImage("registry.example.com/teamx/y:1")))
                .hasSize(1);
    }

    @Test
    void everyVariableTheTargetDeploymentSetsIsProtected() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        run.getSpec().getTarget().setJvmOptions("-XX:SharedArchiveFile=app.jsa");
        List<String> set = new TargetDeployment(ExampleRuns.catalogue(), ExampleRuns.settings())
                .desired(run).getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                        .map(EnvVar::getName)
                        .toList();

        assertThat(set).contains("DB_HOST", "DB_PASSWORD", "JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS");
        assertThat(set).allSatisfy(name -> assertThat(TargetWiring.overridden(name))
                .as("%s, set by the operator", name)
                .isPresent());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "DB_HOST",
                "DB_PASSWORD",
                "DELAY_SERVICE_URL",
                "SPRING_PROFILES_ACTIVE",
                "SERVER_PORT",
                "SPRING_DATASOURCE_URL",
                "SPRING_R2DBC_URL",
                "spring.datasource.url",
                "SPRING_CONFIG_IMPORT",
                "JAVA_TOOL_OPTIONS",
                "MANAGEMENT_ENDPOINT_HEALTH_PROBES_ENABLED",
                "management.endpoint.health.group.readiness.include"
            })
    void theOperatorsWiringCannotBeOverriddenEvenWithAnEmptyDeniedList(String name) {
        PolicyCheck nothingDenied = check(new AdmissionPolicy(List.of(), Optional.empty(), List.of(), List.of()));

        assertThat(refusals(nothingDenied, withEnv(name, "x")))
                .singleElement()
                .asString()
                .startsWith("spec.target.env." + name + " is refused by this cluster's admission policy (the"
                        + " operator's wiring)")
                .contains("Remove " + name + " from spec.target.env");
    }

    @Test
    void theJvmOptionVariablesAreDeniedByDefaultAndPointToJvmOptions() {
        assertThat(refusals(STRICT, withEnv("JAVA_OPTS", "-Xmx1g")))
                .singleElement()
                .asString()
                .isEqualTo("spec.target.env.JAVA_OPTS is refused by this cluster's admission policy (denied"
                        + " environment variables): the chart value policy.targetEnv.denied lists it; JVM options go"
                        + " in spec.target.jvmOptions (a variant's jvmOptions in a comparison). Remove JAVA_OPTS"
                        + " from spec.target.env");
        assertThat(refusals(STRICT, withEnv("_JAVA_OPTIONS", "-Xmx1g"))).hasSize(1);
        PolicyCheck allowed = check(new AdmissionPolicy(List.of(), Optional.empty(), List.of(), List.of()));
        assertThat(refusals(allowed, withEnv("JAVA_OPTS", "-Xmx1g"))).isEmpty();
    }

    @Test
    void tuningVariablesStayAllowed() {
        assertThat(refusals(STRICT, withEnv("SERVER_TOMCAT_THREADS_MAX", "20"))).isEmpty();
        assertThat(refusals(STRICT, withEnv("DB_POOL_SIZE", "20"))).isEmpty();
    }

    @Test
    void systemPropertiesInJvmOptionsCannotOverrideTheWiringEither() {
        BenchmarkRunSpec spec = spec();
        spec.getTarget().setJvmOptions("-Xss512k -Dspring.datasource.url=jdbc:postgresql://evil/x -DDB_HOST=evil");

        assertThat(refusals(STRICT, spec))
                .containsExactly(
                        "spec.target.jvmOptions -Dspring.datasource.url is refused by this cluster's admission policy"
                                + " (the operator's wiring): it overrides SPRING_DATASOURCE_*, which the operator sets"
                                + " itself to connect the target to its database, delay service and ports; name another"
                                + " database in spec.backend.database.external (DB_POOL_SIZE sizes the pool). Remove"
                                + " -Dspring.datasource.url from spec.target.jvmOptions",
                        "spec.target.jvmOptions -DDB_HOST is refused by this cluster's admission policy (the"
                                + " operator's wiring): it overrides DB_HOST, which the operator sets itself to connect"
                                + " the target to its database, delay service and ports; name another database in"
                                + " spec.backend.database.external (DB_POOL_SIZE sizes the pool). Remove -DDB_HOST from"
                                + " spec.target.jvmOptions");
    }

    @Test
    void noExternalDatabaseHostIsAllowedByDefault() {
        assertThat(refusals(STRICT, withExternal("db.evil.example", null)))
                .containsExactly("spec.backend.database.external.host 'db.evil.example' is refused by this"
                        + " cluster's admission policy (external database hosts): runs may name only the hosts in"
                        + " the chart value policy.externalDatabases.allowedHosts (none set). Leave"
                        + " spec.backend.database.external out to give the run a PostgreSQL of its own, or have the"
                        + " cluster's administrators add 'db.evil.example' to policy.externalDatabases.allowedHosts");
    }

    @Test
    void listedHostsAreAllowedCaseInsensitively() {
        PolicyCheck widened = check(new AdmissionPolicy(
                List.of(), Optional.empty(), List.of(), List.of("sb-postgresql", "Shared.DB.example.com")));

        assertThat(refusals(widened, withExternal("sb-postgresql", null))).isEmpty();
        assertThat(refusals(widened, withExternal("shared.db.example.com.", "postgres-credentials")))
                .isEmpty();
        assertThat(refusals(widened, withExternal("other", null))).hasSize(1);
    }

    @Test
    void withoutALabelOnlyTheChartsSecretMayBeNamed() {
        PolicyCheck hostAllowed = check(new AdmissionPolicy(List.of(), Optional.empty(), List.of(), List.of("db")));

        assertThat(refusals(hostAllowed, withExternal("db", "postgres-credentials")))
                .isEmpty();
        assertThat(refusals(hostAllowed, withExternal("db", "kube-admin-token"), name -> {
                    throw new AssertionError("no Secret is read without a label in the policy");
                }))
                .containsExactly("spec.backend.database.external.secretRef.name 'kube-admin-token' is refused by"
                        + " this cluster's admission policy (database Secrets): a run may name the chart's database"
                        + " Secret 'postgres-credentials' (or name none), and no other: the chart value"
                        + " policy.databaseSecrets.label names no label. Name 'postgres-credentials' or leave"
                        + " secretRef out, or have the cluster's administrators set policy.databaseSecrets.label and"
                        + " label the Secret with it");
    }

    @Test
    void withALabelSecretsCarryingItMayBeNamedAndOthersNot() {
        PolicyCheck labelled = check(
                new AdmissionPolicy(List.of(), Optional.of("stackbench.dev/database=true"), List.of(), List.of("db")));
        Map<String, Map<String, String>> secrets = Map.of(
                "team-db", Map.of("stackbench.dev/database", "true"),
                "other-value", Map.of("stackbench.dev/database", "false"),
                "unlabelled", Map.of());
        PolicyCheck.SecretLabels lookup = name -> Optional.ofNullable(secrets.get(name));

        assertThat(refusals(labelled, withExternal("db", "team-db"), lookup)).isEmpty();
        assertThat(refusals(labelled, withExternal("db", "unlabelled"), lookup))
                .singleElement()
                .asString()
                .contains("'unlabelled' is refused")
                .contains("does not carry the label stackbench.dev/database=true (the chart value"
                        + " policy.databaseSecrets.label)");
        assertThat(refusals(labelled, withExternal("db", "other-value"), lookup))
                .hasSize(1);
        assertThat(refusals(labelled, withExternal("db", "missing"), lookup))
                .singleElement()
                .asString()
                .contains("there is no Secret 'missing' in the run's namespace");
        PolicyCheck anyValue =
                check(new AdmissionPolicy(List.of(), Optional.of("stackbench.dev/database"), List.of(), List.of("db")));
        assertThat(refusals(anyValue, withExternal("db", "other-value"), lookup))
                .isEmpty();
    }

    @Test
    void aMalformedLabelStopsTheOperatorNamingTheChartValue() {
        assertThatThrownBy(() -> AdmissionPolicy.fromOptions(null, "not a label", null, null))
                .hasMessageContaining("policy.databaseSecrets.label");
    }

    @Test
    void optionsAsTheChartWritesThemBecomeThePolicy() {
        AdmissionPolicy policy = AdmissionPolicy.fromOptions("stackbench/mvc-app, reg.example.com/x/", "", "", "db");

        assertThat(policy.imageRepositories()).containsExactly("docker.io/stackbench/mvc-app", "reg.example.com/x/");
        assertThat(policy.secretLabel()).isEmpty();
        assertThat(policy.deniedEnv()).isEmpty();
        assertThat(policy.databaseHosts()).containsExactly("db");
        assertThat(AdmissionPolicy.fromOptions(null, null, null, null)).isEqualTo(AdmissionPolicy.strict());
    }

    @Test
    void aComparisonIsCheckedInItsTemplateAndEveryVariant() {
        BenchmarkComparisonSpec comparison = new BenchmarkComparisonSpec();
        BenchmarkRunSpec template = withExternal("db.evil.example", null);
        template.getTarget().setVariant(null);
        comparison.setTemplate(template);
        comparison.setVariants(List.of(
                new ComparisonVariant().withVariant("mvc-jdbc").withEnv(Map.of("SERVER_TOMCAT_THREADS_MAX", "20")),
                new ComparisonVariant().withVariant("mvc-jdbc").withEnv(Map.of("DB_HOST", "evil")),
                new ComparisonVariant().withVariant("webflux-r2dbc").withJvmOptions("-Dspring.r2dbc.url=r2dbc:x")));
        comparison.getVariants().get(0).setImage("evil/app:1");

        assertThat(STRICT.check(comparison, NO_SECRETS))
                .extracting(Violation::field)
                .containsExactly(
                        "spec.template.backend.database.external.host",
                        "spec.variants[0].image",
                        "spec.variants[1].env.DB_HOST",
                        "spec.variants[2].jvmOptions");
    }
}
