package dev.stackbench.verification;

import dev.stackbench.api.run.WorkloadSpec;
import dev.stackbench.api.status.VerificationResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Judges what a verification load counted against what the scenario asks for: every response must pass the load's
 * own checks, and the statements, rows and upstream calls must be exactly the scenario's per iteration. Exact, because
 * only the verification's few callers send requests: nothing else runs on the database or the delay service meanwhile.
 */
public final class VerificationVerdict {

    private VerificationVerdict() {}

    public static VerificationResult judge(WorkloadSpec workload, WorkCounts counts) {
        VerificationResult result = new VerificationResult();
        result.setScenario(workload.getScenario().value());
        result.setRequests(counts.requests());
        result.setIterations(counts.iterations());
        result.setStatusCodes(counts.statusCodes());
        result.setChecksPassed(counts.checksPassed());
        result.setChecksFailed(counts.checksFailed());
        result.setStatements(counts.statements());
        result.setConnectionStatements(counts.connectionStatements().isEmpty() ? null : counts.connectionStatements());
        result.setMeasured(perRequest(
                counts.statementCalls(),
                counts.rowsRead(),
                counts.rowsWritten(),
                counts.upstreamCalls(),
                counts.requests()));
        List<String> differences = new ArrayList<>();
        if (counts.requests() == 0) {
            differences.add("no request was answered");
        }
        if (counts.checksFailed() > 0) {
            differences.add(counts.checksFailed() + " of " + (counts.checksPassed() + counts.checksFailed())
                    + " response checks failed (statuses " + counts.statusCodes() + ")");
        }
        Optional<WorkExpectation> perIteration = WorkExpectation.perIteration(workload);
        if (perIteration.isEmpty()) {
            result.setVerdict(differences.isEmpty() ? VerificationResult.NOT_JUDGED : VerificationResult.DIFFERS);
            differences.add("scenario " + workload.getScenario().value() + " says nothing of the work per request:"
                    + " the counts are recorded, not judged");
            result.setMessage(String.join("; ", differences));
            return result;
        }
        WorkExpectation expected = perIteration.get().times(counts.iterations());
        result.setExpected(perRequest(
                expected.statements(),
                expected.rowsRead(),
                expected.rowsWritten(),
                expected.upstreamCalls(),
                counts.requests()));
        compare("SQL statements", counts.statementCalls(), expected.statements(), counts, differences);
        compare("rows read", counts.rowsRead(), expected.rowsRead(), counts, differences);
        compare("rows written", counts.rowsWritten(), expected.rowsWritten(), counts, differences);
        compare("upstream calls", counts.upstreamCalls(), expected.upstreamCalls(), counts, differences);
        if (differences.isEmpty()) {
            result.setVerdict(VerificationResult.SAME_WORK);
            result.setMessage(counts.requests() + " requests did the scenario's work");
        } else {
            result.setVerdict(VerificationResult.DIFFERS);
            result.setMessage(String.join("; ", differences));
        }
        return result;
    }

    private static void compare(String what, long measured, long expected, WorkCounts counts, List<String> out) {
        if (measured != expected) {
            out.add(what + ": " + measured + " for " + counts.requests() + " requests (" + round(measured, counts)
                    + " per request), the scenario asks for " + expected + " (" + round(expected, counts)
                    + " per request)");
        }
    }

    private static VerificationResult.WorkPerRequest perRequest(
            long statements, long rowsRead, long rowsWritten, long upstreamCalls, long requests) {
        VerificationResult.WorkPerRequest work = new VerificationResult.WorkPerRequest();
        work.setStatements(divide(statements, requests));
        work.setRowsRead(divide(rowsRead, requests));
        work.setRowsWritten(divide(rowsWritten, requests));
        work.setUpstreamCalls(divide(upstreamCalls, requests));
        return work;
    }

    private static double round(long total, WorkCounts counts) {
        return divide(total, counts.requests());
    }

    private static double divide(long total, long requests) {
        return requests == 0 ? 0 : Math.round(total * 1000.0 / requests) / 1000.0;
    }
}
