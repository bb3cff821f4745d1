package dev.stackbench.verification;

import dev.stackbench.api.status.VerificationResult;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a verification asks the real parts, the same in both modes: PostgreSQL's pg_stat_statements for the statements
 * and rows of the target's role, the delay service's call counter, and the resets that leave the database as the
 * target found it at start.
 */
public final class WorkQueries {

    /** The delay service's call counter as Prometheus shows it (UpstreamCalls in the delay service). */
    public static final String UPSTREAM_CALLS_METRIC = "stackbench_delay_calls_total";

    /** Forgets every statement counted so far. */
    public static final String RESET_COUNTERS = "select pg_stat_statements_reset()";

    /** As the targets' own reset at start (afterMigrate.sql): no orders, the seeded items untouched. */
    public static final String RESET_ORDERS = "do $$ begin if to_regclass('public.orders') is not null then"
            + " truncate table order_lines, orders restart identity; end if; end $$";

    /** The extension the statements are counted by; preloaded by the server, created in the database here. */
    public static final String CREATE_EXTENSION = "create extension if not exists pg_stat_statements";

    private static final Pattern STATEMENT_LINE = Pattern.compile("^(\\d+)\\t(\\d+)\\t(.*)$");

    private WorkQueries() {}

    /**
     * The statements {@code user} ran in {@code database}, one line each: calls, rows and the normalised statement
     * with its white space folded, separated by tabs (read back by {@link #statements(String)}).
     */
    public static String statementsOf(String user, String database) {
        return "select s.calls || E'\\t' || s.rows || E'\\t'"
                + " || regexp_replace(s.query, '\\s+', ' ', 'g') from pg_stat_statements s"
                + " join pg_roles r on r.oid = s.userid join pg_database d on d.oid = s.dbid"
                + " where r.rolname = " + literal(user) + " and d.datname = " + literal(database)
                + " order by s.calls desc, s.query";
    }

    /**
     * The lines of {@link #statementsOf}'s answer in psql's unaligned output; other lines (blank ones, what psql
     * prints for the resets run with it) are skipped.
     */
    public static List<VerificationResult.StatementCount> statements(String psqlOutput) {
        List<VerificationResult.StatementCount> counts = new ArrayList<>();
        for (String line : psqlOutput.lines().toList()) {
            Matcher matcher = STATEMENT_LINE.matcher(line);
            if (!matcher.matches()) {
                continue;
            }
            VerificationResult.StatementCount count = new VerificationResult.StatementCount();
            count.setCalls(Long.parseLong(matcher.group(1)));
            count.setRows(Long.parseLong(matcher.group(2)));
            count.setQuery(matcher.group(3).strip());
            counts.add(count);
        }
        return counts;
    }

    private static String literal(String text) {
        return "'" + text.replace("'", "''") + "'";
    }
}
