package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.Getter;
import lombok.Setter;

/**
 * Scenario lock's groups of concurrent changes of one order: each must end with exactly one success and every other
 * change refused with 409; anything else is a correctness error of the target.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class LockSummary {

    @JsonPropertyDescription("Concurrent changes per group (spec.workload.lockGroup).")
    private Integer groupSize;

    @JsonPropertyDescription("Groups sent in the measured window.")
    private Long groups;

    @JsonPropertyDescription("Groups with exactly one success and every other change refused with 409.")
    private Long correctGroups;

    @JsonPropertyDescription("Correctness errors: groups in which more than one change succeeded.")
    private Long groupsWithSeveralSuccesses;

    @JsonPropertyDescription("Correctness errors: groups in which every change was refused.")
    private Long groupsWithoutSuccess;

    @JsonPropertyDescription("Groups with an answer other than 200 or 409 (errors, not judged for correctness).")
    private Long groupsWithErrors;

    @JsonPropertyDescription("Time each change waited for the order's row lock, as the target measured it (the"
            + " SELECT ... FOR UPDATE from sent to answered), in milliseconds.")
    private LatencySummary lockWaitMs;

    @JsonPropertyDescription("False when the lock wait percentiles of several runners are the largest of the"
            + " runners' own (an upper bound).")
    private Boolean lockWaitExact;

    /** Groups that did not end with exactly one success. */
    public long correctnessErrors() {
        return (groupsWithSeveralSuccesses == null ? 0 : groupsWithSeveralSuccesses)
                + (groupsWithoutSuccess == null ? 0 : groupsWithoutSuccess);
    }
}
