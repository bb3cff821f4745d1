package dev.stackbench.contract;

import dev.stackbench.postgres.LocalPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** What the apps left in a test's PostgreSQL, read over JDBC as the test's own user. */
final class DatabaseRows {

    private DatabaseRows() {}

    /** The number of rows in TABLE. */
    static long count(LocalPostgres postgres, String table) throws SQLException {
        try (Connection connection =
                        DriverManager.getConnection(postgres.jdbcUrl(), postgres.user(), postgres.password());
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("select count(*) from " + table)) {
            result.next();
            return result.getLong(1);
        }
    }
}
