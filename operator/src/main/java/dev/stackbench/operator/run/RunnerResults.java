package dev.stackbench.operator.run;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.api.status.TargetSummary;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.k6.K6SummaryException;
import dev.stackbench.k6.K6SummaryParser;
import dev.stackbench.k6.RunnerSummary;
import dev.stackbench.operator.BoundedReads;
import dev.stackbench.results.GeneratorCheck;
import dev.stackbench.results.LimitEvidence;
import dev.stackbench.results.ResultAggregator;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Turns what the k6 runners printed into the run's summary with the shared results code, so the cluster and local
 * mode compute figures the same way: the k6 summary parser for each runner's log and the aggregator combining runners.
 */
public final class RunnerResults {

    /**
     * One runner's log: the pod it came from, its runner id (0 when unknown), and what the operator kept of it (the
     * last valid summary block, or the end of the log when it holds none).
     *
     * @param cutToBytes the limit the log was cut to, keeping its end; 0 when it is whole
     */
    public record RunnerLog(String podName, int runner, String text, int cutToBytes) {

        /** A whole log of a runner whose id is unknown. */
        public RunnerLog(String podName, String text) {
            this(podName, 0, text, 0);
        }

        /** The pod, and its runner id when known, as messages name them. */
        String describe() {
            return "k6 runner pod " + podName + (runner > 0 ? " (runner " + runner + ")" : "");
        }
    }

    private final VariantCatalogue catalogue;

    public RunnerResults(VariantCatalogue catalogue) {
        this.catalogue = catalogue;
    }

    /**
     * @param run the run with the spec it started with
     * @param logs every runner's log, ordered by pod name
     * @param target the target's metrics over the measured window, null when unavailable
     * @throws IllegalArgumentException when a log holds no k6 summary; the message names the pod
     */
    /** What limited the load, judged on its complete summary, into summary.limitedBy. */
    public void judgeLimit(BenchmarkRun run, RunSummary summary, GeneratorCheck.Judgement generator) {
        LimitEvidence.judge(summary, run.getSpec(), catalogue, generator);
    }

    public RunSummary summarize(BenchmarkRun run, List<RunnerLog> logs, TargetSummary target) {
        List<RunnerSummary> runners = new ArrayList<>();
        for (RunnerLog log : logs) {
            try {
                runners.add(K6SummaryParser.parse(log.text()));
            } catch (K6SummaryException e) {
                if (log.cutToBytes() > 0) {
                    throw new IllegalArgumentException(
                            "the last " + BoundedReads.size(log.cutToBytes()) + " of the log of " + log.describe()
                                    + " hold no complete k6 summary (" + e.getMessage() + "): the summary, which k6"
                                    + " prints last, does not fit the operator's limit of "
                                    + BoundedReads.size(log.cutToBytes()) + " for a runner's log, or the script"
                                    + " printed that much after it; see kubectl logs " + log.podName(),
                            e);
                }
                throw new IllegalArgumentException(
                        "the log of " + log.describe() + " holds no readable k6 summary (" + e.getMessage()
                                + "); see kubectl logs " + log.podName(),
                        e);
            }
        }
        if (runners.isEmpty()) {
            throw new IllegalArgumentException("no k6 runner pod was found to read results from: check the TestRun"
                    + " and its Jobs (kubectl get testruns,jobs)");
        }
        return ResultAggregator.aggregate(runners, run.getSpec(), catalogue, target);
    }

    /** When the earliest runner started its scenarios, by its own clock, if the logs say so. */
    public Optional<Instant> loadStartedAt(List<RunnerLog> logs) {
        return logs.stream()
                .flatMap(log -> {
                    try {
                        return Optional.ofNullable(
                                K6SummaryParser.parse(log.text()).loadStartedAt())
                                .stream();
                    } catch (K6SummaryException e) {
                        // summarize names the unreadable log; here it only has no start time to give.
                        return Stream.empty();
                    }
                })
                .min(Instant::compareTo);
    }
}
