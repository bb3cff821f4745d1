package dev.stackbench.verification;

import dev.stackbench.api.run.Scenario;
import dev.stackbench.api.run.WorkloadSpec;
import java.util.Optional;

/**
 * The work one iteration of a built-in scenario asks of the target, as the target HTTP contract defines it (the
 * statements are those of every variant's shared SQL): database statements, the rows they read and write, and calls
 * to the delay service. Compared with what a variant really did, it shows a variant that caches, skips a statement or
 * calls upstream more than once.
 *
 * @param statements SQL statements (BEGIN, COMMIT and other utility commands not counted)
 * @param rowsRead rows returned by SELECT statements (pg_sleep returns one)
 * @param rowsWritten rows inserted, updated or deleted
 * @param upstreamCalls calls answered by the delay service
 */
public record WorkExpectation(long statements, long rowsRead, long rowsWritten, long upstreamCalls) {

    private static final WorkExpectation NOTHING = new WorkExpectation(0, 0, 0, 0);
    /** select price; insert order returning id; insert order line. */
    private static final WorkExpectation CREATE_ORDER = new WorkExpectation(3, 1, 2, 0);
    /** select ... for update; update of the status. */
    private static final WorkExpectation PAY_ORDER = new WorkExpectation(2, 1, 1, 0);
    /** select ... for update only: the change is refused (409) before the update. */
    private static final WorkExpectation REFUSED_CHANGE = new WorkExpectation(1, 1, 0, 0);

    /**
     * What one iteration of the workload's scenario costs; empty for scenario custom, whose module alone knows what
     * it sends. {@code workload} must have been validated (calls, lockGroup and rowCount set where needed).
     */
    public static Optional<WorkExpectation> perIteration(WorkloadSpec workload) {
        Scenario scenario = workload.getScenario();
        return switch (scenario) {
            case UPSTREAM -> Optional.of(new WorkExpectation(0, 0, 0, 1));
            case DB -> Optional.of(new WorkExpectation(1, 1, 0, 0));
            case MIXED -> Optional.of(new WorkExpectation(1, 1, 0, 1));
            case ROWS -> Optional.of(new WorkExpectation(1, required(workload.getRowCount(), "rowCount"), 0, 0));
            case SLEEP -> Optional.of(NOTHING);
            case FANOUT -> Optional.of(new WorkExpectation(0, 0, 0, required(workload.getCalls(), "calls")));
            case ORDERS -> Optional.of(CREATE_ORDER.plus(PAY_ORDER));
            // One order, then a group of concurrent changes of it: one wins, the others are refused after the lock.
            case LOCK -> {
                long group = required(workload.getLockGroup(), "lockGroup");
                yield Optional.of(CREATE_ORDER.plus(PAY_ORDER).plus(REFUSED_CHANGE.times(group - 1)));
            }
            case CUSTOM -> Optional.empty();
        };
    }

    public WorkExpectation plus(WorkExpectation other) {
        return new WorkExpectation(
                statements + other.statements,
                rowsRead + other.rowsRead,
                rowsWritten + other.rowsWritten,
                upstreamCalls + other.upstreamCalls);
    }

    public WorkExpectation times(long factor) {
        return new WorkExpectation(
                statements * factor, rowsRead * factor, rowsWritten * factor, upstreamCalls * factor);
    }

    private static long required(Integer value, String field) {
        if (value == null) {
            throw new IllegalArgumentException("spec.workload." + field + " is not set: validate the spec before"
                    + " deriving the work its scenario asks for");
        }
        return value;
    }
}
