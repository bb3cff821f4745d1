package dev.stackbench.verification;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.run.Executor;
import dev.stackbench.api.run.WorkloadSpec;
import dev.stackbench.api.status.VerificationResult;
import dev.stackbench.k6.K6Script;
import dev.stackbench.k6.K6ScriptGenerator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VerificationVerdictTest {

    private static BenchmarkRunSpec spec(String workload) {
        return BenchmarkRuns.read("""
                apiVersion: stackbench.dev/v1alpha1
                kind: BenchmarkRun
                metadata: {name: test}
                spec:
                  target: {variant: mvc-jdbc}
                  workload:
                """ + workload.indent(4), "test.yaml").get(0).getSpec();
    }

    private static WorkloadSpec workload(String yaml) {
        return VerificationLoad.spec(spec(yaml), 1).getWorkload();
    }

    private static VerificationResult.StatementCount statement(String query, long calls, long rows) {
        VerificationResult.StatementCount count = new VerificationResult.StatementCount();
        count.setQuery(query);
        count.setCalls(calls);
        count.setRows(rows);
        return count;
    }

    private static WorkCounts counts(
            long requests, long iterations, List<VerificationResult.StatementCount> statements, long upstream) {
        return new WorkCounts(
                requests, iterations, Map.of("200", requests), requests * 2, 0, statements, List.of(), upstream);
    }

    @Test
    void eachScenarioAsksForItsStatementsRowsAndUpstreamCalls() {
        assertThat(WorkExpectation.perIteration(workload("{scenario: db, dbSleep: 10ms, load: {rate: 1}}")))
                .contains(new WorkExpectation(1, 1, 0, 0));
        assertThat(WorkExpectation.perIteration(
                        workload("{scenario: mixed, dbSleep: 10ms, upstreamDelay: 10ms, load: {rate: 1}}")))
                .contains(new WorkExpectation(1, 1, 0, 1));
        assertThat(WorkExpectation.perIteration(workload("{scenario: upstream, upstreamDelay: 10ms, load: {rate: 1}}")))
                .contains(new WorkExpectation(0, 0, 0, 1));
        assertThat(WorkExpectation.perIteration(
                        workload("{scenario: fanout, upstreamDelay: 10ms, calls: 5, load: {rate: 1}}")))
                .contains(new WorkExpectation(0, 0, 0, 5));
        assertThat(WorkExpectation.perIteration(workload("{scenario: rows, load: {rate: 1}}")))
                .as("rowCount's default of 100")
                .contains(new WorkExpectation(1, 100, 0, 0));
        assertThat(WorkExpectation.perIteration(workload("{scenario: sleep, sleep: 10ms, load: {rate: 1}}")))
                .contains(new WorkExpectation(0, 0, 0, 0));
        assertThat(WorkExpectation.perIteration(workload("{scenario: orders, load: {rate: 1}}")))
                .as("create (price, order, line) and pay (lock, update)")
                .contains(new WorkExpectation(5, 2, 3, 0));
        assertThat(WorkExpectation.perIteration(workload("{scenario: lock, lockGroup: 3, load: {rate: 1}}")))
                .as("create, one winning change (lock, update), two refused after the lock")
                .contains(new WorkExpectation(7, 4, 3, 0));
        assertThat(WorkExpectation.perIteration(workload("{scenario: custom, script: {file: a.js}, load: {rate: 1}}")))
                .isEmpty();
    }

    @Test
    void theSameWorkPassesAndPerRequestFiguresAreShown() {
        WorkloadSpec orders = workload("{scenario: orders, load: {rate: 1}}");
        VerificationResult result = VerificationVerdict.judge(
                orders,
                counts(
                        40,
                        20,
                        List.of(
                                statement("select price_cents from items where id = $1", 20, 20),
                                statement("insert into orders (status) values ($1) returning id", 20, 20),
                                statement("insert into order_lines (order_id) values ($1)", 20, 20),
                                statement("select status from orders where id = $1 for update", 20, 20),
                                statement("update orders set status = $1 where id = $2", 20, 20)),
                        0));

        assertThat(result.getVerdict()).isEqualTo(VerificationResult.SAME_WORK);
        assertThat(result.getMeasured().getStatements()).isEqualTo(2.5);
        assertThat(result.getMeasured().getRowsRead()).isEqualTo(1.0);
        assertThat(result.getMeasured().getRowsWritten()).isEqualTo(1.5);
        assertThat(result.getExpected().getStatements()).isEqualTo(2.5);
        assertThat(result.getExpected().getUpstreamCalls()).isZero();
    }

    @Test
    void aSecondStatementOrAMissingUpstreamCallIsNamedWithItsCounts() {
        WorkloadSpec mixed = workload("{scenario: mixed, dbSleep: 10ms, upstreamDelay: 10ms, load: {rate: 1}}");
        VerificationResult result = VerificationVerdict.judge(
                mixed,
                counts(
                        20,
                        20,
                        List.of(
                                statement("select pg_sleep($1)", 20, 20),
                                statement("select id from items limit $1", 20, 20)),
                        0));

        assertThat(result.getVerdict()).isEqualTo(VerificationResult.DIFFERS);
        assertThat(result.getMessage())
                .contains("SQL statements: 40 for 20 requests (2.0 per request), the scenario asks for 20 (1.0"
                        + " per request)")
                .contains("rows read: 40 for 20 requests")
                .contains("upstream calls: 0 for 20 requests (0.0 per request), the scenario asks for 20")
                .doesNotContain("rows written");
    }

    @Test
    void aDriversCatalogueLookupsAreNotTheRequestsWork() {
        assertThat(WorkCounts.aboutTheServer("SELECT oid, * FROM pg_catalog.pg_type WHERE typname IN ($1,$2,$3)"))
                .isTrue();
        assertThat(WorkCounts.aboutTheServer("select pg_sleep($1)")).isFalse();
        // A metrics exporter on the same role, and the verification's own reads.
        assertThat(WorkCounts.aboutTheServer(
                        "SELECT pg_database.datname, pg_database_size(pg_database.datname)" + " FROM pg_database"))
                .isTrue();
        assertThat(WorkCounts.aboutTheServer("SELECT * FROM pg_stat_bgwriter")).isTrue();
        assertThat(WorkCounts.aboutTheServer("select version()")).isTrue();
        // The R2DBC health indicator's check, each time the kubelet probes the target's readiness.
        assertThat(WorkCounts.aboutTheServer("SELECT $1")).isTrue();
        assertThat(WorkCounts.aboutTheServer("select $1, $2 from items")).isFalse();
        assertThat(WorkCounts.aboutTheServer("select pg_stat_statements_reset()"))
                .isTrue();
        assertThat(WorkCounts.aboutTheServer("update items set version = version + $1 where id = $2"))
                .isFalse();
        assertThat(WorkCounts.aboutTheServer("select status from orders where id = $1 for update"))
                .isFalse();
    }

    @Test
    void failedResponseChecksDifferEvenWhenTheCountsMatch() {
        WorkloadSpec upstream = workload("{scenario: upstream, upstreamDelay: 10ms, load: {rate: 1}}");
        WorkCounts counts = new WorkCounts(20, 20, Map.of("500", 20L), 0, 20, List.of(), List.of(), 20);

        VerificationResult result = VerificationVerdict.judge(upstream, counts);

        assertThat(result.getVerdict()).isEqualTo(VerificationResult.DIFFERS);
        assertThat(result.getMessage()).contains("20 of 20 response checks failed (statuses {500=20})");
    }

    @Test
    void aCustomScenarioIsRecordedWithoutAVerdictOnItsWork() {
        WorkloadSpec custom = workload("{scenario: custom, script: {file: a.js}, load: {rate: 1}}");

        VerificationResult result =
                VerificationVerdict.judge(custom, counts(20, 20, List.of(statement("select 1", 60, 60)), 3));

        assertThat(result.getVerdict()).isEqualTo(VerificationResult.NOT_JUDGED);
        assertThat(result.getExpected()).isNull();
        assertThat(result.getMeasured().getStatements()).isEqualTo(3.0);
        assertThat(result.getMessage()).contains("recorded, not judged");
    }

    @Test
    void theVerificationLoadIsTheRunsScenarioByOneCallerCheckingEveryResponse() {
        BenchmarkRunSpec run = spec("""
                scenario: rows
                rowCount: 7
                load: {rate: 300}
                warmup: 30s
                sweep: [100, 200]
                thresholds: {http_req_failed: ["rate<0.01"]}
                """);

        BenchmarkRunSpec verifying = VerificationLoad.spec(run, 20);
        K6Script script = K6ScriptGenerator.checkingEveryResponse().generate(verifying);

        assertThat(verifying.getWorkload().getLoad().getExecutor()).isEqualTo(Executor.SHARED_ITERATIONS);
        assertThat(verifying.getWorkload().getLoad().getVus()).isEqualTo(VerificationLoad.CALLERS);
        assertThat(verifying.getWorkload().getLoad().burstIterations()).isEqualTo(20);
        assertThat(verifying.getWorkload().isStepped()).isFalse();
        assertThat(run.getWorkload().getSweep())
                .as("the run's own spec is left alone")
                .containsExactly(100, 200);
        assertThat(script.warmup()).isZero();
        assertThat(script.text())
                .contains("\"verifyEvery\" : 1,")
                .contains("\"rowCount\" : 7")
                .doesNotContain("rate<0.01");
    }
}
