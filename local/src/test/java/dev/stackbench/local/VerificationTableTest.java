package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.status.VerificationResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VerificationTableTest {

    private static VerificationResult.WorkPerRequest work(double statements, double read, double written, double up) {
        VerificationResult.WorkPerRequest work = new VerificationResult.WorkPerRequest();
        work.setStatements(statements);
        work.setRowsRead(read);
        work.setRowsWritten(written);
        work.setUpstreamCalls(up);
        return work;
    }

    private static VerificationResult result(String verdict, VerificationResult.WorkPerRequest expected) {
        VerificationResult result = new VerificationResult();
        result.setScenario("orders");
        result.setRequests(40L);
        result.setStatusCodes(Map.of("201", 20L));
        result.setChecksFailed(0L);
        result.setMeasured(work(2.5, 1, 1.5, 0));
        result.setExpected(expected);
        result.setVerdict(verdict);
        result.setMessage("what was found");
        return result;
    }

    @Test
    void aRowPerVariantWithTheWorkMeasuredBesideTheScenariosAndTheMessagesBelow() {
        String table = VerificationTable.render(List.of(
                new VerificationTable.Row("mvc-jdbc", result(VerificationResult.SAME_WORK, work(2.5, 1, 1.5, 0))),
                new VerificationTable.Row("custom-run", result(VerificationResult.NOT_JUDGED, null))));

        List<String> lines = table.lines().toList();
        assertThat(lines).hasSize(5);
        assertThat(lines.get(0)).startsWith("run").contains("statements/req").endsWith("verdict");
        assertThat(lines.get(1))
                .startsWith("mvc-jdbc  ")
                .contains("{201=20}")
                .contains("2.5 / 1 / 1.5 / 0")
                .endsWith("SameWork");
        assertThat(lines.get(2)).contains("not derivable").endsWith("NotJudged");
        assertThat(lines.get(1).indexOf("orders")).isEqualTo(lines.get(2).indexOf("orders"));
        assertThat(lines.get(3)).isEqualTo("mvc-jdbc: what was found");
    }

    @Test
    void psqlLinesBecomeStatementsWithTheirCallsAndRows() {
        List<VerificationResult.StatementCount> statements = dev.stackbench.verification.WorkQueries.statements(
                "20\t20\tselect pg_sleep($1)\n\n3\t0\tselect a | b from t\n");

        assertThat(statements)
                .extracting(
                        VerificationResult.StatementCount::getQuery,
                        VerificationResult.StatementCount::getCalls,
                        VerificationResult.StatementCount::getRows)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("select pg_sleep($1)", 20L, 20L),
                        org.assertj.core.groups.Tuple.tuple("select a | b from t", 3L, 0L));
    }
}
