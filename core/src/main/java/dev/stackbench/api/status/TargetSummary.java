package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.Getter;
import lombok.Setter;

/**
 * Resource usage of the target during the measured window, from its Prometheus endpoint.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class TargetSummary {

    @JsonPropertyDescription("Highest live JVM thread count.")
    private Integer peakThreads;

    @JsonPropertyDescription("Average CPU used, in cores.")
    private Double avgCpuCores;

    @JsonPropertyDescription("Share of CFS periods in which the target was throttled.")
    private Double cpuThrottledRatio;

    @JsonPropertyDescription("Highest used heap.")
    private Double peakHeapMiB;

    @JsonPropertyDescription("Total GC pause time.")
    private Double gcPauseMs;

    @JsonPropertyDescription("Number of GC pauses.")
    private Long gcPauses;

    @JsonPropertyDescription("Highest number of busy database connections.")
    private Double peakDbPoolActive;

    @JsonPropertyDescription("Highest number of requests waiting for a database connection.")
    private Double peakDbPoolPending;

    @JsonPropertyDescription("Highest number of threads of the variant's request pool at work: the live threads of"
            + " an offloading pool that grows on demand (boundedElastic, Dispatchers.IO), Tomcat's busy threads, or"
            + " the event-loop threads a thread-state sample found blocked (in JDBC, a sleep or a wait outside their"
            + " selector), where the target publishes them.")
    private Integer peakPoolThreads;

    @JsonPropertyDescription("Share of the window's scrapes (0..1) in which the pool threads (peakPoolThreads'"
            + " gauge) were at the window's peak: near 1 with the peak at the pool's size, the pool was full most of"
            + " the time.")
    private Double poolAtPeakShare;

    @JsonPropertyDescription("Share of the window's scrapes (0..1) in which requests waited for a database connection"
            + " (Hikari or R2DBC pending acquisitions above 0).")
    private Double dbPoolPendingShare;

    @JsonPropertyDescription("Number of metric scrapes the figures are based on.")
    private Integer samples;

    public TargetSummary withPeakThreads(Integer peakThreads) {
        this.peakThreads = peakThreads;
        return this;
    }

    public TargetSummary withAvgCpuCores(Double avgCpuCores) {
        this.avgCpuCores = avgCpuCores;
        return this;
    }

    public TargetSummary withCpuThrottledRatio(Double cpuThrottledRatio) {
        this.cpuThrottledRatio = cpuThrottledRatio;
        return this;
    }

    public TargetSummary withPeakHeapMiB(Double peakHeapMiB) {
        this.peakHeapMiB = peakHeapMiB;
        return this;
    }

    public TargetSummary withGcPauseMs(Double gcPauseMs) {
        this.gcPauseMs = gcPauseMs;
        return this;
    }

    public TargetSummary withGcPauses(Long gcPauses) {
        this.gcPauses = gcPauses;
        return this;
    }

    public TargetSummary withPeakDbPoolActive(Double peakDbPoolActive) {
        this.peakDbPoolActive = peakDbPoolActive;
        return this;
    }

    public TargetSummary withPeakDbPoolPending(Double peakDbPoolPending) {
        this.peakDbPoolPending = peakDbPoolPending;
        return this;
    }

    public TargetSummary withSamples(Integer samples) {
        this.samples = samples;
        return this;
    }
}
