package dev.stackbench.comparison;

import dev.stackbench.api.comparison.BenchmarkComparisonSpec;
import dev.stackbench.api.comparison.BenchmarkComparisonStatus;
import dev.stackbench.api.comparison.ComparisonPhase;
import dev.stackbench.api.comparison.ComparisonRunRecord;
import dev.stackbench.api.comparison.ContenderStatistics;
import dev.stackbench.api.comparison.MetricShift;
import dev.stackbench.api.comparison.MetricSpread;
import dev.stackbench.api.comparison.VariantStatistics;
import dev.stackbench.api.status.BenchmarkRunStatus;
import dev.stackbench.api.status.Conditions;
import dev.stackbench.api.status.Phase;
import dev.stackbench.results.GeneratorCheck;
import dev.stackbench.stats.ComparisonAnalysis;
import dev.stackbench.stats.ComparisonMetric;
import dev.stackbench.stats.RepetitionStatistics.Shift;
import dev.stackbench.stats.RepetitionStatistics.Spread;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A comparison's results as its status holds them: each finished run's figures are copied into the status when it
 * ends (so deleting or cleaning up a run loses nothing, and an operator restart re-reads them), and once every run
 * has ended the statistics over those records fill the per-variant tables, the verdicts and the warnings. Nothing is
 * concluded before the last run: looking at a verdict part-way and stopping when it suits would make chance
 * differences look significant.
 */
public final class ComparisonResults {

    private ComparisonResults() {}

    /**
     * The status of a comparison that starts now: Running, with its seed, its variants, the number of runs planned
     * and what its repetitions share. The spec has its defaults.
     */
    public static BenchmarkComparisonStatus start(BenchmarkComparisonSpec spec, long seed, String shared, Instant now) {
        List<String> labels = ComparisonRuns.labels(spec);
        BenchmarkComparisonStatus status = new BenchmarkComparisonStatus();
        status.setPhase(ComparisonPhase.Running);
        status.setSeed(seed);
        status.setBaseline(labels.getFirst());
        status.setVariantNames(String.join(", ", labels));
        status.setRunsPlanned(labels.size() * spec.getRepetitions());
        status.setShared(shared);
        status.setStartedAt(now.toString());
        status.setRuns(new ArrayList<>());
        status.setWarnings(ComparisonRuns.warnings(spec));
        counted(status);
        return status;
    }

    /**
     * Puts a run's record into the status, replacing the record of the same run, and counts the runs that ended.
     */
    public static void put(BenchmarkComparisonStatus status, ComparisonRunRecord record) {
        List<ComparisonRunRecord> runs =
                status.getRuns() == null ? new ArrayList<>() : new ArrayList<>(status.getRuns());
        int at = -1;
        for (int i = 0; i < runs.size() && at < 0; i++) {
            if (runs.get(i).getName().equals(record.getName())) {
                at = i;
            }
        }
        if (at < 0) {
            runs.add(record);
        } else {
            runs.set(at, record);
        }
        status.setRuns(runs);
        counted(status);
    }

    /** The record of a run in the status, if it has one. */
    public static java.util.Optional<ComparisonRunRecord> find(BenchmarkComparisonStatus status, String run) {
        return status.getRuns() == null
                ? java.util.Optional.empty()
                : status.getRuns().stream()
                        .filter(record -> record.getName().equals(run))
                        .findFirst();
    }

    /** True when the record is of a run that ended (succeeded or failed). */
    public static boolean ended(ComparisonRunRecord record) {
        return record.getPhase() != null && record.getPhase().isTerminal();
    }

    private static void counted(BenchmarkComparisonStatus status) {
        int done = status.getRuns() == null
                ? 0
                : (int) status.getRuns().stream()
                        .filter(ComparisonResults::ended)
                        .count();
        status.setRunsDone(done);
        status.setProgress(done + "/" + status.getRunsPlanned() + " runs");
    }

    /** What the comparison keeps of a run that ended (or, with no status yet, of one that is running). */
    public static ComparisonRunRecord record(String run, String label, int round, BenchmarkRunStatus status) {
        ComparisonRunRecord record = new ComparisonRunRecord();
        record.setName(run);
        record.setVariant(label);
        record.setRound(round + 1);
        Phase phase = status == null || status.getPhase() == null ? Phase.Pending : status.getPhase();
        record.setPhase(phase);
        if (phase == Phase.Succeeded && status.getSummary() != null) {
            Map<String, Double> figures = new LinkedHashMap<>();
            for (ComparisonMetric metric : ComparisonMetric.values()) {
                metric.of(status.getSummary()).ifPresent(value -> figures.put(metric.value(), value));
            }
            record.setFigures(figures);
            record.setDroppedIterations(status.getSummary().getDroppedIterations());
            record.setHostSteal(status.getSummary().getHostSteal());
            if (status.getCapacity() != null) {
                record.setCapacityLimit(status.getCapacity().getLimitedBy());
            }
            // Saturated means the runner's CPU (or its throttling) limited it; dropped iterations alone are
            // counted in droppedIterations, since k6 also drops them when its VUs wait on a saturated target.
            record.setGeneratorSaturated(status.getConditions() != null
                    && Conditions.find(status.getConditions(), Conditions.GENERATOR_SATURATED)
                            .filter(condition -> "True".equals(condition.getStatus()))
                            .filter(condition -> !GeneratorCheck.ITERATIONS_DROPPED.equals(condition.getReason()))
                            .isPresent());
        } else if (phase == Phase.Failed) {
            record.setMessage(status.getMessage() == null ? "failed" : status.getMessage());
        }
        return record;
    }

    /** A record back as the statistics read it. */
    static ComparisonAnalysis.Repetition repetition(ComparisonRunRecord record) {
        Map<ComparisonMetric, Double> figures = null;
        if (record.getPhase() == Phase.Succeeded && record.getFigures() != null) {
            figures = new EnumMap<>(ComparisonMetric.class);
            for (Map.Entry<String, Double> figure : record.getFigures().entrySet()) {
                if (figure.getValue() != null) {
                    figures.put(ComparisonMetric.fromValue(figure.getKey()), figure.getValue());
                }
            }
        }
        return new ComparisonAnalysis.Repetition(
                record.getVariant(),
                record.getRound() - 1,
                record.getName(),
                figures,
                record.getDroppedIterations() == null ? 0 : record.getDroppedIterations(),
                Boolean.TRUE.equals(record.getGeneratorSaturated()),
                record.getPhase() == Phase.Succeeded ? null : record.getMessage(),
                record.getCapacityLimit(),
                record.getHostSteal());
    }

    /** The metrics of a spec with its defaults, in spec order. */
    public static List<ComparisonMetric> metrics(BenchmarkComparisonSpec spec) {
        return spec.getMetrics().stream().map(ComparisonMetric::fromValue).toList();
    }

    /**
     * Writes the statistics of every run the status records (all of them ended) into the status: per variant the
     * spreads, per contender the shifts, the verdict and the warnings, and the phase: Succeeded, or Failed when a
     * variant has too few valid runs to be compared. The spec has its defaults.
     */
    public static void conclude(BenchmarkComparisonSpec spec, BenchmarkComparisonStatus status) {
        List<String> labels = ComparisonRuns.labels(spec);
        List<ComparisonMetric> metrics = metrics(spec);
        List<ComparisonAnalysis.Repetition> repetitions =
                status.getRuns().stream().map(ComparisonResults::repetition).toList();
        boolean includeFlagged = Boolean.TRUE.equals(spec.getIncludeFlaggedRuns());
        for (ComparisonRunRecord record : status.getRuns()) {
            ComparisonAnalysis.Repetition repetition = repetition(record);
            record.setCounted(repetition.figures() != null
                    && (includeFlagged || repetition.flag().isEmpty()));
        }
        ComparisonAnalysis.Result result = ComparisonAnalysis.analyse(
                labels, repetitions, metrics, spec.getConfidence(), Boolean.TRUE.equals(spec.getIncludeFlaggedRuns()));

        List<VariantStatistics> variants = new ArrayList<>();
        for (int i = 0; i < result.variants().size(); i++) {
            ComparisonAnalysis.VariantResult variant = result.variants().get(i);
            VariantStatistics statistics = new VariantStatistics();
            statistics.setName(variant.variant());
            statistics.setVariant(spec.getVariants().get(i).getVariant());
            statistics.setRuns(variant.runs());
            statistics.setValidRuns(variant.validRuns());
            List<MetricSpread> spreads = new ArrayList<>();
            variant.spreads().forEach((metric, spread) -> spreads.add(spread(metric, spread)));
            statistics.setMetrics(spreads);
            variants.add(statistics);
        }
        List<ContenderStatistics> contenders = new ArrayList<>();
        for (ComparisonAnalysis.ContenderResult contender : result.contenders()) {
            ContenderStatistics statistics = new ContenderStatistics();
            statistics.setName(contender.contender());
            List<MetricShift> shifts = new ArrayList<>();
            contender.shifts().forEach((metric, shift) -> shifts.add(shift(metric, shift)));
            statistics.setMetrics(shifts);
            contenders.add(statistics);
        }
        counted(status);
        List<String> warnings =
                new ArrayList<>(status.getWarnings() == null ? ComparisonRuns.warnings(spec) : status.getWarnings());
        warnings.addAll(result.warnings());
        status.setVariants(variants);
        status.setContenders(contenders);
        status.setWarnings(warnings);
        status.setVerdict(result.verdict());
        status.setVerdictWithFlaggedRuns(result.verdictWithFlaggedRuns());
        List<String> tooFew = variants.stream()
                .filter(variant -> variant.getValidRuns() < ComparisonAnalysis.MIN_RUNS)
                .map(variant -> variant.getName() + " (" + variant.getValidRuns() + " of " + variant.getRuns() + ")")
                .toList();
        if (tooFew.isEmpty()) {
            status.setPhase(ComparisonPhase.Succeeded);
            status.setMessage("every run ended; " + result.verdict());
        } else {
            status.setPhase(ComparisonPhase.Failed);
            status.setMessage("too few valid runs to compare: " + String.join(", ", tooFew) + "; at least "
                    + ComparisonAnalysis.MIN_RUNS + " of each variant must succeed without a saturated load"
                    + " generator (see warnings and the runs' messages)");
        }
    }

    private static MetricSpread spread(ComparisonMetric metric, Spread spread) {
        MetricSpread result = new MetricSpread();
        result.setMetric(metric.value());
        result.setN(spread.n());
        result.setMedian(finite(spread.median()));
        result.setLower(spread.lower());
        result.setUpper(spread.upper());
        result.setAchievedConfidence(spread.achievedConfidence());
        result.setCv(finite(spread.cv()));
        return result;
    }

    private static MetricShift shift(ComparisonMetric metric, Shift shift) {
        MetricShift result = new MetricShift();
        result.setMetric(metric.value());
        result.setRelativeDifference(finite(shift.relativeDifference()));
        result.setShift(finite(shift.shift()));
        result.setLower(shift.lower());
        result.setUpper(shift.upper());
        result.setPValue(finite(shift.pValue()));
        result.setTies(shift.ties());
        result.setVerdict(shift.verdict().toString());
        return result;
    }

    /** NaN and infinities cannot be stored in a status: absent instead. */
    private static Double finite(double value) {
        return Double.isFinite(value) ? value : null;
    }
}
