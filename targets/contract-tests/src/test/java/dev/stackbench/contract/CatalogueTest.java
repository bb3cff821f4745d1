package dev.stackbench.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CatalogueTest {

    /** The scenarios that are one contract operation (lock is the status change of orders, sent in groups). */
    static final List<String> OPERATIONS =
            List.of("upstream", "db", "mixed", "rows", "orders", "lock", "sleep", "fanout");

    static final List<String> FANOUT_MODES = List.of("parallel", "sequential");

    private final Catalogue catalogue = Catalogue.load();

    @Test
    void listsTheSevenVariantsEachOnAKnownAppWithAProfileOfItsName() {
        assertThat(catalogue.variants())
                .extracting(Catalogue.Variant::name)
                .containsExactly(
                        "mvc-jdbc",
                        "mvc-virtual-threads",
                        "mvc-webclient",
                        "webflux-r2dbc",
                        "webflux-jdbc-blocking",
                        "webflux-jdbc-elastic",
                        "webflux-coroutines");
        assertThat(catalogue.apps()).containsOnlyKeys("mvc-app", "webflux-app", "delay-service");
        catalogue.apps().forEach((name, app) -> {
            assertThat(app.jar()).isEqualTo("targets/" + name + "/target/" + name + ".jar");
            assertThat(app.image()).isEqualTo("stackbench/" + name);
        });
        for (Catalogue.Variant variant : catalogue.variants()) {
            assertThat(catalogue.apps()).containsKey(variant.app());
            assertThat(variant.profile()).isEqualTo(variant.name());
            assertThat(variant.name()).startsWith(variant.app().replace("-app", "-"));
            assertThat(variant.description()).isNotBlank();
        }
    }

    @Test
    void describesEachThreadPoolEitherBySizeOrPerCpu() {
        for (Catalogue.Variant variant : catalogue.variants()) {
            Catalogue.ThreadPool pool = variant.threadPool();
            assertThat(pool.name()).as(variant.name()).isNotBlank();
            assertThat(pool.size() == null ^ pool.perCpu() == null)
                    .as("%s: threadPool needs exactly one of size and perCpu", variant.name())
                    .isTrue();
            if (pool.minimum() != null) {
                assertThat(pool.perCpu())
                        .as("%s: minimum only goes with perCpu", variant.name())
                        .isNotNull();
            }
            assertThat(OPERATIONS).containsAll(variant.blocksPoolOn());
        }
    }

    @Test
    void listsTheFanoutModesOfEachVariantItsDefaultFirst() {
        for (Catalogue.Variant variant : catalogue.variants()) {
            assertThat(variant.fanoutModes())
                    .as("%s: fanoutModes", variant.name())
                    .isNotEmpty()
                    .doesNotHaveDuplicates()
                    .isSubsetOf(FANOUT_MODES);
        }
        // One blocking call after another on the Tomcat thread; virtual threads keep that loop as their default.
        assertThat(catalogue.variant("mvc-jdbc").fanoutModes()).containsExactly("sequential");
        assertThat(catalogue.variant("mvc-virtual-threads").fanoutModes()).containsExactly("sequential", "parallel");
        for (String webClient :
                List.of("mvc-webclient", "webflux-r2dbc", "webflux-jdbc-blocking", "webflux-jdbc-elastic")) {
            assertThat(catalogue.variant(webClient).fanoutModes())
                    .as(webClient)
                    .containsExactly("parallel", "sequential");
        }
    }

    @Test
    void recordsTheDefaultsOfTheStacks() {
        assertThat(catalogue.variant("mvc-jdbc").threadPool())
                .isEqualTo(new Catalogue.ThreadPool("tomcat", 200, null, null, "SERVER_TOMCAT_THREADS_MAX"));
        assertThat(catalogue.variant("webflux-jdbc-blocking").threadPool().minimum())
                .isEqualTo(4);
        assertThat(catalogue.variant("webflux-jdbc-elastic").threadPool().perCpu())
                .isEqualTo(10);
        assertThat(catalogue.variant("webflux-r2dbc").blocksPoolOn()).isEmpty();
        assertThat(catalogue.variant("mvc-virtual-threads").blocksPoolOn()).isEmpty();
        assertThat(catalogue.variant("mvc-jdbc").blocksPoolOn()).containsAll(OPERATIONS);
        // A timer holds no Tomcat thread; Thread.sleep holds the event loop or the boundedElastic thread.
        assertThat(catalogue.variant("mvc-webclient").blocksPoolOn()).doesNotContain("upstream", "sleep", "fanout");
        assertThat(catalogue.variant("webflux-jdbc-blocking").blocksPoolOn()).contains("sleep");
        assertThat(catalogue.variant("webflux-jdbc-elastic").blocksPoolOn()).contains("sleep");
        // Dispatchers.IO holds a thread for each blocking call, like boundedElastic; only upstream suspends.
        assertThat(catalogue.variant("webflux-coroutines").threadPool())
                .isEqualTo(new Catalogue.ThreadPool("Dispatchers.IO", 64, null, null, "COROUTINES_IO_PARALLELISM"));
        assertThat(catalogue.variant("webflux-coroutines").blocksPoolOn())
                .containsExactlyInAnyOrderElementsOf(
                        catalogue.variant("webflux-jdbc-elastic").blocksPoolOn());
    }
}
