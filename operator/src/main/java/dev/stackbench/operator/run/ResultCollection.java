package dev.stackbench.operator.run;

import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.RunSummary;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.operator.RunLabels;
import dev.stackbench.operator.RunResults;
import dev.stackbench.operator.RunnerHealth;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Collecting: every runner's k6 summary from its pod log, combined with the target's figures and the pods' CPU into
 * the run's summary, with the environment the run ran in; the run succeeds.
 */
public final class ResultCollection {

    private final RunMeasurement measurement;
    private final EnvironmentRecord environment;

    public ResultCollection(RunMeasurement measurement, EnvironmentRecord environment) {
        this.measurement = measurement;
        this.environment = environment;
    }

    /** Reads the results of the run's finished load; returns true when they cannot be read (the run failed). */
    public boolean collect(RunContext pass) {
        RunProgress progress = pass.progress();
        Optional<RunMeasurement.Measured> measured =
                measure(pass, pass.run(), progress.status().getStartedAt());
        if (measured.isEmpty()) {
            return true;
        }
        RunSummary summary = measured.get().summary();
        progress.status()
                .setEnvironment(
                        environment.describe(pass, pass.run(), measured.get().metrics()));
        progress.generatorChecked(summary, measured.get().finding(), RunMeasurement.keptUp(summary));
        progress.succeeded(summary, measured.get().runners());
        return false;
    }

    /**
     * Reads every runner's k6 summary from its pod log and ends the measurement of the load with them; empty when the
     * run failed on them.
     *
     * @param load the run, or a step's view of it
     * @param startedAtOtherwise when the load started if the runners' summaries do not say
     */
    Optional<RunMeasurement.Measured> measure(RunContext pass, BenchmarkRun load, String startedAtOtherwise) {
        RunProgress progress = pass.progress();
        List<RunResults.RunnerLog> logs = new ArrayList<>();
        for (Pod pod : RunnerHealth.sorted(pass.runnerPods(load))) {
            String log = pass.client()
                    .pods()
                    .inNamespace(load.getMetadata().getNamespace())
                    .withName(pod.getMetadata().getName())
                    .getLog();
            logs.add(new RunResults.RunnerLog(pod.getMetadata().getName(), log == null ? "" : log));
        }
        RunMeasurement.Result result =
                measurement.end(load, logs, pass.pods(RunLabels.ROLE_TARGET), progress.now(), startedAtOtherwise);
        if (RunLabels.step(load).isEmpty()) {
            // The operator saw the runners start at its last poll; their summaries say when they really did.
            progress.status().setStartedAt(result.startedAt());
        }
        return switch (result) {
            case RunMeasurement.Measured measured -> Optional.of(measured);
            case RunMeasurement.Unreadable unreadable -> {
                progress.resultsUnreadable(unreadable.reason());
                yield Optional.empty();
            }
        };
    }
}
