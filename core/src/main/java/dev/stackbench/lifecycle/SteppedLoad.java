package dev.stackbench.lifecycle;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.Durations;
import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.run.CapacityObjective;
import dev.stackbench.api.run.CapacitySpec;
import dev.stackbench.api.run.Executor;
import dev.stackbench.api.run.LoadSpec;
import dev.stackbench.api.run.WorkloadSpec;
import dev.stackbench.api.status.CapacityLimit;
import dev.stackbench.api.status.CapacityProbe;
import dev.stackbench.api.status.CapacityResult;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.api.status.StepOutcome;
import dev.stackbench.api.status.StepResult;
import dev.stackbench.api.status.ThresholdResult;
import dev.stackbench.k6.ThresholdCheck;
import dev.stackbench.results.GeneratorCheck;
import dev.stackbench.results.HostSteal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The steps of a sweep or a capacity search, shared by local mode and the operator: which load level comes next
 * given the steps already measured, what each step's figures make of it (passed, failed, broken, or limited by the
 * generator), and which step the run's summary keeps. Everything here is a function of the spec and the steps so
 * far, so the operator can decide the next step again from the status alone after a restart.
 *
 * <p>A capacity search doubles the rate from {@code from} while the objective holds (up to {@code to}), then bisects
 * geometrically between the highest passing rate and the lowest failing one until they are within the resolution
 * of each other: the capacity reported is the passing rate, so the true knee lies in {@code [rate, rate × (1 +
 * resolution))}.
 */
public final class SteppedLoad {

    /** A step errs on more than this share of its requests: the stack has broken, whatever the thresholds say. */
    public static final double BROKEN_ERROR_RATE = 0.10;
    /** A threshold missed by more than this factor of its limit counts as broken, not merely failed. */
    public static final double BROKEN_THRESHOLD_FACTOR = 1.5;
    /** More than this share of a probe's iterations dropped means the probe did not offer its rate. */
    public static final double DROPPED_SHARE = 0.01;
    /** The growth factor of a capacity search before the objective first breaks. */
    public static final int GROWTH = 2;

    public static final String SWEEP_COMPLETE = "SweepComplete";
    public static final String SWEEP_STOPPED = "SweepStopped";
    public static final String GENERATOR_LIMITED = "GeneratorLimited";
    public static final String CAPACITY_FOUND = "CapacityFound";

    /** What to do after the steps so far. */
    public sealed interface Next permits Step, Done {}

    /** Run one more step at this level. */
    public record Step(int level) implements Next {}

    /**
     * No more steps: why, in a CamelCase reason and a sentence, and for a capacity search what it found.
     *
     * @param capacity null for a sweep
     */
    public record Done(String reason, String message, CapacityResult capacity) implements Next {}

    private SteppedLoad() {}

    /** The next step of a sweep or a capacity search, from the steps measured so far (in the order they ran). */
    public static Next next(WorkloadSpec workload, List<StepResult> done) {
        if (workload.getCapacity() != null) {
            return nextProbe(workload.getCapacity(), done);
        }
        if (workload.getSweep() == null) {
            throw new IllegalArgumentException("the workload has neither a sweep nor a capacity search");
        }
        return nextSweepStep(workload, done);
    }

    private static Next nextSweepStep(WorkloadSpec workload, List<StepResult> done) {
        List<Integer> levels = workload.getSweep();
        String unit = unit(workload);
        if (!done.isEmpty() && !Boolean.TRUE.equals(workload.getContinueAfterBreak())) {
            StepResult last = done.get(done.size() - 1);
            int left = levels.size() - done.size();
            String skipped = left == 0
                    ? ""
                    : "; the " + (left == 1 ? "higher level was" : left + " higher levels were")
                            + " not run (continueAfterBreak: true runs them)";
            if (last.getOutcome() == StepOutcome.Broken) {
                return new Done(
                        SWEEP_STOPPED,
                        "step " + last.getStep() + " (" + last.getLevel() + " " + unit + ") broke the stack: "
                                + last.getReason() + skipped,
                        null);
            }
            if (last.getOutcome() == StepOutcome.GeneratorLimited) {
                return new Done(
                        GENERATOR_LIMITED,
                        "the load generator, not the target, was the limit at step " + last.getStep() + " ("
                                + last.getLevel() + " " + unit + "): " + last.getReason() + skipped,
                        null);
            }
        }
        if (done.size() >= levels.size()) {
            long passed = done.stream()
                    .filter(step -> step.getOutcome() == StepOutcome.Passed)
                    .count();
            return new Done(
                    SWEEP_COMPLETE,
                    "all " + levels.size() + " steps ran (" + levels.get(0) + " to " + levels.get(levels.size() - 1)
                            + " " + unit + "); " + passed + " met the thresholds",
                    null);
        }
        return new Step(levels.get(done.size()));
    }

    private static Next nextProbe(CapacitySpec capacity, List<StepResult> done) {
        if (done.isEmpty()) {
            return new Step(capacity.getFrom());
        }
        StepResult last = done.get(done.size() - 1);
        Integer lowest = lowestFailing(done);
        Integer highest = highestPassingBelow(done, lowest);
        double resolution = CapacitySpec.resolutionFraction(capacity.getResolution());
        if (last.getOutcome() == StepOutcome.GeneratorLimited) {
            return done(
                    capacity,
                    done,
                    highest,
                    lowest,
                    CapacityLimit.Generator,
                    "the load generator, not the target, was the limit at " + last.getLevel() + " iterations/s ("
                            + last.getReason() + ")"
                            + (highest == null
                                    ? ": no probe met the objective before it"
                                    : ": the capacity is at least " + highest + " iterations/s, the highest rate"
                                            + " that met the objective"));
        }
        if (lowest == null) {
            int next = (int) Math.min((long) capacity.getTo(), (long) highest * GROWTH);
            if (highest >= capacity.getTo()) {
                return done(
                        capacity,
                        done,
                        highest,
                        null,
                        CapacityLimit.Range,
                        "the objective still held at " + highest + " iterations/s, the highest rate capacity.to"
                                + " allows: the capacity is at least that (raise capacity.to to search further)");
            }
            return new Step(next);
        }
        if (highest == null) {
            return done(
                    capacity,
                    done,
                    null,
                    lowest,
                    CapacityLimit.Floor,
                    "the objective broke already at " + lowest + " iterations/s, the lowest rate capacity.from"
                            + " allows (" + reasonAt(done, lowest) + "): lower capacity.from to search below it");
        }
        if (lowest - highest <= Math.max(1.0, resolution * highest)) {
            return done(
                    capacity,
                    done,
                    highest,
                    lowest,
                    CapacityLimit.Target,
                    String.format(
                            Locale.ROOT,
                            "capacity %d iterations/s: the objective held there and broke at %d (%s), %.1f%% higher,"
                                    + " within the asked resolution of %s",
                            highest,
                            lowest,
                            reasonAt(done, lowest),
                            100.0 * (lowest - highest) / highest,
                            capacity.getResolution()));
        }
        long middle = Math.round(Math.sqrt((double) highest * lowest));
        middle = Math.max(highest + 1, Math.min(lowest - 1, middle));
        return new Step((int) middle);
    }

    /** The lowest rate whose probe missed the objective, or null. */
    private static Integer lowestFailing(List<StepResult> done) {
        return done.stream()
                .filter(step -> step.getOutcome() == StepOutcome.Failed || step.getOutcome() == StepOutcome.Broken)
                .map(StepResult::getLevel)
                .min(Comparator.naturalOrder())
                .orElse(null);
    }

    /** The highest rate below {@code ceiling} (any, when null) whose probe met the objective, or null. */
    private static Integer highestPassingBelow(List<StepResult> done, Integer ceiling) {
        return done.stream()
                .filter(step -> step.getOutcome() == StepOutcome.Passed)
                .map(StepResult::getLevel)
                .filter(level -> ceiling == null || level < ceiling)
                .max(Comparator.naturalOrder())
                .orElse(null);
    }

    private static String reasonAt(List<StepResult> done, int level) {
        return done.stream()
                .filter(step -> step.getLevel() == level && step.getOutcome() != StepOutcome.Passed)
                .map(StepResult::getReason)
                .findFirst()
                .orElse("missed the objective");
    }

    private static Done done(
            CapacitySpec capacity,
            List<StepResult> steps,
            Integer highest,
            Integer lowest,
            CapacityLimit limit,
            String message) {
        List<CapacityProbe> probes = new ArrayList<>();
        for (StepResult step : steps) {
            probes.add(new CapacityProbe()
                    .withRate(step.getLevel())
                    .withOutcome(step.getOutcome())
                    .withRps(step.getRps())
                    .withP95Ms(step.getP95Ms())
                    .withErrorRate(step.getErrorRate()));
        }
        String said = message + stolenProbes(steps);
        CapacityResult result = new CapacityResult()
                .withRate(highest)
                .withLowerBound(highest)
                .withUpperBound(lowest)
                .withLimitedBy(limit)
                .withMessage(said)
                .withProbes(probes);
        return new Done(limit == CapacityLimit.Generator ? GENERATOR_LIMITED : CAPACITY_FOUND, said, result);
    }

    /**
     * What the probes that did not pass lost to the machine's host, when any lost more than {@link HostSteal#LIMIT}:
     * such a probe may have failed for want of the CPU the host took, so the capacity found may be too low.
     */
    private static String stolenProbes(List<StepResult> steps) {
        List<String> stolen = steps.stream()
                .filter(step -> step.getOutcome() != StepOutcome.Passed && HostSteal.doubts(step.getHostSteal()))
                .map(step -> String.format(
                        Locale.ROOT,
                        "%.1f %% of its CPU time during the probe at %d iterations/s",
                        100 * step.getHostSteal(),
                        step.getLevel()))
                .toList();
        return stolen.isEmpty()
                ? ""
                : "; the machine's host took " + String.join(", ", stolen) + " (steal), so the capacity may be higher"
                        + " than found: search again when the host is quiet";
    }

    /**
     * The most steps the run can take: the sweep's levels, or for a capacity search the doublings from {@code from}
     * to {@code to} and the bisections down to the resolution (rounding to whole rates adds at most one).
     */
    public static int maxSteps(WorkloadSpec workload) {
        if (workload.getSweep() != null) {
            return workload.getSweep().size();
        }
        CapacitySpec capacity = workload.getCapacity();
        if (capacity == null) {
            return 1;
        }
        int growth = 1 + (int) Math.ceil(Math.log((double) capacity.getTo() / capacity.getFrom()) / Math.log(GROWTH));
        double resolution = CapacitySpec.resolutionFraction(capacity.getResolution());
        int bisections = (int) Math.ceil(Math.log(Math.log(GROWTH) / Math.log1p(resolution)) / Math.log(2)) + 1;
        return growth + Math.max(0, bisections);
    }

    /** What a level counts in this workload: iterations per second, or VUs for constant-vus. */
    public static String unit(WorkloadSpec workload) {
        return workload.getLoad() != null && workload.getLoad().getExecutor() == Executor.CONSTANT_VUS
                ? "VUs"
                : "iterations/s";
    }

    /**
     * The spec of one step: the run's spec at {@code level}, with the sweep or the search taken out, so the script
     * generator, the validation and the result reading treat it as an ordinary run. A capacity probe's VUs are
     * raised, where the user did not set them, so k6 can hold twice the objective's p95 at the probe's rate: then
     * dropped iterations mean the generator could not keep up, not that every VU waited on a slow answer.
     */
    public static BenchmarkRunSpec specFor(BenchmarkRunSpec spec, int level) {
        BenchmarkRunSpec step;
        try {
            // A real copy: convertValue would hand back the same object, and the run's own spec must stay whole.
            step = BenchmarkRuns.yamlMapper()
                    .treeToValue(BenchmarkRuns.yamlMapper().valueToTree(spec), BenchmarkRunSpec.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot copy a BenchmarkRun spec", e);
        }
        WorkloadSpec workload = step.getWorkload();
        LoadSpec load = workload.getLoad();
        CapacitySpec capacity = workload.getCapacity();
        if (load.getExecutor() == Executor.CONSTANT_VUS) {
            load.setVus(level);
        } else {
            load.setRate(level);
        }
        if (capacity != null && load.getVus() == null && capacity.getObjective().getP95() != null) {
            double p95Seconds =
                    Durations.seconds(Durations.parse(capacity.getObjective().getP95()));
            long vus = (long) Math.ceil(
                    2 * level * p95Seconds * dev.stackbench.k6.K6ScriptGenerator.requestsPerIteration(workload));
            if (vus > dev.stackbench.k6.K6ScriptGenerator.maxVus(step)) {
                load.setVus((int) Math.min(dev.stackbench.api.SpecRules.MAX_VUS, vus));
            }
        }
        workload.setSweep(null);
        workload.setCapacity(null);
        workload.setRestartBetweenSteps(null);
        workload.setContinueAfterBreak(null);
        return step;
    }

    /**
     * What one step's figures come to.
     *
     * @param finding what the generator check found, if anything
     * @param generatorCores the generator's average CPU use during the step, in cores, when measured
     */
    public static StepResult judge(
            WorkloadSpec workload,
            int step,
            int level,
            RunSummary summary,
            Optional<GeneratorCheck.Finding> finding,
            Double generatorCores) {
        StepResult figures = figures(step, level, workload, summary);
        figures.setGeneratorCpuCores(generatorCores);
        StepResult result = outcome(workload, level, summary, finding, figures);
        // A step that fell short while the host took the machine's CPU may have fallen short because of it: its reason
        // says so, so that the end of a sweep or a search that it decides names the doubt too.
        if (result.getOutcome() != StepOutcome.Passed && HostSteal.doubts(result.getHostSteal())) {
            result.setReason(result.getReason() + "; " + HostSteal.reason(result.getHostSteal()));
        }
        return result;
    }

    /** The step's figures with the outcome and the reason they come to. */
    private static StepResult outcome(
            WorkloadSpec workload,
            int level,
            RunSummary summary,
            Optional<GeneratorCheck.Finding> finding,
            StepResult result) {
        Optional<String> generatorLimit = finding.filter(f -> !GeneratorCheck.ITERATIONS_DROPPED.equals(f.reason()))
                .map(GeneratorCheck.Finding::message);
        if (generatorLimit.isPresent()) {
            return result.withOutcome(StepOutcome.GeneratorLimited).withReason(generatorLimit.get());
        }
        if (workload.getCapacity() != null) {
            return judgeProbe(workload, level, summary, result);
        }
        double errorRate = summary.getErrorRate() == null ? 0 : summary.getErrorRate();
        if (errorRate > BROKEN_ERROR_RATE) {
            return result.withOutcome(StepOutcome.Broken)
                    .withReason(String.format(
                            Locale.ROOT,
                            "%.1f%% of its requests failed (more than %.0f%%)",
                            100 * errorRate,
                            100 * BROKEN_ERROR_RATE));
        }
        List<String> badly = new ArrayList<>();
        List<String> missed = new ArrayList<>();
        for (ThresholdResult threshold :
                summary.getThresholdResults() == null ? List.<ThresholdResult>of() : summary.getThresholdResults()) {
            if (!Boolean.FALSE.equals(threshold.getPassed())) {
                continue;
            }
            String text = threshold.getMetric() + " " + threshold.getExpression()
                    + (threshold.getValue() == null
                            ? ""
                            : String.format(Locale.ROOT, " (was %.4g)", threshold.getValue()));
            missed.add(text);
            if (missedBadly(threshold)) {
                badly.add(text);
            }
        }
        if (!badly.isEmpty()) {
            return result.withOutcome(StepOutcome.Broken)
                    .withReason("missed by more than half its limit: " + String.join(", ", badly));
        }
        if (!missed.isEmpty() || Boolean.FALSE.equals(summary.getThresholdsPassed())) {
            return result.withOutcome(StepOutcome.Failed)
                    .withReason(missed.isEmpty() ? "a threshold failed" : "missed: " + String.join(", ", missed));
        }
        return result.withOutcome(StepOutcome.Passed)
                .withReason(
                        summary.getThresholdResults() == null
                                        || summary.getThresholdResults().isEmpty()
                                ? String.format(
                                        Locale.ROOT, "no thresholds; %.1f%% of requests failed", 100 * errorRate)
                                : "every threshold held");
    }

    private static StepResult judgeProbe(WorkloadSpec workload, int level, RunSummary summary, StepResult result) {
        CapacityObjective objective = workload.getCapacity().getObjective();
        List<String> misses = new ArrayList<>();
        List<String> holds = new ArrayList<>();
        Double p95 = result.getP95Ms();
        if (objective.getP95() != null) {
            double limitMs = Durations.parse(objective.getP95()).toNanos() / 1e6;
            String text = String.format(
                    Locale.ROOT,
                    "p95 %.1f ms %s %s",
                    p95 == null ? Double.NaN : p95,
                    p95 != null && p95 <= limitMs ? "<=" : ">",
                    objective.getP95());
            (p95 != null && p95 <= limitMs ? holds : misses).add(text);
        }
        if (objective.getErrorRate() != null) {
            double errorRate = summary.getErrorRate() == null ? 0 : summary.getErrorRate();
            String text = String.format(
                    Locale.ROOT,
                    "error rate %.4f %s %s",
                    errorRate,
                    errorRate <= objective.getErrorRate() ? "<=" : ">",
                    objective.getErrorRate());
            (errorRate <= objective.getErrorRate() ? holds : misses).add(text);
        }
        long dropped = summary.getDroppedIterations() == null ? 0 : summary.getDroppedIterations();
        double seconds = summary.getMeasuredSeconds() == null
                ? Durations.seconds(Durations.parse(workload.getDuration()))
                : summary.getMeasuredSeconds();
        double planned = level * seconds;
        boolean droppedMany = planned > 0 && dropped > DROPPED_SHARE * planned;
        String droppedText = String.format(
                Locale.ROOT,
                "k6 dropped %d of about %.0f iterations (%.1f%%)",
                dropped,
                planned,
                planned > 0 ? 100.0 * dropped / planned : 0.0);
        if (misses.isEmpty() && droppedMany) {
            return result.withOutcome(StepOutcome.GeneratorLimited)
                    .withReason(droppedText + " although the target met the objective (" + String.join(", ", holds)
                            + "): the rate was not offered");
        }
        if (!misses.isEmpty()) {
            return result.withOutcome(StepOutcome.Failed)
                    .withReason(String.join(", ", misses)
                            + (droppedMany ? "; " + droppedText + ", its VUs all waiting on slow answers" : ""));
        }
        return result.withOutcome(StepOutcome.Passed).withReason(String.join(", ", holds));
    }

    private static boolean missedBadly(ThresholdResult threshold) {
        if (threshold.getValue() == null) {
            return false;
        }
        Optional<ThresholdCheck> check = ThresholdCheck.parse(threshold.getExpression());
        if (check.isEmpty()) {
            return false;
        }
        double value = threshold.getValue();
        double limit = check.get().limit();
        return switch (check.get().operator()) {
            case "<", "<=" -> limit > 0 ? value > BROKEN_THRESHOLD_FACTOR * limit : value > 0;
            case ">", ">=" -> limit > 0 && value < limit / BROKEN_THRESHOLD_FACTOR;
            default -> false;
        };
    }

    private static StepResult figures(int step, int level, WorkloadSpec workload, RunSummary summary) {
        StepResult result = new StepResult()
                .withStep(step)
                .withLevel(level)
                .withUnit(unit(workload))
                .withRequests(summary.getRequests())
                .withRps(summary.getRps())
                .withErrorRate(summary.getErrorRate())
                .withDroppedIterations(summary.getDroppedIterations())
                .withThresholdsPassed(summary.getThresholdsPassed())
                .withLittleLawRps(summary.getLittleLawRps())
                .withHostSteal(summary.getHostSteal());
        if (summary.getLatencyMs() != null) {
            result.setP50Ms(summary.getLatencyMs().getP50());
            result.setP95Ms(summary.getLatencyMs().getP95());
            result.setP99Ms(summary.getLatencyMs().getP99());
        }
        if (summary.getIntendedLatencyMs() != null) {
            result.setIntendedP95Ms(summary.getIntendedLatencyMs().getP95());
            result.setIntendedP99Ms(summary.getIntendedLatencyMs().getP99());
            result.setIntendedLowerBound(summary.getIntendedLatencyMs().getLowerBounds() != null
                    && summary.getIntendedLatencyMs().getLowerBounds().contains("p95"));
        }
        if (summary.getTarget() != null) {
            result.setPeakThreads(summary.getTarget().getPeakThreads());
            result.setTargetCpuCores(summary.getTarget().getAvgCpuCores());
        }
        return result;
    }

    /**
     * The step whose summary the run keeps: the highest rps among the steps that passed; when none passed, the
     * step with the highest rps, so the summary is never empty after a measured step.
     */
    public static Optional<StepResult> best(List<StepResult> steps) {
        Comparator<StepResult> byRps = Comparator.comparingDouble(step -> step.getRps() == null ? -1 : step.getRps());
        Optional<StepResult> passed = steps.stream()
                .filter(step -> step.getOutcome() == StepOutcome.Passed)
                .max(byRps);
        return passed.isPresent() ? passed : steps.stream().max(byRps);
    }
}
