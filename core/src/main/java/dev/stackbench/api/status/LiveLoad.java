package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.Getter;
import lombok.Setter;

/**
 * The load so far, while it runs: what the k6 runners counted, read from their REST API every few seconds. A view
 * for people watching a run, not a result: the results are in the summary once the runners have finished.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class LiveLoad {

    @JsonPropertyDescription("Requests sent so far, warmup included, by the runners that answered.")
    private Long requests;

    @JsonPropertyDescription("Requests sent so far in the measured window.")
    private Long measuredRequests;

    @JsonPropertyDescription("Failed requests so far.")
    private Long failedRequests;

    @JsonPropertyDescription("Iterations k6 could not start on time so far (the open model's drops).")
    private Long droppedIterations;

    @JsonPropertyDescription("Requests per second between the last two readings.")
    private Double requestsPerSecond;

    @JsonPropertyDescription("Runners whose REST API answered the last reading, of all the load's runners.")
    private String runnersRead;

    @JsonPropertyDescription("When the last reading was made (RFC 3339).")
    private String updatedAt;

    @JsonPropertyDescription("The reading in one line, for kubectl get: elapsed, requests, rate, failed, dropped.")
    private String text;
}
