package dev.stackbench.lifecycle;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What a platform observed of a run in one pass, before acting: the input of {@link RunDriver#next}. The operator
 * reads it from its informers' caches, local mode from its processes; neither decides anything while observing.
 *
 * @param violations what the catalogue and k6 say is wrong with the spec, one sentence each (the API server checked
 *     the schema already); empty when valid
 * @param pools whether the run's pools (node pools on a cluster, this machine's CPUs locally) are free for it, and
 *     the sentence saying so or why it waits
 * @param loadHandedOver whether any load of the run was handed to the load generator: provisioning is over then, and
 *     readiness is not judged again (the target may be restarted between steps)
 * @param readiness the target's, the delay service's and the database's, while provisioning
 * @param readyLimit the longest the target may take to become Ready, counted from when the run got its pools
 * @param targetFresh whether the target is as the current load needs it: false until a target restarted for the
 *     current step (spec.workload.restartBetweenSteps) is Ready again
 * @param load the state of the current load's generator
 * @param workVerified whether the target's work per request was verified (status.verification holds the verdict), or
 *     needs no verification by this platform: false while a Ready target waits for its verification before any load
 */
public record RunFacts(
        List<String> violations,
        Pools pools,
        boolean loadHandedOver,
        Readiness readiness,
        Duration readyLimit,
        boolean targetFresh,
        LoadState load,
        boolean workVerified) {

    /** Whether the run may take its pools now, in a sentence either way. */
    public record Pools(boolean free, String message) {}

    /** Whether the target, the delay service and the database are Ready. */
    public sealed interface Readiness permits Ready, NotReady, Broken {}

    public record Ready() implements Readiness {}

    /** Not Ready yet; {@code problem} says which and why. */
    public record NotReady(String problem) implements Readiness {}

    /** Cannot become Ready (e.g. OOMKilled): the run fails with this reason and message. */
    public record Broken(String reason, String message) implements Readiness {}

    /** Where the current load's generator is. */
    public sealed interface LoadState permits NotCreated, Starting, Running, Finished, GeneratorFailed, TargetFailed {}

    /** Nothing of the current load exists yet. */
    public record NotCreated() implements LoadState {}

    /** Its runners are being created or wait to start; {@code problem} when one cannot start. */
    public record Starting(Optional<String> problem) implements LoadState {}

    /** Its runners send load, since {@code elapsed}. */
    public record Running(int runners, Duration elapsed) implements LoadState {}

    /** Every runner has finished; their results can be read. */
    public record Finished(int runners) implements LoadState {}

    /** The load generator failed (a runner, or k6-operator): the run fails with this reason and message. */
    public record GeneratorFailed(String reason, String message) implements LoadState {}

    /**
     * The target restarted under the load after it was Ready (OOMKilled, crashed): its figures would mix two processes,
     * so the run fails with this reason and message.
     */
    public record TargetFailed(String reason, String message) implements LoadState {}
}
