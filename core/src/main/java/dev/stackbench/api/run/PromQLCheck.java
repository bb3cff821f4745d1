package dev.stackbench.api.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import lombok.Getter;
import lombok.Setter;

/**
 * A PromQL expression judged against the cluster's Prometheus at the end of a run's measured window, as an alert
 * rule is: it fires when it returns any series (or a scalar other than 0). Only a cluster with a Prometheus the
 * operator knows can evaluate it; elsewhere a run that lists checks is refused.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class PromQLCheck {

    /** Replaced in {@link #expr} before it is evaluated. */
    public static final String RUN = "$run";

    public static final String NAMESPACE = "$namespace";

    public static final String WINDOW = "$window";

    @Required
    @Size(min = 1, max = 4096)
    @JsonPropertyDescription(
            "The expression, evaluated once at the end of the measured window; it fires when it"
                    + " returns any series. $run, $namespace and $window (the measured window as a range, e.g. 40s) are"
                    + " replaced first, e.g. max_over_time(jvm_threads_live_threads{stackbench_dev_run=\"$run\"}[$window]) > 200.")
    private String expr;

    @Default("error")
    @JsonPropertyDescription("error: a firing check fails the run (its results stay); warning: it adds a warning.")
    private CheckSeverity severity;

    @Size(max = 512)
    @JsonPropertyDescription("What a firing check means, for the message.")
    private String description;

    /** error fails the run, warning warns. */
    public enum CheckSeverity {
        error,
        warning
    }
}
