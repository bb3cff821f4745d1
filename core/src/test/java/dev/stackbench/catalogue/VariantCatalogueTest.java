package dev.stackbench.catalogue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.stackbench.api.run.LoadSpec;
import dev.stackbench.api.run.Scenario;
import dev.stackbench.api.run.WorkloadSpec;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VariantCatalogueTest {

    private final VariantCatalogue small = VariantCatalogue.load(resource("catalogue/small-variants.yaml"));

    @Test
    void shippedCatalogueListsEveryVariantWithAnAppAndAPool() {
        VariantCatalogue shipped = VariantCatalogue.load();

        assertThat(shipped.variantNames())
                .contains(
                        "mvc-jdbc",
                        "mvc-virtual-threads",
                        "mvc-webclient",
                        "webflux-r2dbc",
                        "webflux-jdbc-blocking",
                        "webflux-jdbc-elastic");
        for (Variant variant : shipped.variants()) {
            assertThat(shipped.app(variant.name()).jar()).startsWith("targets/").endsWith(".jar");
            assertThat(shipped.poolThreads(variant.name(), 2, Map.of())).isPositive();
        }
        assertThat(shipped.delayService().image()).isNotBlank();
    }

    @Test
    void unknownVariantListsTheKnownOnes() {
        assertThatThrownBy(() -> small.variant("mvc-jbdc"))
                .isInstanceOf(CatalogueException.class)
                .hasMessageContaining("unknown variant 'mvc-jbdc'")
                .hasMessageContaining("fixed-pool, event-loop, non-blocking");
    }

    @Test
    void poolSizeFollowsCpusMinimumAndOverride() {
        assertThat(small.poolThreads("fixed-pool", 2, Map.of())).isEqualTo(200);
        assertThat(small.poolThreads("fixed-pool", 2, Map.of("SERVER_TOMCAT_THREADS_MAX", "50")))
                .isEqualTo(50);
        assertThat(small.poolThreads("event-loop", 2, Map.of())).isEqualTo(4);
        assertThat(small.poolThreads("event-loop", 8, Map.of())).isEqualTo(8);
        assertThat(small.poolThreads("event-loop", 6.5, Map.of())).isEqualTo(7);
        assertThatThrownBy(() -> small.poolThreads("fixed-pool", 2, Map.of("SERVER_TOMCAT_THREADS_MAX", "many")))
                .hasMessageContaining("SERVER_TOMCAT_THREADS_MAX=many is not a positive whole number");
    }

    @Test
    void threadBoundScenariosComeFromBlocksPoolOn() {
        assertThat(small.isThreadBound("fixed-pool", Scenario.UPSTREAM)).isTrue();
        assertThat(small.isThreadBound("event-loop", Scenario.UPSTREAM)).isFalse();
        assertThat(small.isThreadBound("event-loop", Scenario.DB)).isTrue();
        assertThat(small.isThreadBound("non-blocking", Scenario.DB)).isFalse();
    }

    @Test
    void littleLawCapIsThePoolOverTheNominalServiceTime() {
        LittleLawCap upstream = small.littleLawCap(
                        "fixed-pool", 2, Map.of(), workload(Scenario.UPSTREAM, "300ms", null))
                .orElseThrow();
        assertThat(upstream.rps()).isCloseTo(200 / 0.3, within(1e-9));
        assertThat(upstream.limitedBy()).isEqualTo("200 tomcat threads");

        LittleLawCap mixed = small.littleLawCap("fixed-pool", 2, Map.of(), workload(Scenario.MIXED, "300ms", "100ms"))
                .orElseThrow();
        assertThat(mixed.rps()).isCloseTo(500, within(1e-9));

        LittleLawCap blockedLoop = small.littleLawCap("event-loop", 2, Map.of(), workload(Scenario.DB, null, "100ms"))
                .orElseThrow();
        assertThat(blockedLoop.rps()).isCloseTo(40, within(1e-9));
    }

    @Test
    void anInProcessSleepCapsTheShippedVariantsThatSleepOnAPoolThread() {
        VariantCatalogue shipped = VariantCatalogue.load();
        WorkloadSpec sleep = new WorkloadSpec()
                .withScenario(Scenario.SLEEP)
                .withSleep("1500ms")
                .withLoad(new LoadSpec().withRate(10));

        assertThat(VariantCatalogue.nominalServiceTime(sleep)).contains(java.time.Duration.ofMillis(1500));
        // One CPU: 4 event-loop threads (its minimum), 10 boundedElastic threads, 200 Tomcat threads.
        assertThat(shipped.littleLawCap("webflux-jdbc-blocking", 1, Map.of(), sleep)
                        .orElseThrow()
                        .rps())
                .isCloseTo(4 / 1.5, within(1e-9));
        assertThat(shipped.littleLawCap("webflux-jdbc-elastic", 1, Map.of(), sleep)
                        .orElseThrow()
                        .rps())
                .isCloseTo(10 / 1.5, within(1e-9));
        assertThat(shipped.littleLawCap("mvc-jdbc", 1, Map.of(), sleep)
                        .orElseThrow()
                        .rps())
                .isCloseTo(200 / 1.5, within(1e-9));
        // A timer or an unmounted virtual thread holds no pool thread, and no database connection is involved.
        for (String free : java.util.List.of("webflux-r2dbc", "mvc-webclient", "mvc-virtual-threads")) {
            assertThat(shipped.littleLawCap(free, 1, Map.of(), sleep)).as(free).isEmpty();
        }
    }

    @Test
    void databasePoolCapsDatabaseScenariosOfEveryVariant() {
        LittleLawCap cap = small.littleLawCap(
                        "non-blocking", 2, Map.of("DB_POOL_SIZE", "20"), workload(Scenario.DB, null, "100ms"))
                .orElseThrow();

        assertThat(cap.rps()).isCloseTo(200, within(1e-9));
        assertThat(cap.limitedBy()).isEqualTo("20 database connections");
        assertThat(small.littleLawCap("non-blocking", 2, Map.of(), workload(Scenario.UPSTREAM, "300ms", null)))
                .isEmpty();
        assertThat(small.littleLawCap("fixed-pool", 2, Map.of(), workload(Scenario.ROWS, null, null)))
                .isEmpty();
    }

    @Test
    void inconsistentCatalogueIsRefusedWithEveryProblem() {
        String yaml = """
                apps:
                  mvc-app: {image: stackbench/mvc-app, jar: targets/mvc-app/target/mvc-app.jar}
                variants:
                  - name: broken
                    app: missing-app
                    profile: broken
                    threadPool: {name: pool, size: 10, perCpu: 2}
                    blocksPoolOn: [upstream, sleeping]
                """;

        assertThatThrownBy(() -> VariantCatalogue.parse(yaml, "test.yaml"))
                .hasMessageContaining("uses app missing-app")
                .hasMessageContaining("exactly one of size or perCpu")
                .hasMessageContaining("unknown operation sleeping");
    }

    private static WorkloadSpec workload(Scenario scenario, String upstreamDelay, String dbSleep) {
        return new WorkloadSpec()
                .withScenario(scenario)
                .withUpstreamDelay(upstreamDelay)
                .withDbSleep(dbSleep)
                .withLoad(new LoadSpec().withRate(10));
    }

    private static Path resource(String name) {
        try {
            return Path.of(VariantCatalogueTest.class
                    .getClassLoader()
                    .getResource(name)
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
