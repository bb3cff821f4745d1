package dev.stackbench.api.comparison;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** One contender against the baseline, metric by metric. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ContenderStatistics {

    @JsonPropertyDescription("The comparison's name of the contender.")
    private String name;

    private java.util.List<MetricShift> metrics;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public java.util.List<MetricShift> getMetrics() {
        return metrics;
    }

    public void setMetrics(java.util.List<MetricShift> metrics) {
        this.metrics = metrics;
    }
}
