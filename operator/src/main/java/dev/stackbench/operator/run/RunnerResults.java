package dev.stackbench.operator.run;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.api.status.TargetSummary;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.k6.K6SummaryException;
import dev.stackbench.k6.K6SummaryParser;
import dev.stackbench.k6.RunnerSummary;
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

    /** One runner's log: the pod it came from and its full text. */
    public record RunnerLog(String podName, String text) {}

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
    public RunSummary summarize(BenchmarkRun run, List<RunnerLog> logs, TargetSummary target) {
        List<RunnerSummary> runners = new ArrayList<>();
        for (RunnerLog log : logs) {
            try {
                runners.add(K6SummaryParser.parse(log.text()));
            } catch (K6SummaryException e) {
                throw new IllegalArgumentException(
                        "the log of k6 runner pod " + log.podName() + " holds no readable" + " k6 summary ("
                                + e.getMessage() + "); see kubectl logs " + log.podName(),
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
