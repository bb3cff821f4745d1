package dev.stackbench.verification;

import dev.stackbench.api.status.VerificationResult;
import java.util.List;
import java.util.Map;

/**
 * What a verification load counted on the real parts: the requests k6 sent and what it made of the answers, the
 * statements pg_stat_statements saw from the target's role, and the calls the delay service answered.
 *
 * @param statusCodes requests per HTTP status, "0" for no response
 * @param statements the target's statements, per normalised statement
 * @param connectionStatements statements on PostgreSQL's catalogue and statistics ({@link #aboutTheServer}): what a
 *     driver asks when it opens a connection, which depends on when its pool opens them, and what a monitoring
 *     exporter reads; not the requests' work
 * @param upstreamCalls calls the delay service answered meanwhile
 */
public record WorkCounts(
        long requests,
        long iterations,
        Map<String, Long> statusCodes,
        long checksPassed,
        long checksFailed,
        List<VerificationResult.StatementCount> statements,
        List<VerificationResult.StatementCount> connectionStatements,
        long upstreamCalls) {

    public WorkCounts {
        statusCodes = Map.copyOf(statusCodes);
        statements = List.copyOf(statements);
        connectionStatements = List.copyOf(connectionStatements);
    }

    /**
     * PostgreSQL's own statistics and state, which a monitoring exporter on the same role reads and the verification
     * itself resets and reads (pg_stat_statements): never part of a scenario, whose statements name its tables or
     * {@code pg_sleep}.
     */
    private static final java.util.regex.Pattern SERVER_STATE = java.util.regex.Pattern.compile(
            "\\b(pg_stat\\w*|pg_statio\\w*|pg_database\\w*|pg_settings|pg_locks|pg_replication\\w*"
                    + "|pg_postmaster_start_time|pg_is_in_recovery|pg_roles|pg_extension|pg_current_wal\\w*"
                    + "|pg_last_\\w+|pg_ls_\\w+|pg_wal_\\w+)\\b|\\bversion\\s*\\(\\s*\\)",
            java.util.regex.Pattern.CASE_INSENSITIVE);

    /**
     * A constant select, as health checks and connection pools send to see that the server answers (Spring Boot's
     * R2DBC health indicator sends {@code SELECT 1}, which pg_stat_statements normalises to {@code SELECT $1}, each
     * time a kubelet probes the target's readiness).
     */
    private static final java.util.regex.Pattern LIVENESS_QUERY = java.util.regex.Pattern.compile(
            "^\\s*select\\s+(\\$1|1)\\s*;?\\s*$", java.util.regex.Pattern.CASE_INSENSITIVE);

    /**
     * Whether a statement reads PostgreSQL's catalogue or its statistics, or only asks whether the server answers,
     * rather than doing a request's work: a driver looking up its types when it opens a connection (R2DBC PostgreSQL
     * does), a health check's constant select, a metrics exporter connected as the same role, or the verification's
     * own reads of pg_stat_statements. The scenarios' statements never do.
     */
    public static boolean aboutTheServer(String query) {
        return query.toLowerCase(java.util.Locale.ROOT).contains("pg_catalog.")
                || SERVER_STATE.matcher(query).find()
                || LIVENESS_QUERY.matcher(query).matches();
    }

    /**
     * The counts of a counted pass: what k6 made of its requests, the statements pg_stat_statements listed for the
     * target's role (those {@link #aboutTheServer} are kept apart), and the upstream calls the delay service answered.
     */
    public static WorkCounts of(
            dev.stackbench.k6.RunnerSummary pass,
            List<VerificationResult.StatementCount> statements,
            long upstreamCalls) {
        return new WorkCounts(
                pass.requests(),
                pass.iterations(),
                pass.statusCodes(),
                pass.checksPassed(),
                pass.checksFailed(),
                statements.stream()
                        .filter(statement -> !aboutTheServer(statement.getQuery()))
                        .toList(),
                statements.stream()
                        .filter(statement -> aboutTheServer(statement.getQuery()))
                        .toList(),
                upstreamCalls);
    }

    /** Every statement's calls. */
    public long statementCalls() {
        return statements.stream()
                .mapToLong(VerificationResult.StatementCount::getCalls)
                .sum();
    }

    /** Rows returned by SELECT statements (SELECT ... FOR UPDATE included). */
    public long rowsRead() {
        return statements.stream()
                .filter(statement -> !writes(statement.getQuery()))
                .mapToLong(VerificationResult.StatementCount::getRows)
                .sum();
    }

    /** Rows inserted, updated or deleted (INSERT ... RETURNING counted as written). */
    public long rowsWritten() {
        return statements.stream()
                .filter(statement -> writes(statement.getQuery()))
                .mapToLong(VerificationResult.StatementCount::getRows)
                .sum();
    }

    private static boolean writes(String query) {
        String head = query.stripLeading().toLowerCase(java.util.Locale.ROOT);
        return head.startsWith("insert") || head.startsWith("update") || head.startsWith("delete");
    }
}
