package dev.stackbench.operator.run;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.Scenario;
import dev.stackbench.api.status.Conditions;
import dev.stackbench.api.status.Phase;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.lifecycle.RunFacts;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.operator.OperatorSettings;
import dev.stackbench.operator.PoolQueue;
import dev.stackbench.operator.RunLabels;
import dev.stackbench.operator.TargetReadiness;
import dev.stackbench.operator.objects.DelayServiceDeployment;
import dev.stackbench.operator.objects.DelayServiceService;
import dev.stackbench.operator.objects.K6ScriptConfigMap;
import dev.stackbench.operator.objects.ReadinessGate;
import dev.stackbench.operator.objects.RunDatabase;
import dev.stackbench.operator.objects.RunNetworkPolicies;
import dev.stackbench.operator.objects.TargetDeployment;
import dev.stackbench.operator.objects.TargetService;
import dev.stackbench.operator.objects.VerificationPod;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Provisioning: the k6 script (with the spec the run starts with), the run's own database unless it names an external
 * one, the delay service and the target, and whether they are Ready. What readiness means for the run (wait, or fail
 * when one of them is OOMKilled or takes longer than the readiness limit) the run driver decides.
 */
public final class Provisioning {

    private final OperatorSettings settings;
    private final K6ScriptConfigMap script = new K6ScriptConfigMap();
    private final RunDatabase database;
    private final DelayServiceDeployment delayService;
    private final DelayServiceService delayServiceService = new DelayServiceService();
    private final TargetDeployment target;
    private final TargetService targetService = new TargetService();
    private final RunNetworkPolicies networkPolicies;
    private final boolean verifyWork = VerificationPod.enabledFromEnvironment();

    public Provisioning(VariantCatalogue catalogue, OperatorSettings settings) {
        this.settings = settings;
        this.database = new RunDatabase(settings);
        this.delayService = new DelayServiceDeployment(catalogue, settings);
        this.target = new TargetDeployment(catalogue, settings);
        this.networkPolicies = new RunNetworkPolicies(settings);
    }

    /**
     * Whether the run's load was handed to k6-operator: then provisioning is over and readiness is not judged again.
     * The status says so even when the informers have not seen the new TestRun yet. A load that starts early
     * ({@link ReadinessGate}) is handed over only once the target was seen Ready.
     */
    boolean loadHandedOver(RunContext pass) {
        RunProgress progress = pass.progress();
        BenchmarkRun run = pass.run();
        if (progress.reached(Phase.WarmingUp)) {
            return true;
        }
        if (ReadinessGate.applies(run)
                && !Conditions.isTrue(progress.status().getConditions(), Conditions.TARGET_READY)) {
            // The TestRun exists from the start; until the target was seen Ready, readiness is still judged.
            return false;
        }
        return progress.condition(Conditions.LOAD_RUNNING).isPresent()
                || pass.secondary(GenericKubernetesResource.class, RunLabels.testRunName(run))
                        .isPresent()
                || (run.getSpec().getWorkload().isStepped()
                        && !pass.secondaries(GenericKubernetesResource.class).isEmpty());
    }

    /**
     * Whether the database (unless external), the delay service and the target are Ready; broken when one of them was
     * OOMKilled; else which one is not Ready and why.
     */
    RunFacts.Readiness readiness(RunContext pass) {
        BenchmarkRun run = pass.run();
        boolean ownDatabase = RunDatabase.ownDatabase(run);
        boolean databaseReady = !ownDatabase
                || pass.secondary(Deployment.class, RunDatabase.name(run))
                        .map(TargetReadiness::isReady)
                        .orElse(false);
        boolean targetReady = pass.secondary(Deployment.class, RunLabels.targetName(run))
                .map(TargetReadiness::isReady)
                .orElse(false);
        boolean delayReady = pass.secondary(Deployment.class, RunLabels.delayServiceName(run))
                .map(TargetReadiness::isReady)
                .orElse(false);
        if (targetReady && delayReady && databaseReady) {
            return new RunFacts.Ready();
        }
        Optional<String> oomKilled = TargetReadiness.oomKilled(pass.pods(RunLabels.ROLE_TARGET))
                .or(() -> TargetReadiness.oomKilled(pass.pods(RunLabels.ROLE_DELAY_SERVICE)))
                .or(() -> TargetReadiness.oomKilled(pass.pods(RunLabels.ROLE_DATABASE)));
        if (oomKilled.isPresent()) {
            return new RunFacts.Broken(RunProgress.TARGET_OOM_KILLED, oomKilled.get());
        }
        return new RunFacts.NotReady(
                !databaseReady
                        ? TargetReadiness.problem(
                                "database " + RunDatabase.name(run), pass.pods(RunLabels.ROLE_DATABASE))
                        : !targetReady
                                ? TargetReadiness.problem(
                                        "target " + RunLabels.targetName(run), pass.pods(RunLabels.ROLE_TARGET))
                                : TargetReadiness.problem(
                                        "delay service " + RunLabels.delayServiceName(run),
                                        pass.pods(RunLabels.ROLE_DELAY_SERVICE)));
    }

    /** The longest the target may take to become Ready: the operator's limit, at most half the run's timeout. */
    Duration readyLimit(RunContext pass) {
        return ReadinessGate.readyLimit(pass.run(), settings);
    }

    /**
     * Creates what is missing of the run's objects; while something is not Ready, says what ({@code waitingFor}) and
     * looks again soon. False when it created nothing yet (an earlier run's objects are still there, or a custom
     * scenario's module is missing).
     */
    public boolean provision(RunContext pass, Optional<String> waitingFor) {
        RunProgress progress = pass.progress();
        BenchmarkRun run = pass.run();
        List<String> earlier = pass.earlierRunsObjects();
        if (!earlier.isEmpty()) {
            // Deleted and created again before the garbage collector removed the first one's objects: applying ours
            // would take them over (and their pods, with their state), so the run waits until they are gone.
            progress.status()
                    .setMessage("waits until the objects of an earlier BenchmarkRun named "
                            + run.getMetadata().getName()
                            + " are deleted (" + String.join(", ", earlier) + "), then creates its own; if they stay,"
                            + " delete them");
            progress.checkAgainIn(settings.pollInterval());
            return false;
        }
        if (progress.status().getPools() == null) {
            // The claim is fixed with the start: a later edit of the placement frees nothing (PoolQueue).
            progress.status().setPools(PoolQueue.claims(run));
        }
        if (pass.secondary(ConfigMap.class, RunLabels.scriptConfigMapName(run)).isEmpty()) {
            Optional<String> customModule = customModule(pass);
            if (run.getSpec().getWorkload().getScenario() == Scenario.CUSTOM && customModule.isEmpty()) {
                return false;
            }
            ConfigMap desired = script.desired(run, customModule.orElse(null));
            desired.getMetadata()
                    .setAnnotations(Map.of(
                            Admission.SPEC_GENERATION_ANNOTATION,
                            String.valueOf(run.getMetadata().getGeneration())));
            pass.apply(desired);
        }
        // Before any pod of the run exists, so that none of them ever runs unfenced.
        networkPolicies.desired(run).forEach(pass::applyIfMissing);
        if (RunDatabase.ownDatabase(run)) {
            if (pass.secondary(Deployment.class, RunDatabase.name(run)).isEmpty()) {
                pass.createSecretOnce(database.secret(run));
            }
            pass.applyIfMissing(database.deployment(run));
            pass.applyIfMissing(database.service(run));
        }
        pass.applyIfMissing(delayService.desired(run));
        pass.applyIfMissing(delayServiceService.desired(run));
        // The target starts beside its database: its JVM starts while the database is created, and its start-up
        // migration, the first use of the database, tries again every second until the database answers
        // (DB_CONNECT_RETRIES), rather than failing into a crash-loop back-off.
        pass.applyIfMissing(target.desired(run));
        pass.applyIfMissing(
                closedUntilVerified(run, pass.allRuns(), verifyWork)
                        ? targetService.closed(run)
                        : targetService.desired(run));
        waitingFor.ifPresent(progress::waitingForTarget);
        progress.checkAgainIn(settings.pollInterval());
        return true;
    }

    /**
     * Whether the target's Service starts closed, holding the runners' gate shut until the work's verdict: not for a
     * comparison's repetition whose variant was verified by an earlier repetition of the same spec, which takes that
     * verdict as soon as its target is Ready ({@link WorkVerification}). Its gate then opens with the target's
     * readiness itself, not with the operator's pass that records the verdict and opens the Service after it.
     */
    static boolean closedUntilVerified(BenchmarkRun run, List<BenchmarkRun> allRuns, boolean verifyWork) {
        return VerificationPod.gatesTheLoad(run, verifyWork)
                && VerificationReuse.repetition(run, allRuns).isEmpty();
    }

    /**
     * The user's k6 module of a custom scenario, read from the ConfigMap spec.workload.script names; when it is
     * missing the run fails, saying what to create.
     */
    private static Optional<String> customModule(RunContext pass) {
        BenchmarkRun run = pass.run();
        if (run.getSpec().getWorkload().getScenario() != Scenario.CUSTOM) {
            return Optional.empty();
        }
        var ref = run.getSpec().getWorkload().getScript().getConfigMapRef();
        ConfigMap configMap = ref == null
                ? null
                : pass.client()
                        .configMaps()
                        .inNamespace(run.getMetadata().getNamespace())
                        .withName(ref.getName())
                        .get();
        String module = configMap == null || configMap.getData() == null
                ? null
                : configMap.getData().get(ref.getKey());
        if (module == null) {
            String what = ref == null
                    ? "spec.workload.script.configMapRef is not set"
                    : "ConfigMap " + ref.getName() + " with key " + ref.getKey() + " does not exist";
            pass.progress()
                    .fail(
                            "ScriptMissing",
                            what + ": create it in namespace "
                                    + run.getMetadata().getNamespace()
                                    + " with your k6 module, then create the run again");
            return Optional.empty();
        }
        return Optional.of(module);
    }
}
