package dev.stackbench.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LocalPostgresIT {

    @Test
    void startsAServerThatAnswersOverTcpWithPasswordAndLeavesNothingBehind() throws Exception {
        long pid;
        Path dataDir;
        try (LocalPostgres pg = LocalPostgres.builder()
                .maxConnections(50)
                .setting("work_mem", "8MB")
                .start()) {
            pid = pg.pid();
            dataDir = pg.dataDir();
            assertThat(pg.isRunning()).isTrue();
            assertThat(pg.jdbcUrl()).isEqualTo("jdbc:postgresql://127.0.0.1:" + pg.port() + "/stackbench");
            assertThat(pg.r2dbcUrl()).isEqualTo("r2dbc:postgresql://127.0.0.1:" + pg.port() + "/stackbench");
            assertThat(pg.serverVersion()).matches("\\d+\\.\\d+.*");

            try (Connection connection = DriverManager.getConnection(pg.jdbcUrl(), pg.user(), pg.password());
                    Statement statement = connection.createStatement()) {
                assertThat(single(statement, "select current_user")).isEqualTo("stackbench");
                assertThat(single(statement, "select current_database()")).isEqualTo("stackbench");
                assertThat(single(statement, "show max_connections")).isEqualTo("50");
                assertThat(single(statement, "show work_mem")).isEqualTo("8MB");
                assertThat(single(statement, "show listen_addresses")).isEqualTo("127.0.0.1");
                assertThat(single(statement, "show server_version")).isEqualTo(pg.serverVersion());
                statement.execute("create table probe (id int primary key)");
                statement.execute("insert into probe values (1), (2)");
                assertThat(single(statement, "select count(*) from probe")).isEqualTo("2");
            }
            // The applications' statements are counted, by role, with the rows they returned or changed.
            assertThat(pg.query("select calls || ':' || rows from pg_stat_statements s join pg_roles r"
                                    + " on r.oid = s.userid where r.rolname = 'stackbench'"
                                    + " and query like 'insert into probe%'")
                            .strip())
                    .isEqualTo("1:2");
            assertThatThrownBy(() -> DriverManager.getConnection(pg.jdbcUrl(), pg.user(), "wrong"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("password authentication failed");
        }
        Optional<ProcessHandle> server = ProcessHandle.of(pid);
        assertThat(server.map(ProcessHandle::isAlive))
                .as("postmaster %d after close", pid)
                .isIn(Optional.empty(), Optional.of(false));
        assertThat(Files.exists(dataDir))
                .as("data directory %s after close", dataDir)
                .isFalse();
        assertThat(Files.exists(dataDir.getParent())).isFalse();
    }

    @Test
    void keepsTheDataDirectoryWhenAskedAndPinsToTheGivenCpus() throws Exception {
        Path dataDir;
        try (LocalPostgres pg =
                LocalPostgres.builder().cpus("0").keepDataDir(true).start()) {
            dataDir = pg.dataDir();
            String affinity = new String(new ProcessBuilder("taskset", "-cp", String.valueOf(pg.pid()))
                            .redirectErrorStream(true)
                            .start()
                            .getInputStream()
                            .readAllBytes())
                    .strip();
            assertThat(affinity).endsWith(": 0");
        }
        try {
            assertThat(dataDir.resolve("PG_VERSION")).exists();
            assertThat(dataDir.resolve("postmaster.pid")).doesNotExist();
        } finally {
            new ProcessBuilder("rm", "-rf", dataDir.getParent().toString())
                    .start()
                    .waitFor();
        }
    }

    @Test
    void explainsWhatToDoWhenTheBinariesAreMissing() {
        assertThatThrownBy(() -> LocalPostgres.builder()
                        .binDir(Path.of("/nonexistent/bin"))
                        .start())
                .hasMessageContaining("/nonexistent/bin does not contain the PostgreSQL server binaries")
                .hasMessageContaining("run hack/setup.sh");
    }

    private static String single(Statement statement, String sql) throws SQLException {
        try (ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getString(1);
        }
    }
}
