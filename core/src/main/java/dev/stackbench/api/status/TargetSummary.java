package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * Resource usage of the target during the measured window, from its Prometheus endpoint.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
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
            + " an offloading pool that grows on demand (boundedElastic, Dispatchers.IO), or Tomcat's busy threads,"
            + " where the target publishes them.")
    private Integer peakPoolThreads;

    @JsonPropertyDescription("Number of metric scrapes the figures are based on.")
    private Integer samples;

    public Integer getPeakThreads() {
        return peakThreads;
    }

    public void setPeakThreads(Integer peakThreads) {
        this.peakThreads = peakThreads;
    }

    public TargetSummary withPeakThreads(Integer peakThreads) {
        this.peakThreads = peakThreads;
        return this;
    }

    public Double getAvgCpuCores() {
        return avgCpuCores;
    }

    public void setAvgCpuCores(Double avgCpuCores) {
        this.avgCpuCores = avgCpuCores;
    }

    public TargetSummary withAvgCpuCores(Double avgCpuCores) {
        this.avgCpuCores = avgCpuCores;
        return this;
    }

    public Double getCpuThrottledRatio() {
        return cpuThrottledRatio;
    }

    public void setCpuThrottledRatio(Double cpuThrottledRatio) {
        this.cpuThrottledRatio = cpuThrottledRatio;
    }

    public TargetSummary withCpuThrottledRatio(Double cpuThrottledRatio) {
        this.cpuThrottledRatio = cpuThrottledRatio;
        return this;
    }

    public Double getPeakHeapMiB() {
        return peakHeapMiB;
    }

    public void setPeakHeapMiB(Double peakHeapMiB) {
        this.peakHeapMiB = peakHeapMiB;
    }

    public TargetSummary withPeakHeapMiB(Double peakHeapMiB) {
        this.peakHeapMiB = peakHeapMiB;
        return this;
    }

    public Double getGcPauseMs() {
        return gcPauseMs;
    }

    public void setGcPauseMs(Double gcPauseMs) {
        this.gcPauseMs = gcPauseMs;
    }

    public TargetSummary withGcPauseMs(Double gcPauseMs) {
        this.gcPauseMs = gcPauseMs;
        return this;
    }

    public Long getGcPauses() {
        return gcPauses;
    }

    public void setGcPauses(Long gcPauses) {
        this.gcPauses = gcPauses;
    }

    public TargetSummary withGcPauses(Long gcPauses) {
        this.gcPauses = gcPauses;
        return this;
    }

    public Double getPeakDbPoolActive() {
        return peakDbPoolActive;
    }

    public void setPeakDbPoolActive(Double peakDbPoolActive) {
        this.peakDbPoolActive = peakDbPoolActive;
    }

    public TargetSummary withPeakDbPoolActive(Double peakDbPoolActive) {
        this.peakDbPoolActive = peakDbPoolActive;
        return this;
    }

    public Double getPeakDbPoolPending() {
        return peakDbPoolPending;
    }

    public void setPeakDbPoolPending(Double peakDbPoolPending) {
        this.peakDbPoolPending = peakDbPoolPending;
    }

    public TargetSummary withPeakDbPoolPending(Double peakDbPoolPending) {
        this.peakDbPoolPending = peakDbPoolPending;
        return this;
    }

    public Integer getSamples() {
        return samples;
    }

    public void setSamples(Integer samples) {
        this.samples = samples;
    }

    public TargetSummary withSamples(Integer samples) {
        this.samples = samples;
        return this;
    }

    public Integer getPeakPoolThreads() {
        return peakPoolThreads;
    }

    public void setPeakPoolThreads(Integer peakPoolThreads) {
        this.peakPoolThreads = peakPoolThreads;
    }
}
