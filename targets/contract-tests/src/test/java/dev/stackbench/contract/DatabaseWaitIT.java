package dev.stackbench.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stackbench.postgres.LocalPostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On a cluster the target starts beside its database, not after it: with DB_CONNECT_RETRIES its start-up migration
 * tries again every second until the database answers. Real processes against a real PostgreSQL started a few
 * seconds after the app, once for each Flyway setup (MVC through the Hikari pool, WebFlux/R2DBC through Flyway's
 * own JDBC connection); without the variable the app fails at once, as local mode expects.
 */
class DatabaseWaitIT {

    private static final Catalogue CATALOGUE = Catalogue.load();
    // A directory of its own: the other test classes may run beside this one and start the same variants.
    private static final Path LOGS =
            Path.of(System.getProperty("stackbench.logs", "target/it-logs")).resolve("database-wait");
    private static final Duration DATABASE_LATE_BY = Duration.ofSeconds(6);

    private final Http http = new Http();

    @ParameterizedTest
    @ValueSource(strings = {"mvc-jdbc", "webflux-r2dbc"})
    void anAppStartedBeforeItsDatabaseMigratesOnceTheDatabaseAnswers(String variantName) throws Exception {
        int port = freePort();
        try (ServiceProcess app = start(variantName, port, "60")) {
            Thread.sleep(DATABASE_LATE_BY.toMillis());
            assertThat(app.alive())
                    .as("%s still waiting for its database", variantName)
                    .isTrue();
            try (LocalPostgres postgres =
                    LocalPostgres.builder().port(port).maxConnections(50).start()) {
                app.awaitHealthy(http.client());
                assertThat(DatabaseRows.count(postgres, "items"))
                        .as("seeded items")
                        .isEqualTo(10_000);
                assertThat(http.get(app.baseUrl() + "/api/db?sleepMs=1").status())
                        .isEqualTo(200);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"mvc-jdbc"})
    void withoutRetriesAnAppWithNoDatabaseStopsAtOnce(String variantName) throws IOException {
        try (ServiceProcess app = start(variantName, freePort(), null)) {
            assertThatThrownBy(() -> app.awaitHealthy(http.client())).hasMessageContaining("exited with code");
        }
    }

    private static ServiceProcess start(String variantName, int databasePort, String retries) {
        Catalogue.Variant variant = CATALOGUE.variant(variantName);
        Map<String, String> env = new java.util.HashMap<>(Map.of(
                "DB_HOST",
                "127.0.0.1",
                "DB_PORT",
                String.valueOf(databasePort),
                "DB_NAME",
                LocalPostgres.DATABASE,
                "DB_USER",
                LocalPostgres.USER,
                "DB_PASSWORD",
                LocalPostgres.PASSWORD,
                "DB_POOL_SIZE",
                "5"));
        if (retries != null) {
            env.put("DB_CONNECT_RETRIES", retries);
        }
        return ServiceProcess.start(
                variantName,
                CATALOGUE.jar(variant.app()),
                List.of("--spring.profiles.active=" + variant.profile()),
                env,
                LOGS);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
