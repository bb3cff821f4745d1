package dev.stackbench.stats;

import dev.stackbench.api.status.CapacityLimit;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.results.HostSteal;
import dev.stackbench.stats.RepetitionStatistics.Shift;
import dev.stackbench.stats.RepetitionStatistics.Spread;
import dev.stackbench.stats.RepetitionStatistics.Verdict;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Turns the repetitions of a comparison into its tables: per variant and metric the median, its interval and the
 * CV over the valid runs; per contender and metric the shift against the baseline (the first variant) and a verdict.
 * A run that failed has no figures; a run whose load generator could not keep up (dropped iterations, a saturated
 * runner) measured the generator, so it is left out unless the comparison asks to include such runs, and a warning
 * names it either way.
 */
public final class ComparisonAnalysis {

    /** The fewest valid runs per variant for a rank test worth reporting. */
    public static final int MIN_RUNS = 3;

    private ComparisonAnalysis() {}

    /**
     * One run of the comparison.
     *
     * @param round from 0
     * @param figures its figures by metric; null when it failed
     * @param droppedIterations iterations its load generator could not start in time
     * @param generatorSaturated whether its GeneratorSaturated condition was True
     * @param failure why it failed, when it did
     * @param capacityLimit what ended its capacity search; null when it made none
     */
    public record Repetition(
            String variant,
            int round,
            String run,
            Map<ComparisonMetric, Double> figures,
            long droppedIterations,
            boolean generatorSaturated,
            String failure,
            CapacityLimit capacityLimit,
            Double hostSteal) {

        /** A repetition from a run's summary (null when it failed). */
        public static Repetition of(
                String variant, int round, String run, RunSummary summary, boolean generatorSaturated, String failure) {
            Map<ComparisonMetric, Double> figures = null;
            if (summary != null) {
                figures = new EnumMap<>(ComparisonMetric.class);
                for (ComparisonMetric metric : ComparisonMetric.values()) {
                    Optional<Double> value = metric.of(summary);
                    if (value.isPresent()) {
                        figures.put(metric, value.get());
                    }
                }
            }
            long dropped =
                    summary == null || summary.getDroppedIterations() == null ? 0 : summary.getDroppedIterations();
            return new Repetition(
                    variant,
                    round,
                    run,
                    figures,
                    dropped,
                    generatorSaturated,
                    failure,
                    null,
                    summary == null ? null : summary.getHostSteal());
        }

        /**
         * Why the run's figures do not describe the target under the spec's load on the spec's CPUs, if they do not:
         * its load generator fell behind, or the machine's host took its CPU.
         */
        public Optional<String> flag() {
            if (generatorSaturated) {
                return Optional.of("its load generator was saturated, so it did not get the load the spec asked for");
            }
            if (droppedIterations > 0) {
                return Optional.of(
                        droppedIterations + " iterations dropped, so it did not get the load the spec asked for");
            }
            if (HostSteal.doubts(hostSteal)) {
                return Optional.of(HostSteal.reason(hostSteal));
            }
            return Optional.empty();
        }
    }

    public record VariantResult(String variant, int runs, int validRuns, Map<ComparisonMetric, Spread> spreads) {}

    public record ContenderResult(String contender, Map<ComparisonMetric, Shift> shifts) {}

    public record Result(
            String baseline,
            List<VariantResult> variants,
            List<ContenderResult> contenders,
            List<String> warnings,
            String verdict,
            String verdictWithFlaggedRuns) {}

    public static Result analyse(
            List<String> variants,
            List<Repetition> repetitions,
            List<ComparisonMetric> metrics,
            double confidence,
            boolean includeFlagged) {
        if (variants.size() < 2) {
            throw new IllegalArgumentException("a comparison needs two or more variants");
        }
        List<String> warnings = new ArrayList<>();
        Map<String, List<Map<ComparisonMetric, Double>>> valid = new LinkedHashMap<>();
        Map<String, Integer> runs = new LinkedHashMap<>();
        List<Repetition> counted = new ArrayList<>();
        variants.forEach(variant -> {
            valid.put(variant, new ArrayList<>());
            runs.put(variant, 0);
        });
        for (Repetition repetition : repetitions) {
            if (!valid.containsKey(repetition.variant())) {
                throw new IllegalArgumentException("run " + repetition.run() + " belongs to variant "
                        + repetition.variant() + ", which the comparison does not have");
            }
            runs.merge(repetition.variant(), 1, Integer::sum);
            String which = "run " + repetition.run() + " (" + repetition.variant() + ", round "
                    + (repetition.round() + 1) + ")";
            if (repetition.figures() == null) {
                warnings.add(which + " failed and is left out: "
                        + (repetition.failure() == null ? "no results" : repetition.failure()));
                continue;
            }
            Optional<String> flag = repetition.flag();
            if (flag.isPresent() && !includeFlagged) {
                warnings.add(which + " is left out: " + flag.get() + " (set includeFlaggedRuns to count such runs)");
                continue;
            }
            if (flag.isPresent()) {
                warnings.add(which + " is counted although " + flag.get() + " (includeFlaggedRuns)");
            }
            valid.get(repetition.variant()).add(repetition.figures());
            counted.add(repetition);
        }

        List<VariantResult> variantResults = new ArrayList<>();
        for (String variant : variants) {
            Map<ComparisonMetric, Spread> spreads = new LinkedHashMap<>();
            for (ComparisonMetric metric : metrics) {
                double[] values = values(valid.get(variant), metric);
                if (values.length > 0) {
                    Spread spread = RepetitionStatistics.spread(values, confidence);
                    spreads.put(metric, spread);
                    if (spread.lower() == null && metric == metrics.getFirst()) {
                        warnings.add(variant + " has " + values.length + " valid runs: too few for a "
                                + percent(confidence) + " confidence interval of its median (at least 6 are needed"
                                + " at 95 %)");
                    }
                }
            }
            variantResults.add(new VariantResult(
                    variant, runs.get(variant), valid.get(variant).size(), spreads));
        }
        if (metrics.contains(ComparisonMetric.CAPACITY)) {
            warnings.addAll(boundedCapacities(variants, counted));
        }

        String baseline = variants.getFirst();
        List<ContenderResult> contenders = new ArrayList<>();
        List<String> verdicts = new ArrayList<>();
        for (String contender : variants.subList(1, variants.size())) {
            Map<ComparisonMetric, Shift> shifts = new LinkedHashMap<>();
            for (ComparisonMetric metric : metrics) {
                double[] base = values(valid.get(baseline), metric);
                double[] other = values(valid.get(contender), metric);
                if (base.length < MIN_RUNS || other.length < MIN_RUNS) {
                    if (metric == metrics.getFirst()) {
                        warnings.add(contender + " against " + baseline + ": " + other.length + " and " + base.length
                                + " valid runs of " + metric + "; a comparison needs " + MIN_RUNS + " of each");
                    }
                    continue;
                }
                shifts.put(metric, RepetitionStatistics.shift(other, base, confidence, metric.direction()));
            }
            int baseRuns = valid.get(baseline).size();
            int contenderRuns = valid.get(contender).size();
            if (baseRuns >= MIN_RUNS && contenderRuns >= MIN_RUNS) {
                double smallest = RepetitionStatistics.smallestPValue(contenderRuns, baseRuns);
                if (smallest > 1 - confidence) {
                    warnings.add(String.format(
                            Locale.ROOT,
                            "%s against %s: with %d and %d valid runs the smallest p-value the rank test can give is"
                                    + " %.3f, so no difference can be significant at %s: run more repetitions (4 of"
                                    + " each at least at 95 %%)",
                            contender,
                            baseline,
                            contenderRuns,
                            baseRuns,
                            smallest,
                            percent(confidence)));
                }
            }
            contenders.add(new ContenderResult(contender, shifts));
            ComparisonMetric headline = metrics.getFirst();
            Shift shift = shifts.get(headline);
            Spread baseSpread = variantResults.getFirst().spreads().get(headline);
            verdicts.add(headline(contender, headline, shift, baseSpread));
        }
        String verdict = String.join("; ", verdicts);
        String withFlagged = null;
        long leftOut = repetitions.stream()
                .filter(repetition ->
                        repetition.figures() != null && repetition.flag().isPresent())
                .count();
        if (!includeFlagged && leftOut > 0) {
            // What the verdict would be with them: a reader must see whether leaving them out decided it.
            withFlagged =
                    analyse(variants, repetitions, metrics, confidence, true).verdict();
            warnings.add(
                    withFlagged.equals(verdict)
                            ? "counting the " + leftOut + " flagged runs left out would give the same verdict"
                            : "counting the " + leftOut + " flagged runs left out (includeFlaggedRuns) would change the"
                                    + " verdict to: " + withFlagged);
        }
        return new Result(baseline, variantResults, contenders, warnings, verdict, withFlagged);
    }

    /**
     * A warning per variant whose counted capacity searches ended without finding the capacity: at capacity.to or at
     * the load generator's limit (the figure is a lower bound), or at capacity.from (an upper bound). Their medians and
     * differences are then bounds, not measurements.
     */
    private static List<String> boundedCapacities(List<String> variants, List<Repetition> counted) {
        List<String> warnings = new ArrayList<>();
        for (String variant : variants) {
            Map<CapacityLimit, Integer> ended = new EnumMap<>(CapacityLimit.class);
            int runs = 0;
            for (Repetition repetition : counted) {
                if (!repetition.variant().equals(variant)) {
                    continue;
                }
                runs++;
                if (repetition.capacityLimit() != null && repetition.capacityLimit() != CapacityLimit.Target) {
                    ended.merge(repetition.capacityLimit(), 1, Integer::sum);
                }
            }
            int lower = ended.getOrDefault(CapacityLimit.Range, 0) + ended.getOrDefault(CapacityLimit.Generator, 0);
            if (lower > 0) {
                warnings.add(String.format(
                        Locale.ROOT,
                        "%s: %d of %d capacity searches ended %s, so their capacity is a lower bound and so is any"
                                + " difference that puts %s ahead: %s",
                        variant,
                        lower,
                        runs,
                        ended.containsKey(CapacityLimit.Generator) && ended.containsKey(CapacityLimit.Range)
                                ? "at capacity.to or where the load generator could not deliver the rate"
                                : ended.containsKey(CapacityLimit.Generator)
                                        ? "where the load generator could not deliver the rate"
                                        : "with the objective still met at capacity.to",
                        variant,
                        ended.containsKey(CapacityLimit.Generator)
                                ? "a load generator with more CPU (or more runners) measures it"
                                : "raise capacity.to to measure it"));
            }
            int floor = ended.getOrDefault(CapacityLimit.Floor, 0);
            if (floor > 0) {
                warnings.add(String.format(
                        Locale.ROOT,
                        "%s: %d of %d capacity searches broke the objective already at capacity.from, so their"
                                + " capacity is an upper bound: lower capacity.from to measure it",
                        variant,
                        floor,
                        runs));
            }
        }
        return warnings;
    }

    /**
     * One contender's headline, e.g. {@code webflux-r2dbc rps +92% [88,95]} (the shift and its interval relative to
     * the baseline's median), or {@code ... rps ~ (p=0.41)} when the difference is not significant ({@code ~ (the same in
     * every run)} when there is no spread to test).
     */
    static String headline(String contender, ComparisonMetric metric, Shift shift, Spread baseline) {
        if (shift == null) {
            return contender + " " + metric + " ? (too few valid runs)";
        }
        if (Double.isNaN(shift.pValue())) {
            // Every run of both variants gave the same figure (a rate at its offered value): nothing to test.
            return contender + " " + metric + " ~ (the same in every run)";
        }
        if (shift.verdict() == Verdict.NO_SIGNIFICANT_DIFFERENCE || baseline == null || baseline.median() == 0) {
            return String.format(Locale.ROOT, "%s %s ~ (p=%.2g)", contender, metric, shift.pValue());
        }
        double scale = 100 / baseline.median();
        return String.format(
                Locale.ROOT,
                "%s %s %+.0f%% [%.0f,%.0f]",
                contender,
                metric,
                shift.shift() * scale,
                shift.lower() * scale,
                shift.upper() * scale);
    }

    private static double[] values(List<Map<ComparisonMetric, Double>> runs, ComparisonMetric metric) {
        return runs.stream()
                .map(figures -> figures.get(metric))
                .filter(java.util.Objects::nonNull)
                .filter(Double::isFinite)
                .mapToDouble(Double::doubleValue)
                .toArray();
    }

    private static String percent(double confidence) {
        return String.format(Locale.ROOT, "%.0f %%", confidence * 100);
    }
}
