package dev.stackbench.local;

import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.api.status.TargetSummary;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.k6.IntendedStarts;
import dev.stackbench.k6.K6Env;
import dev.stackbench.k6.K6SummaryParser;
import dev.stackbench.k6.RunnerSummary;
import dev.stackbench.results.GeneratorCheck;
import dev.stackbench.results.ResultAggregator;
import dev.stackbench.results.ServerSideCheck;
import dev.stackbench.results.TargetMetrics;
import dev.stackbench.results.TimedScrape;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The status summary of a local run, made by the results code the operator uses, so both modes give the same
 * figures from the same inputs.
 */
final class LocalSummary {

    private LocalSummary() {}

    /** The status summary, from the k6 summary and the target scrapes of the measured window. */
    static RunSummary summarize(
            BenchmarkRunSpec spec,
            VariantCatalogue catalogue,
            ResultsLayout.RunFiles files,
            RunObservation observation) {
        RunnerSummary runner = K6SummaryParser.parseFile(files.k6Summary());
        TargetMetrics metrics = targetMetrics(observation);
        RunSummary summary =
                ResultAggregator.aggregate(List.of(runner), spec, catalogue, targetSummary(metrics, observation));
        // The client window: k6 counts what completed within measuredSeconds of the measured scenario's start.
        Instant windowEnd = observation.windowStart().plusNanos(Math.round(summary.getMeasuredSeconds() * 1e9));
        ServerSideCheck.addTo(summary, metrics.serverRequests(), observation.windowStart(), windowEnd);
        intendedStarts(files.k6PerSecond()).summary().ifPresent(summary::setIntendedLatencyMs);
        observation
                .hostSteal()
                .ifPresent(share -> summary.setHostSteal(dev.stackbench.results.HostSteal.rounded(share)));
        return summary;
    }

    /**
     * What k6's CPU over the CPUs it may use (local mode has no CPU limit, so no throttling), the busy share of the
     * CPUs it shares with the delay service and PostgreSQL, and the dropped iterations say about the generator.
     */
    static GeneratorCheck.Judgement judgeGenerator(
            RunSummary summary, RunObservation observation, CpuSet generatorCpus) {
        long dropped = summary.getDroppedIterations() == null ? 0 : summary.getDroppedIterations();
        return GeneratorCheck.judge(
                List.of(GeneratorCheck.Generator.localProcess(
                        observation.averageLoadGeneratorCores(),
                        generatorCpus.size(),
                        observation.averageGeneratorCpusBusy(),
                        "the delay service and PostgreSQL (" + generatorCpus + ")")),
                dropped,
                List.of());
    }

    /** A target too busy to answer its metrics endpoint is itself a finding, and explains missing figures. */
    static Optional<String> missedScrapesWarning(RunObservation observation) {
        long missed = observation.ticks().stream()
                .filter(tick -> tick.scrape() == null)
                .count();
        if (missed == 0) {
            return Optional.empty();
        }
        return Optional.of(String.format(
                Locale.ROOT,
                "%d of %d once-a-second scrapes of the target's "
                        + "/actuator/prometheus got no answer within 2 s: the target was too busy to serve its"
                        + " metrics, so thread, heap and pool figures cover only the answered scrapes",
                missed,
                observation.ticks().size()));
    }

    /** The measured scenario's latencies from the intended starts, from k6's stackbench output when it wrote them. */
    private static IntendedStarts intendedStarts(Path perSecondFile) {
        if (!Files.isRegularFile(perSecondFile)) {
            return IntendedStarts.read(Stream.empty(), K6Env.MEASURE_SCENARIO);
        }
        try (Stream<String> lines = Files.lines(perSecondFile, StandardCharsets.UTF_8)) {
            return IntendedStarts.read(lines, K6Env.MEASURE_SCENARIO);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read k6's per-second file " + perSecondFile, e);
        }
    }

    /** Every scrape of the run, in the same accumulator the operator feeds. */
    private static TargetMetrics targetMetrics(RunObservation observation) {
        TargetMetrics metrics = new TargetMetrics();
        for (TimedScrape scrape : observation.runScrapes()) {
            metrics.add(scrape.at(), scrape.prometheusText());
        }
        return metrics;
    }

    /** The target figures of the measured window. */
    private static TargetSummary targetSummary(TargetMetrics metrics, RunObservation observation) {
        TargetSummary summary = metrics.summary(observation.windowStart(), observation.windowEnd());
        if (summary.getAvgCpuCores() == null && !Double.isNaN(observation.averageTargetCores())) {
            // Measured from /proc when the target does not expose its CPU time.
            summary.setAvgCpuCores(Math.round(observation.averageTargetCores() * 1000) / 1000.0);
        }
        return summary;
    }
}
