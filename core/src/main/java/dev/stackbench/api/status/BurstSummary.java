package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** A burst's measured requests: how many were planned, how many were answered and how long all of them took. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BurstSummary {

    @JsonPropertyDescription("Requests the burst was to send (users x iterations x requests per iteration).")
    private Long plannedRequests;

    @JsonPropertyDescription("Requests of the burst that were answered (any status).")
    private Long completedRequests;

    @JsonPropertyDescription(
            "From the first request sent to the last response received, in milliseconds, over" + " every runner.")
    private Double makespanMs;

    public Long getPlannedRequests() {
        return plannedRequests;
    }

    public void setPlannedRequests(Long plannedRequests) {
        this.plannedRequests = plannedRequests;
    }

    public BurstSummary withPlannedRequests(Long plannedRequests) {
        this.plannedRequests = plannedRequests;
        return this;
    }

    public Long getCompletedRequests() {
        return completedRequests;
    }

    public void setCompletedRequests(Long completedRequests) {
        this.completedRequests = completedRequests;
    }

    public BurstSummary withCompletedRequests(Long completedRequests) {
        this.completedRequests = completedRequests;
        return this;
    }

    public Double getMakespanMs() {
        return makespanMs;
    }

    public void setMakespanMs(Double makespanMs) {
        this.makespanMs = makespanMs;
    }

    public BurstSummary withMakespanMs(Double makespanMs) {
        this.makespanMs = makespanMs;
        return this;
    }
}
