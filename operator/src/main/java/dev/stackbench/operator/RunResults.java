package dev.stackbench.operator;

import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.RunSummary;
import dev.stackbench.api.TargetSummary;
import java.util.List;

/** Turns what the runners printed into the run's summary. */
@FunctionalInterface
public interface RunResults {

    /** One runner's log: the pod it came from and its full text. */
    record RunnerLog(String podName, String text) {}

    /**
     * @param run the run with the spec it started with
     * @param logs every runner's log, ordered by pod name
     * @param target the target's metrics over the measured window, null when unavailable
     * @throws IllegalArgumentException when a log holds no k6 summary; the message names the pod
     */
    RunSummary summarize(BenchmarkRun run, List<RunnerLog> logs, TargetSummary target);

    /** When the earliest runner started its scenarios, by its own clock, if the logs say so. */
    default java.util.Optional<java.time.Instant> loadStartedAt(List<RunnerLog> logs) {
        return java.util.Optional.empty();
    }
}
