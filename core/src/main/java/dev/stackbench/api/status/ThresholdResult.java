package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.Getter;
import lombok.Setter;

/**
 * One k6 threshold expression on one metric and whether it held on the combined result.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class ThresholdResult {

    @JsonPropertyDescription("The metric as written in the spec, e.g. http_req_duration.")
    private String metric;

    @JsonPropertyDescription("The threshold, e.g. p(95)<500.")
    private String expression;

    private Boolean passed;

    @JsonPropertyDescription("The combined value the threshold was checked against, when known.")
    private Double value;

    @JsonPropertyDescription("aggregate (checked on all runners combined) or k6 (as reported by k6).")
    private String source;

    public ThresholdResult withMetric(String metric) {
        this.metric = metric;
        return this;
    }

    public ThresholdResult withExpression(String expression) {
        this.expression = expression;
        return this;
    }

    public ThresholdResult withPassed(Boolean passed) {
        this.passed = passed;
        return this;
    }

    public ThresholdResult withValue(Double value) {
        this.value = value;
        return this;
    }

    public ThresholdResult withSource(String source) {
        this.source = source;
        return this;
    }
}
