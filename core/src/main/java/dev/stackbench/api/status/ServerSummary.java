package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.Getter;
import lombok.Setter;

/**
 * What the target itself counted and timed during the measured window (Micrometer's http.server.requests, scraped
 * from /actuator/prometheus), next to the verdict of comparing it with what k6 measured. An independent check of the
 * client-side figures: throughput must agree; client latency far above the server's shows time spent queueing in
 * front of the server, which its own metrics cannot see.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class ServerSummary {

    @JsonPropertyDescription("Start of the measured window the server figures cover (RFC 3339).")
    private String windowStart;

    @JsonPropertyDescription("End of the measured window the server figures cover (RFC 3339).")
    private String windowEnd;

    @JsonPropertyDescription(
            "Requests the target itself completed on its /api/ paths in the measured window (Micrometer's http.server.requests), its counter interpolated between the scrapes around each window edge.")
    private Long requests;

    @JsonPropertyDescription("requests / window length: the target's throughput, to compare with summary.rps.")
    private Double rps;

    @JsonPropertyDescription("Agrees when summary.rps is within 5 % (or 1 request/s) of rps.")
    private ServerAgreement rpsCheck;

    @JsonPropertyDescription(
            "The target's own latency bucket holding the median of the requests it served over the window, each bucket's count interpolated between the scrapes around each window edge as requests is. The server's timer starts when a thread takes the request: time queued before that is not in it.")
    private LatencyBucket p50BucketMs;

    @JsonPropertyDescription(
            "Agrees when the client p50 lies in p50BucketMs, allowing 5 % and 5 ms above it for the network (and up to the next bucket when the median falls between two groups of requests, which k6 interpolates); ClientHigher when far above it: requests queued before the server's timer started; ClientLower when below the bucket the median would hold even with the fastest of the requests around the window's edges taken as the window's.")
    private ServerAgreement p50Check;

    @JsonPropertyDescription("The target's own latency bucket holding its 95th percentile over the window.")
    private LatencyBucket p95BucketMs;

    @JsonPropertyDescription("As p50Check, for the client p95 against p95BucketMs.")
    private ServerAgreement p95Check;

    @JsonPropertyDescription("Target scrapes from the one before the window to the one after it.")
    private Integer scrapes;

    @JsonPropertyDescription(
            "Widest gap between the two scrapes around a window edge: the counters are interpolated across it.")
    private Double edgeGapSeconds;

    @JsonPropertyDescription(
            "Why some or all server figures are missing (they are never estimated without scrapes around the window).")
    private String unavailableReason;

    public ServerSummary withWindowStart(String windowStart) {
        this.windowStart = windowStart;
        return this;
    }

    public ServerSummary withWindowEnd(String windowEnd) {
        this.windowEnd = windowEnd;
        return this;
    }

    public ServerSummary withRequests(Long requests) {
        this.requests = requests;
        return this;
    }

    public ServerSummary withRps(Double rps) {
        this.rps = rps;
        return this;
    }

    public ServerSummary withRpsCheck(ServerAgreement rpsCheck) {
        this.rpsCheck = rpsCheck;
        return this;
    }

    public ServerSummary withP50BucketMs(LatencyBucket p50BucketMs) {
        this.p50BucketMs = p50BucketMs;
        return this;
    }

    public ServerSummary withP50Check(ServerAgreement p50Check) {
        this.p50Check = p50Check;
        return this;
    }

    public ServerSummary withP95BucketMs(LatencyBucket p95BucketMs) {
        this.p95BucketMs = p95BucketMs;
        return this;
    }

    public ServerSummary withP95Check(ServerAgreement p95Check) {
        this.p95Check = p95Check;
        return this;
    }

    public ServerSummary withScrapes(Integer scrapes) {
        this.scrapes = scrapes;
        return this;
    }

    public ServerSummary withEdgeGapSeconds(Double edgeGapSeconds) {
        this.edgeGapSeconds = edgeGapSeconds;
        return this;
    }

    public ServerSummary withUnavailableReason(String unavailableReason) {
        this.unavailableReason = unavailableReason;
        return this;
    }
}
