package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.Getter;
import lombok.Setter;

/**
 * One moment of a run: where its time went between being created and being cleaned up, the run's own steps and (in
 * cluster mode) its pods' milestones, so the overhead around the load can be seen and measured.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class TimelineEntry {

    @JsonPropertyDescription("When it happened (RFC 3339; pod milestones have the API server's whole seconds).")
    private String at;

    @JsonPropertyDescription("Seconds since the run was created.")
    private Double seconds;

    @JsonPropertyDescription(
            "What happened: the reason of the run's event (e.g. TargetReady, LoadRunning, RunSucceeded) or a pod"
                    + " milestone (e.g. database Ready).")
    private String what;

    public TimelineEntry withAt(String at) {
        this.at = at;
        return this;
    }

    public TimelineEntry withSeconds(Double seconds) {
        this.seconds = seconds;
        return this;
    }

    public TimelineEntry withWhat(String what) {
        this.what = what;
        return this;
    }
}
