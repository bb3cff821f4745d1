package dev.stackbench.api.comparison;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.Getter;
import lombok.Setter;

/**
 * Observed state of a comparison: its progress, every repetition's figures (kept here, so deleting a run loses
 * nothing), each variant's medians and each contender's verdicts.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class BenchmarkComparisonStatus {

    @JsonPropertyDescription("Pending, Running, Succeeded or Failed.")
    private ComparisonPhase phase;

    @JsonPropertyDescription("The spec generation this status describes.")
    private Long observedGeneration;

    @JsonPropertyDescription("What is happening now, or why the comparison failed.")
    private String message;

    @JsonPropertyDescription("The seed of the interleaved order, so the order can be repeated.")
    private Long seed;

    @JsonPropertyDescription("The variant the others are compared with (the first).")
    private String baseline;

    @JsonPropertyDescription("Every variant, in spec order.")
    private String variantNames;

    @JsonPropertyDescription("Repetitions of every variant together.")
    private Integer runsPlanned;

    @JsonPropertyDescription("Repetitions that have ended (succeeded or failed).")
    private Integer runsDone;

    @JsonPropertyDescription("runsDone/runsPlanned, e.g. 7/20.")
    private String progress;

    @JsonPropertyDescription("The current repetition's load so far, as its run's status.live, the run named in the"
            + " text; gone between repetitions and once the comparison ends.")
    private dev.stackbench.api.status.LiveLoad live;

    @JsonPropertyDescription("Each contender's headline against the baseline, e.g. webflux-r2dbc rps +92% [88,95]: the"
            + " relative shift with its interval, or ~ with the p-value when the difference is not"
            + " significant.")
    private String verdict;

    @JsonPropertyDescription("The verdict the runs would give with the flagged runs counted, when some were left out"
            + " (includeFlaggedRuns false): whether leaving them out decided the verdict.")
    private String verdictWithFlaggedRuns;

    @JsonPropertyDescription("When the first repetition was created (RFC 3339).")
    private String startedAt;

    @JsonPropertyDescription("When the comparison reached Succeeded or Failed (RFC 3339).")
    private String finishedAt;

    @JsonPropertyDescription("What the repetitions share and what each one starts afresh.")
    private String shared;

    @JsonPropertyDescription("Every repetition in the order it ran, with its figures.")
    private java.util.List<ComparisonRunRecord> runs;

    @JsonPropertyDescription("Per variant and metric: median, interval and CV over the valid runs.")
    private java.util.List<VariantStatistics> variants;

    @JsonPropertyDescription("Per contender and metric: the shift against the baseline, the rank test and the verdict.")
    private java.util.List<ContenderStatistics> contenders;

    @JsonPropertyDescription("Runs left out and why, too few runs for an interval or a significant result.")
    private java.util.List<String> warnings;
}
