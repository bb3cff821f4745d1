package dev.stackbench.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.postgres.LocalPostgres;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each cluster run starts its target with STACKBENCH_RESET_DATABASE=true so that orders left by an earlier run
 * do not change the next one's work; without the flag an app leaves existing data alone. Real processes against
 * a real PostgreSQL: one MVC start and one WebFlux/R2DBC start, since their Flyway setups differ.
 */
class DatabaseResetIT {

    private static final Catalogue CATALOGUE = Catalogue.load();
    // A directory of its own: the other test classes may run beside this one and start the same variants.
    private static final Path LOGS =
            Path.of(System.getProperty("stackbench.logs", "target/it-logs")).resolve("database-reset");

    private final Http http = new Http();
    private LocalPostgres postgres;

    @BeforeEach
    void startPostgres() {
        postgres = LocalPostgres.builder().maxConnections(50).start();
    }

    @AfterEach
    void stopPostgres() {
        postgres.close();
    }

    @Test
    void ordersSurviveARestartWithoutTheFlagAndAreEmptiedWithIt() throws SQLException {
        try (ServiceProcess first = start("mvc-jdbc", false)) {
            assertThat(http.post(first.baseUrl() + "/api/orders", "{\"itemId\":3,\"quantity\":1}")
                            .status())
                    .isEqualTo(201);
            assertThat(http.post(first.baseUrl() + "/api/orders", "{\"itemId\":4,\"quantity\":2}")
                            .status())
                    .isEqualTo(201);
        }
        assertThat(DatabaseRows.count(postgres, "orders")).isEqualTo(2);

        try (ServiceProcess keeping = start("mvc-jdbc", false)) {
            assertThat(DatabaseRows.count(postgres, "orders"))
                    .as("orders after a restart without the flag")
                    .isEqualTo(2);
        }

        try (ServiceProcess resetting = start("webflux-r2dbc", true)) {
            assertThat(DatabaseRows.count(postgres, "orders"))
                    .as("orders after a start with STACKBENCH_RESET_DATABASE=true")
                    .isZero();
            assertThat(DatabaseRows.count(postgres, "order_lines")).isZero();
            assertThat(DatabaseRows.count(postgres, "items"))
                    .as("seeded items are kept")
                    .isEqualTo(10_000);
            long orderId = http.post(resetting.baseUrl() + "/api/orders", "{\"itemId\":5,\"quantity\":1}")
                    .json()
                    .get("orderId")
                    .asLong();
            assertThat(orderId).as("order ids start again from 1").isEqualTo(1);
        }
    }

    private ServiceProcess start(String variantName, boolean reset) {
        Catalogue.Variant variant = CATALOGUE.variant(variantName);
        Map<String, String> env = new HashMap<>(Map.of(
                "DB_HOST", postgres.host(),
                "DB_PORT", String.valueOf(postgres.port()),
                "DB_NAME", postgres.database(),
                "DB_USER", postgres.user(),
                "DB_PASSWORD", postgres.password(),
                "DB_POOL_SIZE", "5"));
        if (reset) {
            env.put("STACKBENCH_RESET_DATABASE", "true");
        }
        ServiceProcess process = ServiceProcess.start(
                variantName,
                CATALOGUE.jar(variant.app()),
                List.of("--spring.profiles.active=" + variant.profile()),
                env,
                LOGS);
        try {
            return process.awaitHealthy(http.client());
        } catch (RuntimeException e) {
            process.close();
            throw e;
        }
    }
}
