package dev.stackbench.results;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.Quantities;
import dev.stackbench.api.run.BenchmarkRunDefaults;
import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.run.Executor;
import dev.stackbench.api.run.LoadSpec;
import dev.stackbench.api.status.BurstSummary;
import dev.stackbench.api.status.LatencySummary;
import dev.stackbench.api.status.LockSummary;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.api.status.TargetSummary;
import dev.stackbench.api.status.ThresholdResult;
import dev.stackbench.catalogue.LittleLawCap;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.k6.BurstTimes;
import dev.stackbench.k6.K6Env;
import dev.stackbench.k6.LatencyBuckets;
import dev.stackbench.k6.LockCounts;
import dev.stackbench.k6.RunnerSummary;
import dev.stackbench.k6.ThresholdCheck;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * Combines the summaries of every k6 runner of a run into {@code status.summary}: counts are summed, rates use the
 * measured window only, percentiles are exact with one runner and bucket upper bounds with several, thresholds on the
 * standard metrics are checked again on the combined figures, and warnings say when a figure cannot be trusted.
 */
public final class ResultAggregator {

    private static final String DURATION = "http_req_duration";

    private ResultAggregator() {}

    /**
     * @param catalogue for the Little's-law cap; null to leave it out
     * @param target the target's metrics over the measured window; null when none were collected
     */
    public static RunSummary aggregate(
            List<RunnerSummary> runners,
            BenchmarkRunSpec originalSpec,
            VariantCatalogue catalogue,
            TargetSummary target) {
        if (runners.isEmpty()) {
            throw new IllegalArgumentException("no k6 runner summary to aggregate: every runner failed before its"
                    + " summary; check the runner logs");
        }
        BenchmarkRunSpec spec = BenchmarkRunDefaults.apply(
                BenchmarkRuns.yamlMapper().convertValue(originalSpec, BenchmarkRunSpec.class));
        RunSummary summary = new RunSummary().withRunners(runners.size()).withTarget(target);

        double measuredSeconds = runners.stream()
                .mapToDouble(RunnerSummary::measuredSeconds)
                .max()
                .orElse(0);
        long requests = runners.stream().mapToLong(RunnerSummary::requests).sum();
        long failed = runners.stream().mapToLong(RunnerSummary::failedRequests).sum();
        long iterations = runners.stream().mapToLong(RunnerSummary::iterations).sum();
        long dropped =
                runners.stream().mapToLong(RunnerSummary::droppedIterations).sum();
        long checksPassed =
                runners.stream().mapToLong(RunnerSummary::checksPassed).sum();
        long checksFailed =
                runners.stream().mapToLong(RunnerSummary::checksFailed).sum();
        summary.setMeasuredSeconds(measuredSeconds);
        summary.setRequests(requests);
        summary.setFailedRequests(failed);
        summary.setIterations(iterations);
        summary.setDroppedIterations(dropped);
        summary.setChecksFailed(checksFailed);
        // Completions inside the window, not measured requests over the window: an overloaded target finishes
        // a backlog during k6's graceful stop, and counting it would report more than the target sustained.
        long completedInWindow = runners.stream()
                .mapToLong(runner -> runner.windowCompletions() >= 0 ? runner.windowCompletions() : runner.requests())
                .sum();
        summary.setRps(measuredSeconds > 0 ? TargetMetrics.round(completedInWindow / measuredSeconds, 2) : 0.0);
        summary.setErrorRate(requests > 0 ? TargetMetrics.round(failed / (double) requests, 6) : 0.0);
        summary.setStatusCodes(statusCodes(runners, requests));
        burst(runners, summary);
        lock(spec, runners, summary);

        MergedLatency merged = new MergedLatency(
                runners.stream().map(RunnerSummary::latencyBuckets).toList());
        summary.setLatencyMs(latency(runners, merged, summary));

        Aggregate aggregate = new Aggregate(runners, merged, summary, checksPassed, checksFailed);
        thresholds(spec.getWorkload().getThresholds(), aggregate, summary);

        Optional<LittleLawCap> cap = littleLawCap(spec, catalogue);
        // status.summary.littleLawRps is the prediction for thread-bound variants (as documented); a database-pool
        // cap of a non-blocking variant still shows up as a warning when the requested rate exceeds it.
        boolean threadBound = cap.isPresent()
                && catalogue.isThreadBound(
                        spec.getTarget().getVariant(), spec.getWorkload().getScenario());
        cap.filter(value -> threadBound)
                .ifPresent(value -> summary.setLittleLawRps(TargetMetrics.round(value.rps(), 1)));
        warnings(spec, runners, summary, cap, checksPassed);
        return summary;
    }

    /** Counts per status summed over the runners; what no counted status covers is "other". */
    static Map<String, Long> statusCodes(List<RunnerSummary> runners, long requests) {
        Map<String, Long> counts = new TreeMap<>(Comparator.comparingInt(Integer::parseInt));
        for (RunnerSummary runner : runners) {
            runner.statusCodes().forEach((status, count) -> counts.merge(status, count, Long::sum));
        }
        long counted = counts.values().stream().mapToLong(Long::longValue).sum();
        Map<String, Long> result = new LinkedHashMap<>(counts);
        if (requests > counted) {
            result.put("other", requests - counted);
        }
        return result;
    }

    /**
     * A burst's figures over every runner: the first request sent and the last response received bound its
     * makespan, and throughput is what completed over the makespan (the measured window is only its upper limit).
     */
    private static void burst(List<RunnerSummary> runners, RunSummary summary) {
        List<BurstTimes> bursts = runners.stream()
                .map(RunnerSummary::burst)
                .filter(b -> b != null)
                .toList();
        if (bursts.isEmpty()) {
            return;
        }
        int perIteration = runners.get(0).requestsPerIteration();
        BurstSummary burst = new BurstSummary()
                .withPlannedRequests(bursts.get(0).plannedIterations() * perIteration)
                .withCompletedRequests(summary.getRequests());
        OptionalDouble first = bursts.stream()
                .map(BurstTimes::firstSentAtMs)
                .filter(v -> v != null)
                .mapToDouble(Double::doubleValue)
                .min();
        OptionalDouble last = bursts.stream()
                .map(BurstTimes::lastDoneAtMs)
                .filter(v -> v != null)
                .mapToDouble(Double::doubleValue)
                .max();
        if (first.isPresent() && last.isPresent()) {
            double makespanMs = last.getAsDouble() - first.getAsDouble();
            burst.setMakespanMs(round(makespanMs));
            if (makespanMs > 0) {
                summary.setRps(TargetMetrics.round(summary.getRequests() / (makespanMs / 1000), 2));
            }
        }
        summary.setBurst(burst);
    }

    private static void lock(BenchmarkRunSpec spec, List<RunnerSummary> runners, RunSummary summary) {
        List<LockCounts> counts =
                runners.stream().map(RunnerSummary::lock).filter(c -> c != null).toList();
        if (counts.isEmpty()) {
            return;
        }
        LockSummary lock = new LockSummary();
        lock.setGroupSize(spec.getWorkload().getLockGroup());
        lock.setGroups(counts.stream().mapToLong(LockCounts::groups).sum());
        lock.setCorrectGroups(counts.stream().mapToLong(LockCounts::correct).sum());
        lock.setGroupsWithSeveralSuccesses(
                counts.stream().mapToLong(LockCounts::severalWinners).sum());
        lock.setGroupsWithoutSuccess(
                counts.stream().mapToLong(LockCounts::noWinner).sum());
        lock.setGroupsWithErrors(
                counts.stream().mapToLong(LockCounts::withErrors).sum());
        List<LockCounts> waited = counts.stream().filter(c -> c.waitCount() > 0).toList();
        if (waited.size() == 1) {
            lock.setLockWaitMs(waited.get(0).waitMs());
            lock.setLockWaitExact(true);
        } else if (waited.size() > 1) {
            // Trend percentiles do not merge; each runner's is exact and the combined one is at most the largest.
            LatencySummary wait = new LatencySummary();
            List<LatencySummary> all = waited.stream().map(LockCounts::waitMs).toList();
            wait.setMin(smallestOf(all, LatencySummary::getMin));
            wait.setP50(largestOf(all, LatencySummary::getP50));
            wait.setP90(largestOf(all, LatencySummary::getP90));
            wait.setP95(largestOf(all, LatencySummary::getP95));
            wait.setP99(largestOf(all, LatencySummary::getP99));
            wait.setMax(largestOf(all, LatencySummary::getMax));
            long total = waited.stream().mapToLong(LockCounts::waitCount).sum();
            double mean = waited.stream()
                    .filter(c -> c.waitMs().getMean() != null)
                    .mapToDouble(c -> c.waitMs().getMean() * c.waitCount())
                    .sum();
            wait.setMean(total > 0 ? mean / total : null);
            lock.setLockWaitMs(wait);
            lock.setLockWaitExact(false);
        }
        summary.setLock(lock);
    }

    private static Double largestOf(
            List<LatencySummary> summaries, java.util.function.Function<LatencySummary, Double> field) {
        return summaries.stream()
                .map(field)
                .filter(v -> v != null)
                .max(Double::compare)
                .orElse(null);
    }

    private static Double smallestOf(
            List<LatencySummary> summaries, java.util.function.Function<LatencySummary, Double> field) {
        return summaries.stream()
                .map(field)
                .filter(v -> v != null)
                .min(Double::compare)
                .orElse(null);
    }

    private static LatencySummary latency(List<RunnerSummary> runners, MergedLatency merged, RunSummary summary) {
        if (runners.size() == 1) {
            summary.setPercentilesExact(true);
            // k6 interpolates its percentiles to many decimals; a microsecond is far below what a latency figure
            // can mean, and `kubectl get` prints the status' numbers as they are.
            LatencySummary own = runners.get(0).latencyMs();
            return new LatencySummary()
                    .withMin(roundOrNull(own.getMin()))
                    .withMean(roundOrNull(own.getMean()))
                    .withP50(roundOrNull(own.getP50()))
                    .withP90(roundOrNull(own.getP90()))
                    .withP95(roundOrNull(own.getP95()))
                    .withP99(roundOrNull(own.getP99()))
                    .withMax(roundOrNull(own.getMax()));
        }
        LatencySummary latency = new LatencySummary();
        runners.stream()
                .map(RunnerSummary::latencyMs)
                .map(LatencySummary::getMin)
                .filter(v -> v != null)
                .mapToDouble(Double::doubleValue)
                .min()
                .ifPresent(latency::setMin);
        runners.stream()
                .map(RunnerSummary::latencyMs)
                .map(LatencySummary::getMax)
                .filter(v -> v != null)
                .mapToDouble(Double::doubleValue)
                .max()
                .ifPresent(latency::setMax);
        long weight = 0;
        double weightedMean = 0;
        for (RunnerSummary runner : runners) {
            if (runner.latencyMs().getMean() != null && runner.requests() > 0) {
                weightedMean += runner.latencyMs().getMean() * runner.requests();
                weight += runner.requests();
            }
        }
        if (weight > 0) {
            latency.setMean(weightedMean / weight);
        }
        summary.setPercentilesExact(false);
        if (merged.total() == 0) {
            // A custom module that never calls verify or record fills no buckets. Every runner's own percentile is
            // exact, and the combined one cannot be above the largest of them.
            latency.setP50(largest(runners, LatencySummary::getP50));
            latency.setP90(largest(runners, LatencySummary::getP90));
            latency.setP95(largest(runners, LatencySummary::getP95));
            latency.setP99(largest(runners, LatencySummary::getP99));
            summary.setPercentilesNote(String.format(
                    Locale.ROOT,
                    "percentiles of %d runners are the largest of"
                            + " the runners' own (an upper bound): the custom module recorded no responses for merging;"
                            + " min, mean and max are exact",
                    runners.size()));
            return latency;
        }
        double max = latency.getMax() == null ? Double.POSITIVE_INFINITY : latency.getMax();
        latency.setP50(Math.min(max, round(merged.percentileUpperBoundMs(50))));
        latency.setP90(Math.min(max, round(merged.percentileUpperBoundMs(90))));
        latency.setP95(Math.min(max, round(merged.percentileUpperBoundMs(95))));
        latency.setP99(Math.min(max, round(merged.percentileUpperBoundMs(99))));
        summary.setPercentilesNote(String.format(
                Locale.ROOT,
                "percentiles of %d runners come from merged latency"
                        + " buckets: each is an upper bound, at most %.0f%% above the true value; min, mean and max are"
                        + " exact",
                runners.size(),
                (LatencyBuckets.GROWTH - 1) * 100));
        return latency;
    }

    private static Double largest(
            List<RunnerSummary> runners, java.util.function.Function<LatencySummary, Double> percentile) {
        return runners.stream()
                .map(RunnerSummary::latencyMs)
                .map(percentile)
                .filter(v -> v != null)
                .max(Double::compare)
                .orElse(null);
    }

    private record Aggregate(
            List<RunnerSummary> runners,
            MergedLatency merged,
            RunSummary summary,
            long checksPassed,
            long checksFailed) {}

    private static void thresholds(Map<String, List<String>> thresholds, Aggregate aggregate, RunSummary summary) {
        if (thresholds == null || thresholds.isEmpty()) {
            return;
        }
        List<ThresholdResult> results = new ArrayList<>();
        thresholds.forEach((metric, expressions) -> {
            for (String expression : expressions == null ? List.<String>of() : expressions) {
                Optional<ThresholdCheck> check = ThresholdCheck.parse(expression);
                OptionalDouble value =
                        check.isPresent() ? combinedValue(metric, check.get(), aggregate) : OptionalDouble.empty();
                ThresholdResult result =
                        new ThresholdResult().withMetric(metric).withExpression(expression);
                if (value.isPresent()) {
                    result.setValue(value.getAsDouble());
                    result.setPassed(check.get().passes(value.getAsDouble()));
                    result.setSource("aggregate");
                } else {
                    result.setPassed(k6Verdict(metric, expression, aggregate.runners()));
                    result.setSource("k6");
                }
                results.add(result);
            }
        });
        summary.setThresholdResults(results);
        summary.setThresholdsPassed(results.stream().allMatch(result -> Boolean.TRUE.equals(result.getPassed())));
    }

    /** The combined value a threshold on a standard metric refers to; empty when stackbench cannot compute it. */
    private static OptionalDouble combinedValue(String metric, ThresholdCheck check, Aggregate aggregate) {
        RunSummary summary = aggregate.summary();
        String aggregation = check.aggregation();
        double seconds = summary.getMeasuredSeconds();
        switch (metric) {
            case DURATION -> {
                if (aggregate.runners().size() == 1) {
                    JsonNode values = aggregate
                            .runners()
                            .get(0)
                            .k6Summary()
                            .path("metrics")
                            .path(K6Env.measureMetric(DURATION))
                            .path("values");
                    return values.path(aggregation).isNumber()
                            ? OptionalDouble.of(values.path(aggregation).asDouble())
                            : OptionalDouble.empty();
                }
                LatencySummary latency = summary.getLatencyMs();
                boolean bucketed = aggregate.merged().total() > 0;
                if (!bucketed
                        && (aggregation.equals("med") || check.percentile().isPresent())) {
                    // No merged buckets (a custom module that records nothing): the runners' own k6 verdicts hold,
                    // since the combined percentile is at most the largest runner's.
                    return OptionalDouble.empty();
                }
                return switch (aggregation) {
                    case "avg" -> optional(latency.getMean());
                    case "min" -> optional(latency.getMin());
                    case "max" -> optional(latency.getMax());
                    case "med" -> OptionalDouble.of(aggregate.merged().percentileUpperBoundMs(50));
                    default ->
                        check.percentile()
                                .map(p -> OptionalDouble.of(aggregate.merged().percentileUpperBoundMs(p)))
                                .orElse(OptionalDouble.empty());
                };
            }
            case "http_req_failed" -> {
                return "rate".equals(aggregation) ? optional(summary.getErrorRate()) : OptionalDouble.empty();
            }
            case "http_reqs" -> {
                return switch (aggregation) {
                    case "count" -> OptionalDouble.of(summary.getRequests());
                    case "rate" -> optional(summary.getRps());
                    default -> OptionalDouble.empty();
                };
            }
            case "iterations" -> {
                return switch (aggregation) {
                    case "count" -> OptionalDouble.of(summary.getIterations());
                    case "rate" ->
                        seconds > 0 ? OptionalDouble.of(summary.getIterations() / seconds) : OptionalDouble.empty();
                    default -> OptionalDouble.empty();
                };
            }
            case "dropped_iterations" -> {
                return "count".equals(aggregation)
                        ? OptionalDouble.of(summary.getDroppedIterations())
                        : OptionalDouble.empty();
            }
            case "checks" -> {
                long total = aggregate.checksPassed() + aggregate.checksFailed();
                return "rate".equals(aggregation) && total > 0
                        ? OptionalDouble.of(aggregate.checksPassed() / (double) total)
                        : OptionalDouble.empty();
            }
            default -> {
                return OptionalDouble.empty();
            }
        }
    }

    /** k6's own verdict: passed only when every runner that reported the threshold passed it. */
    private static Boolean k6Verdict(String metric, String expression, List<RunnerSummary> runners) {
        String key = K6Env.measureMetric(metric);
        List<Boolean> verdicts = runners.stream()
                .map(runner -> runner.thresholds().getOrDefault(key, Map.of()).get(expression))
                .filter(verdict -> verdict != null)
                .toList();
        return verdicts.isEmpty() ? Boolean.FALSE : verdicts.stream().allMatch(Boolean::booleanValue);
    }

    private static Optional<LittleLawCap> littleLawCap(BenchmarkRunSpec spec, VariantCatalogue catalogue) {
        if (catalogue == null
                || spec.getTarget() == null
                || catalogue.find(spec.getTarget().getVariant()).isEmpty()) {
            return Optional.empty();
        }
        double cpus = Quantities.cpuCores(spec.getTarget().getResources().getCpu());
        return catalogue.littleLawCap(
                spec.getTarget().getVariant(), cpus, spec.getTarget().getEnv(), spec.getWorkload());
    }

    private static void warnings(
            BenchmarkRunSpec spec,
            List<RunnerSummary> runners,
            RunSummary summary,
            Optional<LittleLawCap> cap,
            long checksPassed) {
        long requests = summary.getRequests();
        if (requests > 0 && runners.stream().anyMatch(runner -> runner.windowCompletions() < 0)) {
            summary.addWarning("the custom module counted no response with context.verify or context.record: RPS"
                    + " counts the measured requests instead, including any that finished after the window; call"
                    + " context.verify(response, status, name) for each request");
        }
        if (requests == 0) {
            summary.addWarning("no request completed in the measured window: the target did not answer; check that"
                    + " it is up and reachable from the load generator");
        }
        if (summary.getDroppedIterations() > 0) {
            long planned = summary.getIterations() + summary.getDroppedIterations();
            summary.addWarning(String.format(
                    Locale.ROOT,
                    "k6 dropped %d of %d planned iterations (%.1f%%): it ran"
                            + " out of VUs, so the offered load was lower than requested and the figures partly measure the"
                            + " load generator; raise spec.workload.load.vus (max VUs) or lower the rate",
                    summary.getDroppedIterations(),
                    planned,
                    100.0 * summary.getDroppedIterations() / planned));
        }
        if (summary.getFailedRequests() > 0) {
            summary.addWarning(String.format(
                    Locale.ROOT,
                    "%d of %d requests failed (error rate %.2f%%): latency"
                            + " and throughput include failures; check the target's log",
                    summary.getFailedRequests(),
                    requests,
                    100.0 * summary.getErrorRate()));
        }
        if (summary.getChecksFailed() > 0) {
            summary.addWarning(String.format(
                    Locale.ROOT,
                    "%d of %d response checks failed: responses had an"
                            + " unexpected status or came from another variant than %s",
                    summary.getChecksFailed(),
                    summary.getChecksFailed() + checksPassed,
                    spec.getTarget().getVariant()));
        }
        LockSummary lock = summary.getLock();
        if (lock != null && lock.correctnessErrors() > 0) {
            summary.addWarning(String.format(
                    Locale.ROOT,
                    "correctness error: %d of %d lock groups did not end with exactly one success (%d with several"
                            + " successes, %d with none): the changes of one order were not serialised by its row"
                            + " lock; check the variant's transaction handling",
                    lock.correctnessErrors(),
                    lock.getGroups(),
                    lock.getGroupsWithSeveralSuccesses(),
                    lock.getGroupsWithoutSuccess()));
        }
        if (lock != null && lock.getGroups() != null && lock.getGroups() == 0) {
            summary.addWarning("no lock group completed in the measured window: every order creation failed or"
                    + " the window ended first; check the target's log");
        }
        BurstSummary burst = summary.getBurst();
        if (burst != null
                && burst.getPlannedRequests() != null
                && burst.getCompletedRequests() < burst.getPlannedRequests()) {
            summary.addWarning(String.format(
                    Locale.ROOT,
                    "only %d of the burst's %d requests were answered within spec.workload.duration (%.0f s, the"
                            + " burst's time limit): the makespan covers the answered ones only; raise duration",
                    burst.getCompletedRequests(),
                    burst.getPlannedRequests(),
                    summary.getMeasuredSeconds()));
        }
        LoadSpec load = spec.getWorkload().getLoad();
        if (load.getExecutor() == Executor.CONSTANT_ARRIVAL_RATE && load.getRate() != null && requests > 0) {
            int perIteration = runners.get(0).requestsPerIteration();
            double offered = load.getRate() * (double) perIteration;
            if (summary.getRps() < 0.95 * offered) {
                summary.addWarning(String.format(
                        Locale.ROOT,
                        "measured %.1f requests/s, below the requested %.1f:"
                                + " the target or the load generator could not keep up",
                        summary.getRps(),
                        offered));
            }
            long fromWarmup =
                    runners.stream().mapToLong(RunnerSummary::windowFromWarmup).sum();
            // Completions inside the window include the warmup's late answers: a target that fell behind while it
            // warmed up works off that backlog in the window, above the rate it is offered. A few answers either way
            // at the window's edges are the usual jitter of a short window, not a backlog.
            double excess = (summary.getRps() - offered) * summary.getMeasuredSeconds();
            if (summary.getRps() > 1.05 * offered && excess >= 5 && fromWarmup > 0) {
                summary.addWarning(String.format(
                        Locale.ROOT,
                        "measured %.1f requests/s, above the offered %.1f: %d requests of the warmup were answered"
                                + " inside the measured window, so the target was still working off a backlog when"
                                + " the window began; lengthen spec.workload.warmup for a steady-state figure",
                        summary.getRps(),
                        offered,
                        fromWarmup));
            }
            cap.filter(value -> load.getRate() > value.rps())
                    .ifPresent(value -> summary.addWarning(String.format(
                            Locale.ROOT,
                            "the requested rate %d/s is above the Little's-law cap of this"
                                    + " variant (%s): requests queue and latency grows",
                            load.getRate(),
                            value.explanation())));
        }
    }

    private static OptionalDouble optional(Double value) {
        return value == null ? OptionalDouble.empty() : OptionalDouble.of(value);
    }

    private static double round(double value) {
        return TargetMetrics.round(value, 3);
    }

    private static Double roundOrNull(Double value) {
        return value == null ? null : round(value);
    }
}
