package dev.stackbench.api.comparison;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.stackbench.api.status.CapacityLimit;
import dev.stackbench.api.status.Phase;
import lombok.Getter;
import lombok.Setter;

/** One repetition of a comparison: its run, its outcome and the figures the comparison uses. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class ComparisonRunRecord {

    @JsonPropertyDescription("The BenchmarkRun of this repetition.")
    private String name;

    @JsonPropertyDescription("The comparison's name of the variant it ran.")
    private String variant;

    @JsonPropertyDescription("Its round, from 1.")
    private Integer round;

    @JsonPropertyDescription("How the run ended (or Pending/Running while it runs).")
    private Phase phase;

    @JsonPropertyDescription("Its figures by metric name (rps, p50, p90, p95, p99, max, errorRate).")
    private java.util.Map<String, Double> figures;

    @JsonPropertyDescription("Iterations k6 could not start in time.")
    private Long droppedIterations;

    @JsonPropertyDescription("True when its load generator's CPU limited it (a saturated or throttled runner);"
            + " dropped iterations are counted apart.")
    private Boolean generatorSaturated;

    @JsonPropertyDescription("Share of the machine's CPU time its host took during the run's measured window (its"
            + " summary.hostSteal); above 0.05 the run is left out like a saturated one.")
    private Double hostSteal;

    @JsonPropertyDescription("What ended its capacity search, when the template searches for capacity: Target (the"
            + " figure is the capacity), Range or Generator (a lower bound), Floor (an upper bound).")
    private CapacityLimit capacityLimit;

    @JsonPropertyDescription("Whether the statistics count it (set when the comparison ends): false when it failed,"
            + " or was flagged and includeFlaggedRuns is false.")
    private Boolean counted;

    @JsonPropertyDescription("Why it failed, when it did.")
    private String message;
}
