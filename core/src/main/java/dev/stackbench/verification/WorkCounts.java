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
 * @param connectionStatements the target's statements on PostgreSQL's catalogue: what a driver asks when it opens a
 *     connection, which depends on when its pool opens them, not on the requests
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
     * Whether a statement only reads PostgreSQL's catalogue, as drivers do when they open a connection (R2DBC
     * PostgreSQL looks up its extension types, for one): the scenarios' statements never do.
     */
    public static boolean opensConnection(String query) {
        return query.toLowerCase(java.util.Locale.ROOT).contains("pg_catalog.");
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
