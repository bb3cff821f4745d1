package dev.stackbench.api.comparison;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.Getter;
import lombok.Setter;

/** One contender against the baseline, metric by metric. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class ContenderStatistics {

    @JsonPropertyDescription("The comparison's name of the contender.")
    private String name;

    private java.util.List<MetricShift> metrics;
}
