package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;
import lombok.Getter;
import lombok.Setter;

/**
 * Observed state of a run. The phase only moves forward ({@link dev.stackbench.lifecycle.RunProgress} moves it); conditions follow Kubernetes
 * conventions ({@link Conditions}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class BenchmarkRunStatus {

    @JsonPropertyDescription("Pending, Queued, Provisioning, WarmingUp, Running, Collecting, Succeeded or Failed.")
    private Phase phase;

    @JsonPropertyDescription("The spec generation this status describes.")
    private Long observedGeneration;

    @JsonPropertyDescription("When the operator first saw the run (RFC 3339, in milliseconds): of runs created in the"
            + " same second, the one seen first takes shared node pools first.")
    private String queuedAt;

    @JsonPropertyDescription("The node pools and the external database this run holds, fixed when it started: no other"
            + " run uses them until this list is empty, which happens once the run has ended and its pods are gone.")
    private List<String> pools;

    @JsonPropertyDescription("When load started (RFC 3339).")
    private String startedAt;

    @JsonPropertyDescription("When the run reached Succeeded or Failed (RFC 3339).")
    private String finishedAt;

    @JsonPropertyDescription("What is happening now, or why the run failed.")
    private String message;

    @JsonPropertyDescription(
            "Where the run's time went: each of its events and, in cluster mode, its pods' milestones, with the seconds"
                    + " since the run was created (at most 120 entries).")
    private List<TimelineEntry> timeline;

    private List<Condition> conditions;

    @JsonPropertyDescription(
            "The load so far while it runs (k6's counts, every few seconds); gone once the run ends, whose results are in summary.")
    private LiveLoad live;

    private RunSummary summary;

    private RunEnvironment environment;

    @JsonPropertyDescription("A sweep's or a capacity search's measured steps, in the order they ran.")
    private List<StepResult> steps;

    private CapacityResult capacity;

    @JsonPropertyDescription("The work per request checked before the load: the run fails before load when it"
            + " differs from the scenario's.")
    private VerificationResult verification;

    public BenchmarkRunStatus withPhase(Phase phase) {
        this.phase = phase;
        return this;
    }

    public BenchmarkRunStatus withObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
        return this;
    }

    public BenchmarkRunStatus withStartedAt(String startedAt) {
        this.startedAt = startedAt;
        return this;
    }

    public BenchmarkRunStatus withFinishedAt(String finishedAt) {
        this.finishedAt = finishedAt;
        return this;
    }

    public BenchmarkRunStatus withMessage(String message) {
        this.message = message;
        return this;
    }

    public BenchmarkRunStatus withConditions(List<Condition> conditions) {
        this.conditions = conditions;
        return this;
    }

    public BenchmarkRunStatus withSummary(RunSummary summary) {
        this.summary = summary;
        return this;
    }

    public BenchmarkRunStatus withEnvironment(RunEnvironment environment) {
        this.environment = environment;
        return this;
    }
}
