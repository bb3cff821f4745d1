package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.Getter;
import lombok.Setter;

/** What one of the run's PromQL checks gave at the end of its measured window. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class CheckResult {

    @JsonPropertyDescription("The expression as evaluated ($run, $namespace and $window replaced).")
    private String expr;

    @JsonPropertyDescription("error or warning.")
    private String severity;

    private String description;

    @JsonPropertyDescription(
            "Whether it fired: returned a series (or a scalar other than 0), or could not be evaluated.")
    private Boolean fired;

    @JsonPropertyDescription("The value of its first series, or why it could not be evaluated.")
    private String value;
}
