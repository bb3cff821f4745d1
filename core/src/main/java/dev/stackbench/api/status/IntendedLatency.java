package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;
import lombok.Getter;
import lombok.Setter;

/**
 * Latency as the callers of an open model saw it: from each iteration's intended start (its tick in the arrival
 * schedule) to its end, over every intended iteration, the dropped and cut-off ones included. A dropped iteration was
 * never sent and a cut-off one never answered, so only a lower bound of their latency is known; a percentile that such
 * a bound may hold up is named in lowerBounds.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class IntendedLatency {

    @JsonPropertyDescription(
            "Iterations the arrival schedule intended in the measured scenario: served plus dropped plus cut off.")
    private Long intended;

    @JsonPropertyDescription("Intended iterations that ran to their end.")
    private Long served;

    @JsonPropertyDescription(
            "Intended iterations k6 dropped (no idle VU at their tick): never sent; their latency is at least the time"
                    + " until a VU was free again.")
    private Long dropped;

    @JsonPropertyDescription(
            "Dropped iterations after which no iteration ended in the scenario: their callers were not served within"
                    + " the measured window.")
    private Long beyondWindow;

    @JsonPropertyDescription(
            "Intended iterations k6 started but interrupted at the scenario's end (its graceful stop ran out) before"
                    + " they were answered: their latency is at least the time until k6's last answer. Absent when"
                    + " none.")
    private Long cutOff;

    @JsonPropertyDescription("Median latency from the intended start, in milliseconds.")
    private Double p50;

    @JsonPropertyDescription("90th percentile latency from the intended start, in milliseconds.")
    private Double p90;

    @JsonPropertyDescription("95th percentile latency from the intended start, in milliseconds.")
    private Double p95;

    @JsonPropertyDescription("99th percentile latency from the intended start, in milliseconds.")
    private Double p99;

    @JsonPropertyDescription("Largest latency from the intended start (or its lower bound), in milliseconds.")
    private Double max;

    @JsonPropertyDescription(
            "The figures (p50, p90, p95, p99, max) that are only lower bounds: dropped or cut-off iterations, whose"
                    + " latency is known only from below, rank at or below them.")
    private List<String> lowerBounds;

    @JsonPropertyDescription(
            "99th percentile of the schedule lag in milliseconds: how late k6 handled a tick and started its"
                    + " iteration (generator-side; large values mean a busy load generator).")
    private Double scheduleLagP99Ms;

    @JsonPropertyDescription("Largest schedule lag in milliseconds.")
    private Double scheduleLagMaxMs;

    @JsonPropertyDescription("What the figures mean for this run, in words.")
    private String note;
}
