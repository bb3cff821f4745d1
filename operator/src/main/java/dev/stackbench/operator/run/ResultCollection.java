package dev.stackbench.operator.run;

import dev.stackbench.api.Durations;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.PromQLCheck;
import dev.stackbench.api.run.WorkloadSpec;
import dev.stackbench.api.status.CheckResult;
import dev.stackbench.api.status.Conditions;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.k6.IntendedStarts;
import dev.stackbench.k6.K6Env;
import dev.stackbench.lifecycle.LoadStep;
import dev.stackbench.lifecycle.RunDriver;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.operator.RunArtifacts;
import dev.stackbench.operator.RunLabels;
import dev.stackbench.operator.RunnerHealth;
import dev.stackbench.operator.objects.K6ScriptConfigMap;
import dev.stackbench.operator.objects.TargetService;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Collecting: every runner's k6 summary from its pod log, combined with the target's figures and the pods' CPU into
 * the load's summary, with the environment it ran in. The run driver makes of it the run's success, or a step judged
 * into status.steps (the last one ends the steps in the same pass).
 */
public final class ResultCollection {

    private final RunMeasurement measurement;
    private final EnvironmentRecord environment;
    private final SteppedLoadStage steps;
    private final PromQLChecks checks = new PromQLChecks();
    private final K6ScriptConfigMap script = new K6ScriptConfigMap();

    public ResultCollection(RunMeasurement measurement, EnvironmentRecord environment, SteppedLoadStage steps) {
        this.measurement = measurement;
        this.environment = environment;
        this.steps = steps;
    }

    /** Reads the results of a load whose {@code runners} have finished. */
    public void collect(RunContext pass, LoadStep load, int runners) {
        RunProgress progress = pass.progress();
        BenchmarkRun view = pass.view(load);
        RunDriver.loadStarted(progress, load, runners, TargetService.url(view));
        if (!load.isStep()) {
            progress.loadFinished(view.getSpec().getWorkload().getParallelism());
        }
        // Without a start time in the runners' summaries: when the operator saw the load's runners start.
        String startedOtherwise = load.isStep()
                ? progress.trueSince(Conditions.LOAD_RUNNING)
                        .map(Conditions::format)
                        .orElseGet(() -> Conditions.format(progress.now()))
                : progress.status().getStartedAt();
        Optional<RunMeasurement.Measured> measured = measure(pass, load, startedOtherwise);
        if (measured.isEmpty()) {
            return;
        }
        RunDriver.MeasuredLoad figures = measured.get().forDriver(progress.now());
        if (!load.isStep()) {
            progress.status()
                    .setEnvironment(
                            environment.describe(pass, view, measured.get().metrics()));
            Optional<String> failedCheck = judgeChecks(view, figures.summary(), figures.startedAt());
            if (failedCheck.isPresent()) {
                // The results stay: the run fails on what its checks say of them.
                progress.status().setSummary(figures.summary());
                progress.fail(PromQLChecks.CHECK_FAILED, failedCheck.get());
                return;
            }
            RunDriver.loadMeasured(progress, figures);
            return;
        }
        RunDriver.StepRecorded recorded = RunDriver.stepMeasured(progress, pass.resolved(), load, figures);
        if (recorded.best()) {
            progress.status()
                    .setEnvironment(
                            environment.describe(pass, view, measured.get().metrics()));
        }
        if (recorded.next() instanceof RunDriver.Finished finished) {
            steps.finish(pass, finished.done());
        } else {
            // The next step starts next pass, once this one's result is stored.
            progress.checkAgainIn(pass.settings().pollInterval());
        }
    }

    /**
     * The run's PromQL checks at the end of its measured window, into the summary; a firing warning check adds a
     * warning, and the message of the firing error checks is returned (the run then fails).
     */
    private Optional<String> judgeChecks(BenchmarkRun run, RunSummary summary, String startedAt) {
        if (run.getSpec().getChecks() == null || run.getSpec().getChecks().isEmpty() || startedAt == null) {
            return Optional.empty();
        }
        WorkloadSpec workload = run.getSpec().getWorkload();
        Instant start = Instant.parse(startedAt).plus(Durations.parse(workload.getWarmup()));
        Instant end = start.plus(Durations.parse(workload.getDuration()));
        List<CheckResult> results = checks.evaluate(run, start, end);
        summary.setChecks(results);
        List<String> errors = new ArrayList<>();
        for (CheckResult result : results) {
            if (!Boolean.TRUE.equals(result.getFired())) {
                continue;
            }
            String what = "PromQL check " + result.getExpr() + " fired with " + result.getValue()
                    + (result.getDescription() == null ? "" : " (" + result.getDescription() + ")");
            if (PromQLCheck.CheckSeverity.warning.name().equals(result.getSeverity())) {
                RunMeasurement.addWarning(summary, what);
            } else {
                errors.add(what);
            }
        }
        return errors.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", errors));
    }

    /**
     * Puts the pods' moments into the run's timeline: its database, delay service, target and verification pod once
     * (with the first load), each load's k6 runners. The verification pod's come from the pod, like the others': the
     * note of its start is lost with a status write that meets a conflict, the pod's times are not.
     */
    private static void addPodMilestones(RunContext pass, LoadStep step, BenchmarkRun load) {
        RunProgress progress = pass.progress();
        List<PodMilestones.Milestone> milestones = new ArrayList<>();
        if (!step.isStep() || step.number() == 1) {
            for (String role : List.of(RunLabels.ROLE_DATABASE, RunLabels.ROLE_DELAY_SERVICE, RunLabels.ROLE_TARGET)) {
                List<Pod> pods = pass.pods(role);
                for (int i = 0; i < pods.size(); i++) {
                    milestones.addAll(PodMilestones.of(role + (pods.size() > 1 ? " " + (i + 1) : ""), pods.get(i)));
                }
            }
            pass.pods(RunLabels.ROLE_VERIFICATION)
                    .forEach(pod -> milestones.addAll(PodMilestones.of("verification pod", pod)));
        }
        String prefix = step.isStep() ? "step " + step.number() + " " : "";
        List<Pod> runners = RunnerHealth.sorted(pass.runnerPods(load));
        for (int i = 0; i < runners.size(); i++) {
            milestones.addAll(PodMilestones.of(prefix + "k6 runner " + (i + 1), runners.get(i)));
        }
        milestones.forEach(m -> progress.addToTimeline(m.at(), m.what(), false));
    }

    /**
     * Keeps what the load's report needs beyond its status (RunArtifacts): the script, each runner's summary, the
     * runners' per-second counts, the target's scrapes and the pods' CPU readings.
     */
    private void keepResults(RunContext pass, LoadStep step, BenchmarkRun load, RunnerLogs.Read read) {
        List<RunArtifacts.Entry> entries = new ArrayList<>();
        entries.add(RunArtifacts.Entry.text("k6-script.js", script.script(load).text()));
        for (RunnerResults.RunnerLog log : read.logs()) {
            entries.add(RunArtifacts.Entry.text(
                    "k6-summary-" + (log.runner() > 0 ? log.runner() : log.podName()) + ".json", log.text()));
        }
        if (!read.perSecond().isEmpty()) {
            // Each runner's stream is gzip already; gzip members one after the other are one gzip stream.
            java.io.ByteArrayOutputStream joined = new java.io.ByteArrayOutputStream();
            read.perSecond().forEach(joined::writeBytes);
            entries.add(new RunArtifacts.Entry("k6-per-second.ndjson", joined.toByteArray()));
        }
        measurement.scrapeTexts(load).forEach((name, text) -> entries.add(RunArtifacts.Entry.text(name, text)));
        String prefix = step.isStep() ? String.format(java.util.Locale.ROOT, "step-%02d.", step.number()) : "";
        new RunArtifacts(pass.client()).save(pass.run(), prefix, entries);
    }

    /**
     * Reads every runner's k6 summary from its pod log and ends the measurement of the load with them; empty when the
     * run failed on them.
     *
     * @param startedAtOtherwise when the load started if the runners' summaries do not say
     */
    private Optional<RunMeasurement.Measured> measure(RunContext pass, LoadStep step, String startedAtOtherwise) {
        RunProgress progress = pass.progress();
        BenchmarkRun load = pass.view(step);
        RunnerLogs.Read read = RunnerLogs.read(pass, load);
        if (read.problem().isPresent()) {
            measurement.stop(load);
            progress.resultsUnreadable(read.problem().get());
            return Optional.empty();
        }
        List<RunnerResults.RunnerLog> logs = read.logs();
        RunMeasurement.Result result =
                measurement.end(load, logs, pass.pods(RunLabels.ROLE_TARGET), progress.now(), startedAtOtherwise);
        if (!step.isStep()) {
            // The operator saw the runners start at its last poll; their summaries say when they really did.
            progress.status().setStartedAt(result.startedAt());
        }
        return switch (result) {
            case RunMeasurement.Measured measured -> {
                // Latency from the intended starts: the runners' k6 output writes it when k6 stops.
                IntendedStarts.read(K6PerSecondLog.lines(read.perSecond()).stream(), K6Env.MEASURE_SCENARIO)
                        .summary()
                        .ifPresent(measured.summary()::setIntendedLatencyMs);
                keepResults(pass, step, load, read);
                addPodMilestones(pass, step, load);
                yield Optional.of(measured);
            }
            case RunMeasurement.Unreadable unreadable -> {
                progress.resultsUnreadable(unreadable.reason());
                yield Optional.empty();
            }
        };
    }
}
