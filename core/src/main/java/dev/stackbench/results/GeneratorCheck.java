package dev.stackbench.results;

import dev.stackbench.api.status.PodResources;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether the load generator delivered the load the spec asked for, judged from what it did rather than from what it
 * reports. Both modes judge with this one model; they only differ in what they can observe:
 *
 * <ul>
 *   <li><b>Its own CPU against what it may use.</b> A generator that used at least {@link #CPU_SHARE_ALARM} of the CPU
 *       it may use on average timed its requests late and spaced them wrong. What it may use is its CPU limit on a
 *       cluster (a runner pod) and the size of its CPU set locally (the k6 process): two inputs, one threshold.
 *   <li><b>Throttling</b>, where a CPU limit exists: throttled in at least {@link #THROTTLED_ALARM} of its CFS periods,
 *       it lost CPU time when it needed it, even below the share above.
 *   <li><b>The CPUs it shares</b>, where it shares them and they are measured (locally k6 runs beside the delay
 *       service and PostgreSQL): busy at least {@link #SHARED_CPUS_BUSY_ALARM} of the time, k6 and the services it
 *       relies on waited for CPU, so requests left late and answers came back late whatever the target did.
 *   <li><b>Dropped iterations</b>: the generator sent less than asked (out of VUs while answers were slow, or unable
 *       to start iterations in time).
 * </ul>
 *
 * The first three make the figures describe the generator rather than the target; the last makes them describe a
 * lower load than requested. Either way the run says so, in the same words in both modes.
 */
public final class GeneratorCheck {

    /** A generator at or above this share of the CPU it may use (limit or CPU set) is taken as saturated. */
    public static final double CPU_SHARE_ALARM = 0.8;

    /**
     * A generator throttled in at least this share of its CFS periods lost CPU time when it needed it. A few throttled
     * periods in a window of thousands can come from a burst (a GC, the start of a stage) and change nothing.
     */
    public static final double THROTTLED_ALARM = 0.01;

    /** The CPUs a generator shares with other processes may be at most this busy before its timing suffers. */
    public static final double SHARED_CPUS_BUSY_ALARM = 0.90;

    public static final String RUNNER_CPU_SATURATED = "RunnerCpuSaturated";
    public static final String RUNNER_THROTTLED = "RunnerThrottled";
    public static final String ITERATIONS_DROPPED = "IterationsDropped";

    /** The start of every finding's message: what reports look for. */
    public static final String FINDING_PREFIX = "k6 could not generate the requested load";

    /**
     * Why the generator is suspect, and the condition reason that names it.
     *
     * @param sharedCpusOnly true when the only sign of saturation is how busy the CPUs it shares were, k6 itself below
     *     its share and not throttled: the machine was contended rather than the generator saturated, which makes the
     *     timings less trustworthy without making the generator the limit
     */
    public record Finding(String reason, String message, boolean sharedCpusOnly) {

        public Finding(String reason, String message) {
            this(reason, message, false);
        }
    }

    /**
     * What was observed of one load generator over the measured window; null figures were not measured.
     *
     * @param name the runner pod, or "k6" for the local process
     * @param usedCores its average CPU use
     * @param allowedCores the CPU it may use: its CPU limit on a cluster, the size of its CPU set locally; both are
     *     the same input to the check, so the same figures give the same words in both modes
     * @param throttledRatio the share of its CFS periods it was throttled in (only with a limit)
     * @param sharedCpusBusy the average busy share of the CPUs it shares with other processes, by all of them
     * @param sharedWith who it shares those CPUs with, e.g. "the delay service and PostgreSQL ([1])"
     */
    public record Generator(
            String name,
            Double usedCores,
            Double allowedCores,
            Double throttledRatio,
            Double sharedCpusBusy,
            String sharedWith) {

        /** A cluster runner pod as the kubelets measured it. */
        public static Generator runnerPod(PodResources pod) {
            return new Generator(
                    pod.getPod(), pod.getAvgCpuCores(), pod.getCpuLimitCores(), pod.getCpuThrottledRatio(), null, null);
        }

        /** A local k6 process pinned to {@code cpus} CPUs, which it shares with the processes {@code sharedWith}. */
        public static Generator localProcess(double usedCores, int cpus, double sharedCpusBusy, String sharedWith) {
            return new Generator(
                    "k6",
                    usedCores,
                    (double) cpus,
                    null,
                    Double.isNaN(sharedCpusBusy) ? null : sharedCpusBusy,
                    sharedWith);
        }

        boolean measured() {
            return usedCores != null && !Double.isNaN(usedCores);
        }
    }

    /**
     * The judgement: a finding when the generator is suspect, and otherwise the sentence saying what showed that it
     * kept up (the GeneratorSaturated condition's message).
     */
    public record Judgement(Optional<Finding> finding, String keptUpDescription) {}

    private GeneratorCheck() {}

    /** The runner pods among a cluster run's pod figures (role runner). */
    public static List<Generator> runnerPods(List<PodResources> pods) {
        return pods.stream()
                .filter(pod -> "runner".equals(pod.getRole()))
                .map(Generator::runnerPod)
                .toList();
    }

    /** The finding alone; see {@link #judge}. */
    public static Optional<Finding> check(List<Generator> generators, long droppedIterations) {
        return judge(generators, droppedIterations, List.of()).finding();
    }

    /**
     * Judges the generators over the measured window.
     *
     * @param unmeasured why some generators' CPU could not be read, for the message when they seem to have kept up
     */
    public static Judgement judge(List<Generator> generators, long droppedIterations, List<String> unmeasured) {
        List<String> saturated = new ArrayList<>();
        List<String> throttled = new ArrayList<>();
        boolean ownCpu = false;
        for (Generator generator : generators) {
            if (generator.measured()
                    && generator.allowedCores() != null
                    && generator.allowedCores() > 0
                    && generator.usedCores() >= CPU_SHARE_ALARM * generator.allowedCores()) {
                ownCpu = true;
                saturated.add(String.format(
                        Locale.ROOT,
                        "%s used %.2f of the %.2f CPU it may use (%.0f%%)",
                        generator.name(),
                        generator.usedCores(),
                        generator.allowedCores(),
                        100 * generator.usedCores() / generator.allowedCores()));
            } else if (generator.sharedCpusBusy() != null && generator.sharedCpusBusy() >= SHARED_CPUS_BUSY_ALARM) {
                saturated.add(String.format(
                        Locale.ROOT,
                        "the CPUs %s shares with %s were %.0f%% busy, %s itself using %.2f CPU",
                        generator.name(),
                        generator.sharedWith(),
                        100 * generator.sharedCpusBusy(),
                        generator.name(),
                        generator.measured() ? generator.usedCores() : Double.NaN));
            }
            if (generator.throttledRatio() != null && generator.throttledRatio() >= THROTTLED_ALARM) {
                throttled.add(String.format(
                        Locale.ROOT,
                        "%s was throttled in %.1f%% of its CPU periods",
                        generator.name(),
                        100 * generator.throttledRatio()));
            }
        }
        List<String> facts = new ArrayList<>(saturated);
        facts.addAll(throttled);
        if (droppedIterations > 0) {
            facts.add(droppedIterations + " iterations dropped");
        }
        if (facts.isEmpty()) {
            return new Judgement(Optional.empty(), keptUp(generators, unmeasured));
        }
        String reason = !saturated.isEmpty()
                ? RUNNER_CPU_SATURATED
                : !throttled.isEmpty() ? RUNNER_THROTTLED : ITERATIONS_DROPPED;
        String consequence = saturated.isEmpty() && throttled.isEmpty()
                ? "the target got a lower load than requested (k6 ran out of VUs while responses were slow, or could"
                        + " not start iterations in time): raise spec.workload.load.vus, or give k6 more CPU"
                : "this result measures the load generator, not the target: give k6 more CPU"
                        + " (spec.workload.runnerResources.cpu or spec.workload.parallelism on a cluster, a machine"
                        + " with more CPUs locally) or lower the load";
        return new Judgement(
                Optional.of(new Finding(
                        reason,
                        FINDING_PREFIX + " (" + String.join(", ", facts) + "): " + consequence,
                        !saturated.isEmpty() && !ownCpu && throttled.isEmpty())),
                null);
    }

    private static String keptUp(List<Generator> generators, List<String> unmeasured) {
        List<Generator> measured =
                generators.stream().filter(Generator::measured).toList();
        if (measured.isEmpty()) {
            return "no iterations dropped; the load generator's CPU could not be read"
                    + (unmeasured.isEmpty() ? "" : " (" + String.join("; ", unmeasured) + ")");
        }
        double used = measured.stream().mapToDouble(Generator::usedCores).sum();
        boolean limited = measured.stream().anyMatch(g -> g.throttledRatio() != null);
        return String.format(
                Locale.ROOT,
                "k6 kept up: no iterations dropped, %s used %.2f CPU, below %.0f%% of what %s may use%s",
                measured.size() == 1 ? measured.getFirst().name() : measured.size() + " runners",
                used,
                100 * CPU_SHARE_ALARM,
                measured.size() == 1 ? "it" : "each",
                limited
                        ? String.format(
                                Locale.ROOT, ", throttled in under %.0f%% of its periods", 100 * THROTTLED_ALARM)
                        : "");
    }
}
