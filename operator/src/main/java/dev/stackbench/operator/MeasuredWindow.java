package dev.stackbench.operator;

import dev.stackbench.api.Durations;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.Conditions;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * The measured window of a load: from when it started (status.startedAt, taken from the runners' own clocks once
 * their summaries are read) plus the warmup, for the duration.
 */
record MeasuredWindow(Instant start, Instant end) {

    /** The window of a load that started at {@code startedAt}; empty when the start is unknown. */
    static Optional<MeasuredWindow> of(BenchmarkRun run, String startedAt) {
        if (startedAt == null) {
            return Optional.empty();
        }
        Instant start = Instant.parse(startedAt)
                .plus(Durations.parse(run.getSpec().getWorkload().getWarmup()));
        return Optional.of(new MeasuredWindow(
                start, start.plus(Durations.parse(run.getSpec().getWorkload().getDuration()))));
    }

    /**
     * When the load being scraped started, as the status says while it runs: status.startedAt, or for a sweep or a
     * capacity search, whose status.startedAt is the first step's, when the current step's runners started (its
     * LoadRunning condition turns True once per step).
     */
    static String loadStartedAt(BenchmarkRun run) {
        if (run.getStatus() == null) {
            return null;
        }
        boolean stepped = run.getSpec() != null
                && run.getSpec().getWorkload() != null
                && run.getSpec().getWorkload().isStepped();
        if (stepped) {
            Optional<String> stepStarted = Conditions.find(run.getStatus().getConditions(), Conditions.LOAD_RUNNING)
                    .filter(c -> Conditions.TRUE.equals(c.getStatus()))
                    .map(Condition::getLastTransitionTime);
            if (stepStarted.isPresent()) {
                return stepStarted.get();
            }
        }
        return run.getStatus().getStartedAt();
    }

    /**
     * A warning when the scrapes span less than 80 % of the window (two scrape intervals are lost at the edges at
     * most): the operator was not scraping for part of it, typically because it restarted, and the target figures
     * (CPU, GC, peaks) describe only the part it saw.
     */
    Optional<String> partialCoverage(Duration covered) {
        Duration length = Duration.between(start, end);
        if (length.isZero() || covered.toMillis() >= length.toMillis() * 0.8) {
            return Optional.empty();
        }
        return Optional.of(String.format(
                Locale.ROOT,
                "target metrics cover %.0f s of the %.0f s measured window: the operator did not scrape the target"
                        + " for the rest (typically while a restarted operator started and took the Lease; what it"
                        + " scraped before is kept in the run's journal), so the target's CPU, GC and peaks describe"
                        + " that part only",
                covered.toMillis() / 1000.0,
                length.toMillis() / 1000.0));
    }
}
