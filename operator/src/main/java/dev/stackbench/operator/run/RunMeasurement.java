package dev.stackbench.operator.run;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.Conditions;
import dev.stackbench.api.status.PodResources;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.api.status.TargetSummary;
import dev.stackbench.lifecycle.RunDriver;
import dev.stackbench.operator.PodCpuScraper;
import dev.stackbench.operator.RunLabels;
import dev.stackbench.operator.TargetMetricsScraper;
import dev.stackbench.results.GeneratorCheck;
import dev.stackbench.results.HostSteal;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The measurement of one load, the run's or one step's of a sweep or a capacity search, in the order it happens:
 * {@link #begin} (or {@link #beginStep}) before the load starts, {@link #tick} each time the running load is looked
 * at, {@link #end} once its runners have finished, {@link #forget} when the run is cleaned up. In between it keeps
 * the target's scrapes and the pods' CPU readings ({@link TargetMetricsScraper}); at the end it turns them and the
 * runners' logs into the summary.
 */
public final class RunMeasurement {

    /** How often the target is scraped while load runs, whatever the reconciles do. */
    static final Duration SCRAPE_INTERVAL = Duration.ofSeconds(2);

    /** The start of a warning about a pod whose CPU the kubelets did not give over the window. */
    static final String NO_CPU_FIGURES = "no CPU figures for ";

    private final TargetMetricsScraper scraper;
    private final RunnerResults results;

    public RunMeasurement(TargetMetricsScraper scraper, RunnerResults results) {
        this.scraper = scraper;
        this.results = results;
    }

    /**
     * What the runners of a finished load measured, with the target's scrapes and the pods' CPU, or why their results
     * cannot be read; either way when the load started.
     */
    sealed interface Result {
        /** When the load started: by the runners' own clocks when their summaries say, else as the operator saw it. */
        String startedAt();
    }

    /**
     * @param runners how many runners' logs were read
     * @param metrics what the target's scrapes add up to
     */
    record Measured(
            RunSummary summary,
            GeneratorCheck.Judgement generator,
            int runners,
            TargetMetricsScraper.Outcome metrics,
            String startedAt)
            implements Result {

        /** What the run driver takes of it; {@code finishedAt} is when the results were read. */
        RunDriver.MeasuredLoad forDriver(Instant finishedAt) {
            return new RunDriver.MeasuredLoad(
                    summary, generator, generatorCores(summary), runners, startedAt, Conditions.format(finishedAt));
        }
    }

    /** A runner's log holds no readable k6 summary; {@code reason} names the pod. */
    record Unreadable(String reason, String startedAt) implements Result {}

    /**
     * Before the run's load starts: a reading of the target's and delay service's CPU counters. The kubelet refreshes
     * them only every 10-20 s by default, so a short window may otherwise hold fewer than the two readings a figure
     * needs.
     */
    void begin(BenchmarkRun run, Instant now) {
        scraper.scrapePodCpu(run, now);
    }

    /**
     * Before a step's load starts: the step's scrapes are its own (those of the step before are summarised in its
     * result already), and the pods' CPU is read once before its load, as for {@link #begin}.
     */
    void beginStep(BenchmarkRun run, BenchmarkRun step, Instant now) {
        scraper.startOver(run);
        scraper.scrapePodCpu(step, now);
    }

    /**
     * The load runs: from the first tick on, a scrape of the target every {@link #SCRAPE_INTERVAL} (the first at
     * once), on the scrapers' threads until {@link #end}. The reconciler does not wait for a scrape: a slow or huge
     * target page holds only its own run's scrapes.
     */
    void tick(BenchmarkRun load) {
        scraper.scrapeEvery(load, SCRAPE_INTERVAL);
    }

    /**
     * The load's runners have finished: the periodic scrapes stop, one more scrape and CPU reading put the window's end
     * between two of each, and the runners' summaries, the target's figures and the pods' CPU make the summary.
     *
     * @param logs every runner's log, ordered by pod name
     * @param startedAtOtherwise when the load started if the runners' summaries do not say
     */
    Result end(
            BenchmarkRun load,
            List<RunnerResults.RunnerLog> logs,
            List<Pod> targetPods,
            Instant now,
            String startedAtOtherwise) {
        scraper.stopScraping(load);
        // One scrape after the load stopped, so the window's end lies between two scrapes.
        scraper.scrape(load, targetPods, now);
        scraper.scrapeBackend(load, now);
        scraper.scrapePodCpu(load, now);
        String startedAt = results.loadStartedAt(logs).map(Conditions::format).orElse(startedAtOtherwise);
        TargetMetricsScraper.Outcome metrics = scraper.finish(load, startedAt);
        RunSummary summary;
        try {
            summary = results.summarize(load, logs, metrics.summary().orElse(null));
        } catch (IllegalArgumentException e) {
            return new Unreadable(e.getMessage(), startedAt);
        }
        metrics.warning().ifPresent(reason -> addWarning(summary, reason));
        addHostSteal(summary, metrics.hostSteal());
        scraper.checkServerSide(load, startedAt, summary);
        addPodCpu(summary, scraper.podCpu(load, startedAt), metrics.pods());
        GeneratorCheck.Judgement generator = generatorJudgement(summary);
        results.judgeLimit(load, summary, generator);
        return new Measured(summary, generator, logs.size(), metrics, startedAt);
    }

    /** What the run's scrapes hold, as text by file name, for the results it keeps after cleanup. */
    java.util.Map<String, String> scrapeTexts(BenchmarkRun load) {
        return scraper.journalTexts(load);
    }

    /** The run has ended on results read already: no more periodic scrapes. */
    void stop(BenchmarkRun run) {
        scraper.stopScraping(run);
    }

    /** The run is cleaned up: what was scraped for it goes. */
    void forget(BenchmarkRun run) {
        scraper.forget(run);
    }

    /**
     * The share of their machine's CPU time the target pods' nodes lost to the hypervisor in the window, and the
     * warning when it is more than the figures can bear (a comparison then leaves the run out).
     */
    static void addHostSteal(RunSummary summary, Optional<Double> share) {
        share.map(HostSteal::rounded).ifPresent(summary::setHostSteal);
        HostSteal.warning(summary.getHostSteal()).ifPresent(reason -> addWarning(summary, reason));
    }

    /**
     * Each pod's CPU into the summary, the target's throttling into its figures (the most throttled target pod: one
     * throttled replica is enough to slow the requests it serves).
     */
    private static void addPodCpu(
            RunSummary summary, TargetMetricsScraper.PodCpu podCpu, Map<String, TargetSummary> targetPods) {
        List<PodResources> pods = withTargetFigures(podCpu.pods(), targetPods);
        if (!pods.isEmpty()) {
            summary.setPods(pods);
        }
        podCpu.unavailableReason().ifPresent(reason -> addWarning(summary, reason));
        if (podCpu.unavailableReason().isEmpty()) {
            // Some pods have figures: each one without says why.
            podCpu.missing().forEach(why -> addWarning(summary, NO_CPU_FIGURES + why));
        }
        pods.stream()
                .filter(p -> RunLabels.ROLE_TARGET.equals(p.getRole()) && p.getCpuThrottledRatio() != null)
                .mapToDouble(PodResources::getCpuThrottledRatio)
                .max()
                .ifPresent(ratio -> {
                    if (summary.getTarget() != null) {
                        summary.getTarget().setCpuThrottledRatio(ratio);
                    }
                });
    }

    /**
     * Each target pod's own JVM figures (threads, heap, GC) beside its CPU from the kubelet; a target pod the kubelet
     * gave no CPU reading for still gets an entry with its JVM figures.
     */
    static List<PodResources> withTargetFigures(List<PodResources> pods, Map<String, TargetSummary> targetPods) {
        List<PodResources> result = new ArrayList<>(pods);
        targetPods.forEach((name, figures) -> {
            PodResources pod = result.stream()
                    .filter(p -> name.equals(p.getPod()))
                    .findFirst()
                    .orElseGet(() -> {
                        PodResources added = new PodResources()
                                .withRole(RunLabels.ROLE_TARGET)
                                .withPod(name);
                        int firstOther = (int) result.stream()
                                .filter(p -> RunLabels.ROLE_TARGET.equals(p.getRole()))
                                .count();
                        result.add(firstOther, added);
                        return added;
                    });
            pod.setPeakThreads(figures.getPeakThreads());
            pod.setPeakHeapMiB(figures.getPeakHeapMiB());
            pod.setGcPauseMs(figures.getGcPauseMs());
        });
        return result;
    }

    /**
     * The generator check over a summary's runner pods and dropped iterations; when no runner's CPU was read, the
     * warnings saying why explain the condition.
     */
    static GeneratorCheck.Judgement generatorJudgement(RunSummary summary) {
        long dropped = summary.getDroppedIterations() == null ? 0 : summary.getDroppedIterations();
        List<String> unmeasured = summary.getWarnings() == null
                ? List.of()
                : summary.getWarnings().stream()
                        .filter(w -> w.startsWith(NO_CPU_FIGURES + PodCpuScraper.ROLE_RUNNER + " ")
                                || w.startsWith(PodCpuScraper.UNAVAILABLE))
                        .map(w -> w.startsWith(NO_CPU_FIGURES) ? w.substring(NO_CPU_FIGURES.length()) : w)
                        .toList();
        return GeneratorCheck.judge(
                GeneratorCheck.runnerPods(summary.getPods() == null ? List.of() : summary.getPods()),
                dropped,
                unmeasured);
    }

    /** The runners' CPU in cores during the load, all runners together; null when the kubelets gave none. */
    static Double generatorCores(RunSummary summary) {
        if (summary.getPods() == null) {
            return null;
        }
        List<PodResources> runners = summary.getPods().stream()
                .filter(pod -> PodCpuScraper.ROLE_RUNNER.equals(pod.getRole()) && pod.getAvgCpuCores() != null)
                .toList();
        return runners.isEmpty()
                ? null
                : runners.stream().mapToDouble(PodResources::getAvgCpuCores).sum();
    }

    static void addWarning(RunSummary summary, String warning) {
        List<String> warnings =
                summary.getWarnings() == null ? new ArrayList<>() : new ArrayList<>(summary.getWarnings());
        warnings.add(warning);
        summary.setWarnings(warnings);
    }
}
