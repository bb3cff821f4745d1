package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.Getter;
import lombok.Setter;

/** What one pod of a run (target, delay service, database, k6 runner) used during the measured window. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class PodResources {

    @JsonPropertyDescription("target, delay-service, database or runner.")
    private String role;

    private String pod;

    private String node;

    @JsonPropertyDescription("The pod's CPU limit, in cores (null without a limit).")
    private Double cpuLimitCores;

    @JsonPropertyDescription("Average CPU used, in cores, from the kubelet's cAdvisor counters.")
    private Double avgCpuCores;

    @JsonPropertyDescription("Share of the pod's CFS periods in which its CPU limit stopped it (null without a limit).")
    private Double cpuThrottledRatio;

    @JsonPropertyDescription("Seconds between the two kubelet readings the figures come from.")
    private Double sampledSeconds;

    @JsonPropertyDescription(
            "False when the measured window held fewer than two kubelet readings and readings around it were used.")
    private Boolean insideWindow;

    @JsonPropertyDescription("Target pods: peak live JVM threads in the measured window, from the pod's own metrics.")
    private Integer peakThreads;

    @JsonPropertyDescription("Target pods: peak heap used in the measured window, in MiB.")
    private Double peakHeapMiB;

    @JsonPropertyDescription("Target pods: time spent in GC pauses during the measured window, in milliseconds.")
    private Double gcPauseMs;

    public PodResources withRole(String role) {
        this.role = role;
        return this;
    }

    public PodResources withPod(String pod) {
        this.pod = pod;
        return this;
    }

    public PodResources withNode(String node) {
        this.node = node;
        return this;
    }

    public PodResources withCpuLimitCores(Double cpuLimitCores) {
        this.cpuLimitCores = cpuLimitCores;
        return this;
    }

    public PodResources withAvgCpuCores(Double avgCpuCores) {
        this.avgCpuCores = avgCpuCores;
        return this;
    }

    public PodResources withCpuThrottledRatio(Double cpuThrottledRatio) {
        this.cpuThrottledRatio = cpuThrottledRatio;
        return this;
    }

    public PodResources withSampledSeconds(Double sampledSeconds) {
        this.sampledSeconds = sampledSeconds;
        return this;
    }

    public PodResources withInsideWindow(Boolean insideWindow) {
        this.insideWindow = insideWindow;
        return this;
    }
}
