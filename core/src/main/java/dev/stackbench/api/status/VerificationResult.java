package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;
import java.util.Map;
import lombok.Getter;
import lombok.Setter;

/**
 * What a few requests sent by a few callers before the load showed of the work the target does per request, counted on
 * the real parts (the database's pg_stat_statements, the delay service's call counter) and compared with what the
 * scenario asks for. A variant that caches, skips a statement or calls upstream twice would otherwise win or lose for
 * the wrong reason.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class VerificationResult {

    /** The verdict when the counts are what the scenario asks for. */
    public static final String SAME_WORK = "SameWork";
    /** The verdict when a count or a response differs from the scenario's contract. */
    public static final String DIFFERS = "Differs";
    /** The verdict when the scenario (custom) says nothing of the work per request: the counts are recorded only. */
    public static final String NOT_JUDGED = "NotJudged";

    @JsonPropertyDescription("SameWork, Differs or NotJudged (custom scenarios: counts recorded, not judged).")
    private String verdict;

    @JsonPropertyDescription("What differed, or why nothing was judged.")
    private String message;

    private String scenario;

    @JsonPropertyDescription("The run whose verification this is, when a run reuses the verification of an earlier"
            + " one: a later repetition of the same comparison with the same spec, or on a cluster any later run in the"
            + " namespace with the same target image, target, backend and scenario (the same code doing the same"
            + " work; rate, duration and the load generator's resources do not change the work per request).")
    private String verifiedBy;

    @JsonPropertyDescription("On a cluster, the image (its ID: a digest) of the target container the work was counted"
            + " on; another run reuses the verdict only for the same image.")
    private String targetImage;

    @JsonPropertyDescription("Requests counted (after a few uncounted warm-up requests), sent by 4 callers at once.")
    private Long requests;

    @JsonPropertyDescription("Scenario iterations counted (an iteration of orders or lock sends several requests).")
    private Long iterations;

    @JsonPropertyDescription("Counted requests per HTTP status (\"0\" is no response).")
    private Map<String, Long> statusCodes;

    @JsonPropertyDescription("The scenario's response checks (the load's own, on every response) that passed.")
    private Long checksPassed;

    @JsonPropertyDescription("The scenario's response checks that failed.")
    private Long checksFailed;

    @JsonPropertyDescription("The work measured, per request.")
    private WorkPerRequest measured;

    @JsonPropertyDescription("The work the scenario asks for, per request; absent when it cannot be derived.")
    private WorkPerRequest expected;

    @JsonPropertyDescription("Statements the target ran, per normalised statement (pg_stat_statements).")
    private List<StatementCount> statements;

    @JsonPropertyDescription("Statements on PostgreSQL's own catalogue (pg_catalog) and statistics, which drivers send"
            + " when they open a connection (a pool still filling up) and a metrics exporter sends: recorded, not"
            + " counted as the requests' work.")
    private List<StatementCount> connectionStatements;

    /** The work of the average request: database statements and rows, and calls to the delay service. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Getter
    @Setter
    public static class WorkPerRequest {

        @JsonPropertyDescription("SQL statements (BEGIN, COMMIT and other utility commands not counted).")
        private Double statements;

        @JsonPropertyDescription("Rows returned by SELECT statements.")
        private Double rowsRead;

        @JsonPropertyDescription("Rows inserted, updated or deleted.")
        private Double rowsWritten;

        @JsonPropertyDescription("Calls answered by the delay service (HTTP or RSocket).")
        private Double upstreamCalls;
    }

    /** One normalised statement with how often it ran and the rows it returned or changed. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Getter
    @Setter
    public static class StatementCount {

        private String query;

        private Long calls;

        private Long rows;
    }
}
