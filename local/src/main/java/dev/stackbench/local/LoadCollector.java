package dev.stackbench.local;

import dev.stackbench.api.Durations;
import dev.stackbench.api.status.Conditions;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.lifecycle.LoadStep;
import dev.stackbench.lifecycle.ResolvedRun;
import dev.stackbench.lifecycle.RunDriver;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.lifecycle.SteppedLoad;
import dev.stackbench.results.GeneratorCheck;
import dev.stackbench.results.HostSteal;
import dev.stackbench.results.LimitEvidence;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Collecting, locally: a load's k6 summary and the target's samples into its summary, then through the run driver the
 * run's success, or a step judged into status.steps (the best step so far is the run's summary from the first step on,
 * so a failure later loses nothing already measured). Keeps what each step measured for the step the run keeps.
 */
final class LoadCollector {

    private final RunProgress progress;
    private final ResolvedRun run;
    private final VariantCatalogue catalogue;
    private final CpuSet generatorCpus;
    private final Map<Integer, GeneratorCheck.Judgement> judgements = new LinkedHashMap<>();
    private final Map<Integer, RunObservation> observations = new LinkedHashMap<>();

    LoadCollector(RunProgress progress, ResolvedRun run, VariantCatalogue catalogue, CpuSet generatorCpus) {
        this.progress = progress;
        this.run = run;
        this.catalogue = catalogue;
        this.generatorCpus = generatorCpus;
    }

    /** Reads the load whose k6 exited with {@code exitCode}; its files are in {@code files}. */
    void collect(LoadStep step, int exitCode, ResultsLayout.RunFiles files, RunObservation observation) {
        RunSummary summary;
        try {
            summary = LocalSummary.summarize(step.spec(), catalogue, files, observation);
        } catch (RuntimeException e) {
            if (step.isStep()) {
                progress.loadFinished(1);
            }
            progress.resultsUnreadable((step.isStep() ? "step " + step.number() + ": " : "") + "the k6 summary "
                    + files.k6Summary() + " (k6 exit code " + exitCode + ") could not be read: " + e.getMessage()
                    + "; see " + files.k6Log());
            return;
        }
        GeneratorCheck.Judgement judgement = LocalSummary.judgeGenerator(summary, observation, generatorCpus);
        LocalSummary.missedScrapesWarning(observation).ifPresent(summary::addWarning);
        HostSteal.warning(summary.getHostSteal()).ifPresent(summary::addWarning);
        LimitEvidence.judge(
                summary,
                step.spec(),
                catalogue,
                judgement,
                new LimitEvidence.LocalCpus(
                        observation.averageGeneratorCpusBusy(), observation.averageTargetCpusBusy()));
        RunDriver.MeasuredLoad measured = measured(step, summary, judgement, observation);
        if (!step.isStep()) {
            RunDriver.loadMeasured(progress, measured);
            return;
        }
        RunDriver.StepRecorded recorded = RunDriver.stepMeasured(progress, run, step, measured);
        judgements.put(step.number(), judgement);
        observations.put(step.number(), observation);
        ResultsLayout.writeJson(files.dir().resolve("step.json"), recorded.result());
        ResultsLayout.writeJson(files.dir().resolve("summary.json"), summary);
    }

    /** No step follows: the run keeps the best step's summary and succeeds; returns what that step observed. */
    Optional<RunObservation> finishSteps(SteppedLoad.Done done) {
        Optional<RunObservation> kept =
                SteppedLoad.best(progress.status().getSteps()).map(best -> observations.get(best.getStep()));
        RunDriver.stepsFinished(
                progress, done, summary -> judgements.get(summary.getStep() == null ? 0 : summary.getStep()), 1);
        return kept;
    }

    /** What local mode measured of a load, as the run driver takes it: one k6 process, its CPU from /proc. */
    private static RunDriver.MeasuredLoad measured(
            LoadStep step, RunSummary summary, GeneratorCheck.Judgement judgement, RunObservation observation) {
        return new RunDriver.MeasuredLoad(
                summary,
                judgement,
                observation.averageLoadGeneratorCores(),
                1,
                Conditions.format(observation
                        .windowStart()
                        .minus(Durations.parse(step.spec().getWorkload().getWarmup()))),
                Conditions.format(Instant.now()));
    }
}
