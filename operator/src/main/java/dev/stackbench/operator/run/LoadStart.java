package dev.stackbench.operator.run;

import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.Conditions;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.operator.OperatorSettings;
import dev.stackbench.operator.RunLabels;
import dev.stackbench.operator.objects.K6TestRun;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;

/**
 * Hands the run's load to k6-operator: its TestRun, created exactly once, and announced in the LoadRunning condition
 * (reason {@value #TEST_RUN_CREATED}) and so in the run's Events.
 */
public final class LoadStart {

    static final String TEST_RUN_CREATED = "TestRunCreated";

    private final K6TestRun testRun;
    private final RunMeasurement measurement;

    public LoadStart(OperatorSettings settings, RunMeasurement measurement) {
        this.testRun = new K6TestRun(settings);
        this.measurement = measurement;
    }

    /** Creates the run's TestRun unless it exists; returns false once the informers see it. */
    public boolean startLoad(RunContext pass) {
        RunProgress progress = pass.progress();
        BenchmarkRun run = pass.run();
        if (pass.secondary(GenericKubernetesResource.class, RunLabels.testRunName(run))
                .isPresent()) {
            return false;
        }
        // The cache may lag behind a TestRun created just before a restart: ask the API server before creating.
        GenericKubernetesResource existing = pass.client()
                .genericKubernetesResources(K6TestRun.CONTEXT)
                .inNamespace(run.getMetadata().getNamespace())
                .withName(RunLabels.testRunName(run))
                .get();
        if (existing == null) {
            measurement.begin(run, progress.now());
            pass.apply(testRun.desired(run));
            announce(progress, run, null, RunLabels.testRunName(run));
        }
        progress.checkAgainIn(pass.settings().pollInterval());
        return true;
    }

    /**
     * Records that the TestRun of the run (or of one step, {@code step} not null) exists and its runners are awaited:
     * the LoadRunning condition turns False with reason TestRunCreated, which also becomes the run's Event.
     */
    static void announce(RunProgress progress, BenchmarkRun run, StepUnderWay step, String name) {
        String runners = run.getSpec().getWorkload().getParallelism() + " runner(s)";
        if (step == null) {
            progress.condition(
                    Conditions.LOAD_RUNNING,
                    false,
                    TEST_RUN_CREATED,
                    "created k6-operator TestRun " + name + " with " + runners + "; waiting for it to start");
            progress.status().setMessage("waiting for the k6 runners to start");
        } else {
            progress.condition(
                    Conditions.LOAD_RUNNING,
                    false,
                    TEST_RUN_CREATED,
                    "created k6-operator TestRun " + name + " for step " + step.number() + " (" + step.level() + " "
                            + step.unit() + ") with " + runners + "; waiting for it to start");
            progress.status()
                    .setMessage(
                            "step " + step.number() + ": waiting for the k6 runners of TestRun " + name + " to start");
        }
    }

    /**
     * Whether the run's LoadRunning condition speaks of this TestRun already. It does not when the reconcile that
     * created the TestRun lost its status write to a conflict: the retry finds the TestRun and must still announce
     * it, or its creation would leave neither a condition nor an Event.
     */
    static boolean announced(RunProgress progress, String name) {
        return progress.condition(Conditions.LOAD_RUNNING)
                .map(Condition::getMessage)
                .filter(message -> message != null && message.contains("TestRun " + name + " "))
                .isPresent();
    }
}
