package dev.stackbench.operator.run;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.Conditions;
import dev.stackbench.lifecycle.LoadStep;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.operator.OperatorSettings;
import dev.stackbench.operator.RunLabels;
import dev.stackbench.operator.objects.K6ScriptConfigMap;
import dev.stackbench.operator.objects.K6TestRun;
import dev.stackbench.operator.objects.ReadinessGate;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Map;
import java.util.Optional;

/**
 * Hands a load to k6-operator: its TestRun (and for a step its own script, {@code <run>-s<step>-script}), created
 * exactly once, and announced in the LoadRunning condition (reason {@value #TEST_RUN_CREATED}) and so in the run's
 * Events. A step starts only once the steps before it are gone ({@link SteppedLoadStage#clearEarlierSteps}).
 */
public final class LoadStart {

    static final String TEST_RUN_CREATED = "TestRunCreated";

    private final K6TestRun testRun;
    private final K6ScriptConfigMap script = new K6ScriptConfigMap();
    private final RunMeasurement measurement;
    private final SteppedLoadStage steps;

    public LoadStart(OperatorSettings settings, RunMeasurement measurement, SteppedLoadStage steps) {
        this.testRun = new K6TestRun(settings);
        this.measurement = measurement;
        this.steps = steps;
    }

    /** Creates the load's TestRun unless it exists, then waits for the informers to see it. */
    public void start(RunContext pass, LoadStep load) {
        RunProgress progress = pass.progress();
        BenchmarkRun run = pass.run();
        BenchmarkRun view = pass.view(load);
        String name = RunLabels.testRunName(view);
        progress.checkAgainIn(pass.settings().pollInterval());
        if (exists(pass, name)) {
            return;
        }
        if (load.isStep()) {
            if (steps.clearEarlierSteps(pass, load)) {
                return;
            }
            if (Boolean.TRUE.equals(run.getSpec().getWorkload().getRestartBetweenSteps())
                    && !Conditions.isTrue(progress.status().getConditions(), Conditions.TARGET_READY)) {
                progress.targetReady();
            }
            Optional<String> customModule = pass.secondary(ConfigMap.class, RunLabels.scriptConfigMapName(run))
                    .map(ConfigMap::getData)
                    .map(data -> data.get(K6ScriptConfigMap.CUSTOM_MODULE_KEY));
            measurement.beginStep(run, view, progress.now());
            pass.apply(script.desired(view, customModule.orElse(null)));
        } else {
            measurement.begin(view, progress.now());
        }
        pass.apply(testRun.desired(view));
        announce(progress, run, load, name);
    }

    /**
     * The early start ({@link ReadinessGate}): while the target starts, creates the run's TestRun, whose runners wait
     * in their gate until the target and the delay service answer, and announces it. Nothing of the measurement
     * begins before the target is Ready ({@link LoadFollowing}).
     */
    public void startEarly(RunContext pass) {
        BenchmarkRun run = pass.run();
        if (!ReadinessGate.applies(run)) {
            return;
        }
        LoadStep load = pass.resolved().plainLoad();
        BenchmarkRun view = pass.view(load);
        String name = RunLabels.testRunName(view);
        if (pass.secondary(GenericKubernetesResource.class, name).isPresent() || exists(pass, name)) {
            return;
        }
        GenericKubernetesResource desired = testRun.desired(view);
        desired.getMetadata().setAnnotations(Map.of(ReadinessGate.EARLY_ANNOTATION, "true"));
        pass.apply(desired);
        RunProgress progress = pass.progress();
        progress.condition(
                Conditions.LOAD_RUNNING,
                false,
                TEST_RUN_CREATED,
                "created k6-operator TestRun " + name + " with "
                        + run.getSpec().getWorkload().getParallelism()
                        + " runner(s) while the target starts; its runners start once the target and the delay"
                        + " service answer");
    }

    /** Whether the TestRun exists: the cache may lag behind one created just before a restart, so the API server. */
    private static boolean exists(RunContext pass, String name) {
        return pass.client()
                        .genericKubernetesResources(K6TestRun.CONTEXT)
                        .inNamespace(pass.run().getMetadata().getNamespace())
                        .withName(name)
                        .get()
                != null;
    }

    /**
     * Records that the TestRun of a load exists and its runners are awaited: the LoadRunning condition turns False
     * with reason TestRunCreated, which also becomes the run's Event.
     */
    static void announce(RunProgress progress, BenchmarkRun run, LoadStep load, String name) {
        String runners = run.getSpec().getWorkload().getParallelism() + " runner(s)";
        if (!load.isStep()) {
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
                    "created k6-operator TestRun " + name + " for step " + load.number() + " (" + load.level() + " "
                            + load.unit() + ") with " + runners + "; waiting for it to start");
            progress.status()
                    .setMessage(
                            "step " + load.number() + ": waiting for the k6 runners of TestRun " + name + " to start");
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
