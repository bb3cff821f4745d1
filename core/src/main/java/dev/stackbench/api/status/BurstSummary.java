package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.Getter;
import lombok.Setter;

/** A burst's measured requests: how many were planned, how many were answered and how long all of them took. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class BurstSummary {

    @JsonPropertyDescription("Requests the burst was to send (users x iterations x requests per iteration).")
    private Long plannedRequests;

    @JsonPropertyDescription("Requests of the burst that were answered (any status).")
    private Long completedRequests;

    @JsonPropertyDescription(
            "From the first request sent to the last response received, in milliseconds, over" + " every runner.")
    private Double makespanMs;

    public BurstSummary withPlannedRequests(Long plannedRequests) {
        this.plannedRequests = plannedRequests;
        return this;
    }

    public BurstSummary withCompletedRequests(Long completedRequests) {
        this.completedRequests = completedRequests;
        return this;
    }

    public BurstSummary withMakespanMs(Double makespanMs) {
        this.makespanMs = makespanMs;
        return this;
    }
}
