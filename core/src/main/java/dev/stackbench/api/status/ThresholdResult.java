package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * One k6 threshold expression on one metric and whether it held on the combined result.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
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

    public String getMetric() {
        return metric;
    }

    public void setMetric(String metric) {
        this.metric = metric;
    }

    public ThresholdResult withMetric(String metric) {
        this.metric = metric;
        return this;
    }

    public String getExpression() {
        return expression;
    }

    public void setExpression(String expression) {
        this.expression = expression;
    }

    public ThresholdResult withExpression(String expression) {
        this.expression = expression;
        return this;
    }

    public Boolean getPassed() {
        return passed;
    }

    public void setPassed(Boolean passed) {
        this.passed = passed;
    }

    public ThresholdResult withPassed(Boolean passed) {
        this.passed = passed;
        return this;
    }

    public Double getValue() {
        return value;
    }

    public void setValue(Double value) {
        this.value = value;
    }

    public ThresholdResult withValue(Double value) {
        this.value = value;
        return this;
    }

    public String getSource() {
        return source;
    }

    public void setSource(String source) {
        this.source = source;
    }

    public ThresholdResult withSource(String source) {
        this.source = source;
        return this;
    }
}
