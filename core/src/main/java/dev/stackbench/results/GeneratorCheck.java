package dev.stackbench.results;

import dev.stackbench.api.PodResources;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether the load generator delivered the load the spec asked for, judged from what it did rather than from what it
 * reports: a k6 runner that used nearly all of its CPU limit, or that its limit throttled, timed its requests late
 * and spaced them wrong; one that dropped iterations sent less than asked. Then the figures describe the generator,
 * not the target, and the run says so.
 */
public final class GeneratorCheck {

    /** A runner at or above this share of its CPU limit is taken as saturated. */
    public static final double CPU_SHARE_ALARM = 0.8;

    /**
     * A runner throttled in at least this share of its CFS periods lost CPU time when it needed it. A few throttled
     * periods in a window of thousands can come from a burst (a GC, the start of a stage) and change nothing.
     */
    public static final double THROTTLED_ALARM = 0.01;

    public static final String RUNNER_CPU_SATURATED = "RunnerCpuSaturated";
    public static final String RUNNER_THROTTLED = "RunnerThrottled";
    public static final String ITERATIONS_DROPPED = "IterationsDropped";

    /** Why the generator is suspect, and the condition reason that names it. */
    public record Finding(String reason, String message) {}

    private GeneratorCheck() {}

    /**
     * The finding over the runners' pod figures (role runner) and the dropped iterations; empty when the generator
     * kept up by every measure available.
     */
    public static Optional<Finding> check(List<PodResources> pods, long droppedIterations) {
        List<String> saturated = new ArrayList<>();
        List<String> throttled = new ArrayList<>();
        for (PodResources pod : pods) {
            if (!"runner".equals(pod.getRole())) {
                continue;
            }
            if (pod.getCpuLimitCores() != null
                    && pod.getAvgCpuCores() != null
                    && pod.getAvgCpuCores() >= CPU_SHARE_ALARM * pod.getCpuLimitCores()) {
                saturated.add(String.format(
                        Locale.ROOT,
                        "%s used %.2f of its %.2f CPU (%.0f%%)",
                        pod.getPod(),
                        pod.getAvgCpuCores(),
                        pod.getCpuLimitCores(),
                        100 * pod.getAvgCpuCores() / pod.getCpuLimitCores()));
            }
            if (pod.getCpuThrottledRatio() != null && pod.getCpuThrottledRatio() >= THROTTLED_ALARM) {
                throttled.add(String.format(
                        Locale.ROOT,
                        "%s was throttled in %.1f%% of its CPU periods",
                        pod.getPod(),
                        100 * pod.getCpuThrottledRatio()));
            }
        }
        List<String> facts = new ArrayList<>(saturated);
        facts.addAll(throttled);
        if (droppedIterations > 0) {
            facts.add(droppedIterations + " iterations dropped");
        }
        if (facts.isEmpty()) {
            return Optional.empty();
        }
        String reason = !saturated.isEmpty()
                ? RUNNER_CPU_SATURATED
                : !throttled.isEmpty() ? RUNNER_THROTTLED : ITERATIONS_DROPPED;
        String consequence = saturated.isEmpty() && throttled.isEmpty()
                ? "the target got a lower load than requested (k6 ran out of VUs while responses were slow, or could"
                        + " not start iterations in time): raise spec.workload.load.vus, or the runners' CPU"
                : "this result measures the load generator, not the target: raise"
                        + " spec.workload.runnerResources.cpu or spec.workload.parallelism";
        return Optional.of(new Finding(
                reason,
                "!! k6 could not generate the requested load (" + String.join(", ", facts) + "): " + consequence));
    }
}
