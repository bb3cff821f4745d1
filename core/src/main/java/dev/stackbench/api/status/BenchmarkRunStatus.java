package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * Observed state of a run. The phase only moves forward ({@link dev.stackbench.lifecycle.RunProgress} moves it); conditions follow Kubernetes
 * conventions ({@link Conditions}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BenchmarkRunStatus {

    @JsonPropertyDescription("Pending, Queued, Provisioning, WarmingUp, Running, Collecting, Succeeded or Failed.")
    private Phase phase;

    @JsonPropertyDescription("The spec generation this status describes.")
    private Long observedGeneration;

    @JsonPropertyDescription("When load started (RFC 3339).")
    private String startedAt;

    @JsonPropertyDescription("When the run reached Succeeded or Failed (RFC 3339).")
    private String finishedAt;

    @JsonPropertyDescription("What is happening now, or why the run failed.")
    private String message;

    private List<Condition> conditions;

    private RunSummary summary;

    private RunEnvironment environment;

    @JsonPropertyDescription("A sweep's or a capacity search's measured steps, in the order they ran.")
    private List<StepResult> steps;

    private CapacityResult capacity;

    public Phase getPhase() {
        return phase;
    }

    public void setPhase(Phase phase) {
        this.phase = phase;
    }

    public BenchmarkRunStatus withPhase(Phase phase) {
        this.phase = phase;
        return this;
    }

    public Long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }

    public BenchmarkRunStatus withObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
        return this;
    }

    public String getStartedAt() {
        return startedAt;
    }

    public void setStartedAt(String startedAt) {
        this.startedAt = startedAt;
    }

    public BenchmarkRunStatus withStartedAt(String startedAt) {
        this.startedAt = startedAt;
        return this;
    }

    public String getFinishedAt() {
        return finishedAt;
    }

    public void setFinishedAt(String finishedAt) {
        this.finishedAt = finishedAt;
    }

    public BenchmarkRunStatus withFinishedAt(String finishedAt) {
        this.finishedAt = finishedAt;
        return this;
    }

    public String getMessage() {
        return message;
    }

    public void setMessage(String message) {
        this.message = message;
    }

    public BenchmarkRunStatus withMessage(String message) {
        this.message = message;
        return this;
    }

    public List<Condition> getConditions() {
        return conditions;
    }

    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }

    public BenchmarkRunStatus withConditions(List<Condition> conditions) {
        this.conditions = conditions;
        return this;
    }

    public RunSummary getSummary() {
        return summary;
    }

    public void setSummary(RunSummary summary) {
        this.summary = summary;
    }

    public BenchmarkRunStatus withSummary(RunSummary summary) {
        this.summary = summary;
        return this;
    }

    public RunEnvironment getEnvironment() {
        return environment;
    }

    public void setEnvironment(RunEnvironment environment) {
        this.environment = environment;
    }

    public BenchmarkRunStatus withEnvironment(RunEnvironment environment) {
        this.environment = environment;
        return this;
    }

    public List<StepResult> getSteps() {
        return steps;
    }

    public void setSteps(List<StepResult> steps) {
        this.steps = steps;
    }

    public CapacityResult getCapacity() {
        return capacity;
    }

    public void setCapacity(CapacityResult capacity) {
        this.capacity = capacity;
    }
}
