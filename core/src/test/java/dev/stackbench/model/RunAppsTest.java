package dev.stackbench.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.BenchmarkRunDefaults;
import dev.stackbench.catalogue.VariantCatalogue;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The contract of the apps a spec produces. The operator's Deployments and local mode's processes are both built from
 * these models (TargetDeploymentTest and LocalRunIT check that each runner passes them on unchanged), so what is
 * pinned here is what both modes run.
 */
class RunAppsTest {

    private static final VariantCatalogue CATALOGUE = VariantCatalogue.load(Path.of("..", "targets", "variants.yaml"));

    private static final AppWiring CLUSTER = new AppWiring(
            AppWiring.CLUSTER_TARGET,
            AppWiring.CLUSTER_DELAY_SERVICE,
            "http://run-delay.bench.svc:8090",
            new AppWiring.Database("postgres.bench.svc", 5432, "stackbench", true));
    private static final AppWiring LOCAL = new AppWiring(
            new AppWiring.Endpoint("127.0.0.1", 41000, 41001),
            new AppWiring.Endpoint("127.0.0.1", 41002, 41003),
            "http://127.0.0.1:41002",
            new AppWiring.Database("127.0.0.1", 45432, "stackbench", false));

    static BenchmarkRun example(String file) {
        return BenchmarkRunDefaults.apply(BenchmarkRuns.readOne(Path.of("..", "examples", file)));
    }

    @Test
    void aSpecGivesTheSameJvmInBothModes() {
        BenchmarkRun run = example("webflux-r2dbc.yaml");

        SpringApp cluster = RunApps.target(run.getSpec(), CATALOGUE, CLUSTER);
        SpringApp local = RunApps.target(run.getSpec(), CATALOGUE, LOCAL);

        // cpu "1", memory 1Gi, jvmOptions "-XX:MaxRAMPercentage=75": the user sizes the heap, so no -Xmx.
        assertThat(cluster.jvmOptions())
                .containsExactly("-XX:ActiveProcessorCount=1", "-XX:MaxRAM=1073741824", "-XX:MaxRAMPercentage=75");
        assertThat(local.jvmOptions()).isEqualTo(cluster.jvmOptions());
        assertThat(local.environment().get(JvmSizing.ENV))
                .isEqualTo(cluster.environment().get(JvmSizing.ENV))
                .isEqualTo("-XX:ActiveProcessorCount=1 -XX:MaxRAM=1073741824 -XX:MaxRAMPercentage=75");
        assertThat(local.activeProcessors())
                .isEqualTo(cluster.activeProcessors())
                .isEqualTo(1);
    }

    @Test
    void withoutHeapOptionsBothModesGiveTheHeapThreeQuartersOfTheLimit() {
        BenchmarkRun run = example("webflux-r2dbc.yaml");
        run.getSpec().getTarget().setJvmOptions("-Dgreeting='hello world'");
        run.getSpec().getTarget().getResources().setCpu("1500m");

        SpringApp app = RunApps.target(run.getSpec(), CATALOGUE, LOCAL);

        assertThat(app.jvmOptions())
                .containsExactly(
                        "-XX:ActiveProcessorCount=2", "-XX:MaxRAM=1073741824", "-Xmx768m", "-Dgreeting=hello world");
        // The JVM reads quotes in JAVA_TOOL_OPTIONS, so the user's part is passed exactly as written.
        assertThat(app.javaToolOptions())
                .isEqualTo("-XX:ActiveProcessorCount=2 -XX:MaxRAM=1073741824 -Xmx768m -Dgreeting='hello world'");
    }

    @Test
    void theEnvironmentDiffersBetweenTheModesOnlyInTheWiring() {
        BenchmarkRun run = example("webflux-r2dbc.yaml");
        run.getSpec().getTarget().setEnv(Map.of("DB_POOL_SIZE", "50", "DB_PASSWORD", "ignored"));

        Map<String, String> cluster =
                RunApps.target(run.getSpec(), CATALOGUE, CLUSTER).environment();
        Map<String, String> local =
                RunApps.target(run.getSpec(), CATALOGUE, LOCAL).environment();

        assertThat(cluster.keySet()).containsExactlyElementsOf(local.keySet());
        assertThat(cluster)
                .containsEntry("SPRING_PROFILES_ACTIVE", "webflux-r2dbc")
                .containsEntry("PORT", "8080")
                .containsEntry("MANAGEMENT_PORT", "8081")
                .containsEntry("BIND_ADDRESS", "0.0.0.0")
                .containsEntry("DELAY_SERVICE_URL", "http://run-delay.bench.svc:8090")
                .containsEntry("DB_HOST", "postgres.bench.svc")
                .containsEntry(RunApps.RESET_DATABASE_ENV, "true")
                .containsEntry("DB_POOL_SIZE", "50")
                .doesNotContainKey("DB_PASSWORD");
        assertThat(local)
                .containsEntry("PORT", "41000")
                .containsEntry("BIND_ADDRESS", "127.0.0.1")
                .containsEntry("DELAY_SERVICE_URL", "http://127.0.0.1:41002")
                .containsEntry("DB_PORT", "45432");
        for (String contract : new String[] {"SPRING_PROFILES_ACTIVE", "DB_NAME", "DB_POOL_SIZE", JvmSizing.ENV}) {
            assertThat(local.get(contract)).as(contract).isEqualTo(cluster.get(contract));
        }
    }

    @Test
    void theDelayServiceIsSizedFromItsOwnResources() {
        BenchmarkRun run = example("webflux-r2dbc.yaml");

        SpringApp delay = RunApps.delayService(run.getSpec(), LOCAL);

        assertThat(delay.role()).isEqualTo(RunApps.DELAY_SERVICE);
        assertThat(delay.resources())
                .isEqualTo(run.getSpec().getBackend().getDelayService().getResources());
        assertThat(delay.environment())
                .containsEntry("PORT", "41002")
                .containsEntry("MANAGEMENT_PORT", "41003")
                .containsEntry(JvmSizing.ENV, String.join(" ", delay.jvmOptions()));
    }

    @Test
    void anUnclosedQuoteInJvmOptionsIsRefusedWithTheField() {
        assertThatThrownBy(() -> JvmSizing.split("-Da='x"))
                .hasMessageContaining("spec.target.jvmOptions")
                .hasMessageContaining("close the quote");
    }
}
