package dev.stackbench.operator;

import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.BenchmarkRunDefaults;
import dev.stackbench.api.BenchmarkRunSpec;
import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.CleanupPolicy;
import dev.stackbench.api.Conditions;
import dev.stackbench.api.Durations;
import dev.stackbench.api.Phase;
import dev.stackbench.api.PodResources;
import dev.stackbench.api.RunEnvironment;
import dev.stackbench.api.RunSummary;
import dev.stackbench.api.Scenario;
import dev.stackbench.api.StepResult;
import dev.stackbench.api.WorkloadSpec;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.lifecycle.SteppedLoad;
import dev.stackbench.model.RunApps;
import dev.stackbench.operator.objects.DelayServiceDeployment;
import dev.stackbench.operator.objects.DelayServiceService;
import dev.stackbench.operator.objects.K6ScriptConfigMap;
import dev.stackbench.operator.objects.K6TestRun;
import dev.stackbench.operator.objects.RunDatabase;
import dev.stackbench.operator.objects.TargetDeployment;
import dev.stackbench.operator.objects.TargetService;
import dev.stackbench.results.GeneratorCheck;
import dev.stackbench.validation.SpecValidator;
import dev.stackbench.validation.Violation;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.SecondaryToPrimaryMapper;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives a BenchmarkRun through its phases, one small step each, in the order they happen:
 * <ol>
 *   <li>{@link #admit} Pending: the spec is valid, its variant in the catalogue; a spec change after the start is
 *       ignored, saying so.
 *   <li>{@link #waitForPools} Queued while another run holds one of its node pools.
 *   <li>{@link #failWhenTimedOut} Failed (TimedOut) once spec.timeout has passed.
 *   <li>{@link #provision} Provisioning: script, delay service and target; wait until both are Ready.
 *   <li>{@link #startLoad} the k6-operator TestRun, created exactly once.
 *   <li>{@link #followLoad} WarmingUp, then Running, by the TestRun's stage and the time since load started;
 *       failed runners fail the run.
 *   <li>{@link #collect} Collecting: every runner's k6 summary from its pod log, combined; Succeeded.
 *   <li>{@link #runSteps} instead of the three above for a sweep or a capacity search: one TestRun per step against the
 *       same target, each followed and read as a run at the step's level, judged into status.steps; the next step
 *       is decided from status.steps alone, so an operator restart goes on with the right step.
 *   <li>{@link #cleanUp} per spec.cleanup once the run has ended; the run and its status stay.
 * </ol>
 * Each step returns true when the run has to wait (for time or for another object to change). A request the API
 * server refuses or fails on the way is handled in one place ({@link ApiErrors}): a missing right stalls the run until
 * it is granted, an object refused as invalid fails the run at once, anything else is retried.
 */
@ControllerConfiguration(name = BenchmarkRunReconciler.NAME)
public class BenchmarkRunReconciler implements Reconciler<BenchmarkRun> {

    public static final String NAME = "benchmarkrun";

    private static final Logger LOG = LoggerFactory.getLogger(BenchmarkRunReconciler.class);
    /** How often the target is scraped while load runs, whatever the reconciles do. */
    static final Duration SCRAPE_INTERVAL = Duration.ofSeconds(2);

    private static final String SPEC_GENERATION_ANNOTATION = "stackbench.dev/spec-generation";
    /** On the target's pod template: the step it was restarted for (spec.workload.restartBetweenSteps). */
    static final String RESTARTED_FOR_STEP_ANNOTATION = "stackbench.dev/restarted-for-step";

    static final String TEST_RUN_CREATED = "TestRunCreated";

    private static final Duration PERMISSION_RETRY = Duration.ofSeconds(5);
    private static final Duration RETRY_MIN = Duration.ofSeconds(1);
    private static final Duration RETRY_MAX = Duration.ofSeconds(30);
    /** How soon after the final status is stored the run's objects are deleted. */
    private static final Duration CLEANUP_AFTER_STORE = Duration.ofSeconds(1);

    private final VariantCatalogue catalogue;
    private final SpecValidator validator;
    private final OperatorSettings settings;
    private final RunResults results;
    private final TargetMetricsScraper scraper;
    private final Clock clock;
    private final TargetDeployment target;
    private final TargetService targetService = new TargetService();
    private final DelayServiceDeployment delayService;
    private final DelayServiceService delayServiceService = new DelayServiceService();
    private final K6ScriptConfigMap script = new K6ScriptConfigMap();
    private final RunDatabase database;
    private final K6TestRun testRun;

    public BenchmarkRunReconciler(
            VariantCatalogue catalogue,
            OperatorSettings settings,
            RunResults results,
            TargetMetricsScraper scraper,
            Clock clock) {
        this.catalogue = catalogue;
        this.validator = new SpecValidator(catalogue);
        this.settings = settings;
        this.results = results;
        this.scraper = scraper;
        this.clock = clock;
        this.target = new TargetDeployment(catalogue, settings);
        this.delayService = new DelayServiceDeployment(catalogue, settings);
        this.testRun = new K6TestRun(settings);
        this.database = new RunDatabase(settings);
    }

    @Override
    public UpdateControl<BenchmarkRun> reconcile(BenchmarkRun resource, Context<BenchmarkRun> context) {
        RunProgress progress = new RunProgress(resource, clock.instant());
        KubernetesClient client = context.getClient();
        try {
            if (!progress.isTerminal()) {
                BenchmarkRun run = withStartedSpec(resource, context);
                boolean waiting = admit(progress, run, context)
                        || waitForPools(progress, context)
                        || failWhenTimedOut(progress, run)
                        || provision(progress, run, context)
                        || (run.getSpec().getWorkload().isStepped()
                                ? runSteps(progress, run, context)
                                : startLoad(progress, run, context)
                                        || followLoad(progress, run, context, null)
                                        || collect(progress, run, context));
                LOG.debug(
                        "run {} in phase {} (waiting: {})",
                        resource.getMetadata().getName(),
                        progress.phase(),
                        waiting);
            }
            cleanUp(progress, withStartedSpec(resource, context), client);
            goOnIfStalled(progress, resource);
        } catch (RuntimeException e) {
            ApiErrors.Failure failure = ApiErrors.of(e).orElseThrow(() -> e);
            switch (failure.handling()) {
                case WAIT_FOR_PERMISSION -> stall(progress, "Forbidden", failure.forbiddenMessage(), PERMISSION_RETRY);
                case FAIL -> failOnRefusedObject(progress, failure);
                case RETRY -> stall(progress, "RequestFailed", failure.retryMessage(), retryDelay(progress));
            }
        }
        if (progress.isTerminal() && progress.condition(RunProgress.CLEANED_UP).isEmpty()) {
            // Cleanup waits for the next pass, when the final status with the results is stored. Nothing the run
            // watches changes by then, so that pass is asked for: soon, since a comparison or a queued run waits on
            // the cleanup.
            Duration soon = CLEANUP_AFTER_STORE.compareTo(settings.pollInterval()) < 0
                    ? CLEANUP_AFTER_STORE
                    : settings.pollInterval();
            progress.checkAgainIn(soon);
        }
        return finish(progress, client);
    }

    /**
     * A pass failed on something else than an API request (the reconciler handles those itself). java-operator-sdk
     * retries it a few times and then waits for the next event, which a run waiting on time alone never gets: after
     * the last retry the run is looked at again later, so it still ends, at the latest at spec.timeout.
     */
    @Override
    public ErrorStatusUpdateControl<BenchmarkRun> updateErrorStatus(
            BenchmarkRun resource, Context<BenchmarkRun> context, Exception e) {
        if (context.getRetryInfo().map(RetryInfo::isLastAttempt).orElse(false)) {
            LOG.error(
                    "run {}: reconciling failed after retries, trying again in {}",
                    resource.getMetadata().getName(),
                    RETRY_MAX,
                    e);
            return ErrorStatusUpdateControl.<BenchmarkRun>noStatusUpdate()
                    .withNoRetry()
                    .rescheduleAfter(RETRY_MAX);
        }
        return ErrorStatusUpdateControl.defaultErrorProcessing();
    }

    /**
     * A request of this run failed in a way that may pass (a right to be granted, an API server to recover): the
     * run waits, saying what failed and what to do, and tries again; spec.timeout ends the wait. The message of a
     * finished run stays its result; the condition tells what its cleanup waits for.
     */
    private void stall(RunProgress progress, String reason, String message, Duration retry) {
        LOG.warn("run {}: {}", progress.run().getMetadata().getName(), message);
        progress.problem(RunProgress.STALLED, reason, message);
        if (!progress.isTerminal()) {
            progress.status().setMessage(message);
        }
        progress.checkAgainIn(retry);
    }

    /**
     * The API server refused an object this run needs as invalid: asking again cannot help, so the run fails now,
     * releasing its node pools; cleanup then removes what it created, per spec.cleanup.
     */
    private void failOnRefusedObject(RunProgress progress, ApiErrors.Failure failure) {
        LOG.warn(
                "run {}: {} refused: {}",
                progress.run().getMetadata().getName(),
                failure.request(),
                failure.serverMessage());
        progress.fail("RejectedByApiServer", failure.invalidMessage());
        endStall(progress, "RunEnded", "the run ended without waiting any longer");
    }

    /**
     * A pass went through without a failed request: a stalled run goes on, and its message, which told why it
     * waited, says so instead of describing a wait that is over.
     */
    private void goOnIfStalled(RunProgress progress, BenchmarkRun stored) {
        Optional<Condition> stalled =
                progress.condition(RunProgress.STALLED).filter(c -> Conditions.TRUE.equals(c.getStatus()));
        if (stalled.isEmpty()) {
            return;
        }
        // A run failing in this pass (spec.timeout) did not get past the failed request: it stopped waiting.
        boolean failedNow = progress.phase() == Phase.Failed
                && (stored.getStatus() == null || stored.getStatus().getPhase() != Phase.Failed);
        if (failedNow) {
            endStall(progress, "RunEnded", "the run ended while it waited");
            return;
        }
        String waitedFor = stalled.get().getMessage();
        String message = "Forbidden".equals(stalled.get().getReason())
                ? "the operator has the rights this run needs again"
                : "the API server completes the operator's requests again";
        progress.condition(
                RunProgress.STALLED,
                false,
                "Forbidden".equals(stalled.get().getReason()) ? "PermissionGranted" : "RequestsSucceed",
                message);
        if (!progress.isTerminal() && Objects.equals(progress.status().getMessage(), waitedFor)) {
            progress.status().setMessage(message + "; the run goes on (" + progress.phase() + ")");
        }
    }

    private static void endStall(RunProgress progress, String reason, String message) {
        if (progress.condition(RunProgress.STALLED)
                .filter(c -> Conditions.TRUE.equals(c.getStatus()))
                .isPresent()) {
            progress.condition(RunProgress.STALLED, false, reason, message);
        }
    }

    /** Retries of a failing request back off with the time the run has been stalled, from 1 s to 30 s. */
    private static Duration retryDelay(RunProgress progress) {
        Duration stalledFor = progress.trueSince(RunProgress.STALLED)
                .map(since -> Duration.between(since, progress.now()))
                .orElse(Duration.ZERO);
        if (stalledFor.compareTo(RETRY_MIN) < 0) {
            return RETRY_MIN;
        }
        return stalledFor.compareTo(RETRY_MAX) > 0 ? RETRY_MAX : stalledFor;
    }

    // ---------------------------------------------------------------------------------------------------------
    // The phases

    private boolean admit(RunProgress progress, BenchmarkRun run, Context<BenchmarkRun> context) {
        progress.accepted();
        // The API server checked the schema and CEL rules; the catalogue (the variant) and k6's thresholds only the
        // operator knows: a spec breaking them fails here, before the run takes its pools or creates anything.
        List<Violation> violations = validator.validate(run.getSpec());
        if (!violations.isEmpty()) {
            progress.fail(
                    "InvalidSpec",
                    violations.stream().map(Violation::toString).collect(java.util.stream.Collectors.joining("; ")));
            return true;
        }
        Optional<Long> started = startedGeneration(context, run);
        if (started.isPresent() && !Objects.equals(run.getMetadata().getGeneration(), started.get())) {
            progress.condition(
                    RunProgress.SPEC_CHANGE_IGNORED,
                    true,
                    "RunInProgress",
                    "the spec changed (generation "
                            + run.getMetadata().getGeneration() + ") after the run started with generation "
                            + started.get() + ": the run continues with the spec it started with; create a new"
                            + " BenchmarkRun to run the changed spec");
        }
        return false;
    }

    private boolean waitForPools(RunProgress progress, Context<BenchmarkRun> context) {
        if (progress.reached(Phase.Provisioning)) {
            return false;
        }
        List<BenchmarkRun> runs = context.getPrimaryCache().list().toList();
        Optional<PoolQueue.Wait> wait = PoolQueue.waitFor(progress.run(), runs);
        if (wait.isPresent()) {
            progress.moveTo(Phase.Queued, "WaitingForPool", wait.get().message());
            progress.condition(
                    RunProgress.POOLS_AVAILABLE,
                    false,
                    "WaitingForPool",
                    wait.get().message());
            progress.status().setMessage(wait.get().message());
            progress.checkAgainIn(settings.pollInterval());
            return true;
        }
        progress.poolsAcquired("no other run uses the node pools of this run");
        return false;
    }

    private boolean failWhenTimedOut(RunProgress progress, BenchmarkRun run) {
        Duration timeout = Durations.parse(run.getSpec().getTimeout());
        Instant start = startOf(progress);
        if (progress.now().isAfter(start.plus(timeout))) {
            progress.fail(
                    "TimedOut",
                    "the run did not finish within spec.timeout ("
                            + run.getSpec().getTimeout()
                            + "); it was in phase " + progress.phase() + ": "
                            + progress.status().getMessage()
                            + ". Raise spec.timeout or look at the events of the run");
            return true;
        }
        progress.checkAgainIn(
                Duration.between(progress.now(), start.plus(timeout)).plusMillis(100));
        return false;
    }

    private boolean provision(RunProgress progress, BenchmarkRun run, Context<BenchmarkRun> context) {
        // Once load has been handed to k6-operator, provisioning is done: readiness is not judged again. The
        // status says so even when the informer has not seen the new TestRun yet.
        if (progress.reached(Phase.WarmingUp)
                || progress.condition(Conditions.LOAD_RUNNING).isPresent()
                || secondary(context, GenericKubernetesResource.class, RunLabels.testRunName(run))
                        .isPresent()
                || (run.getSpec().getWorkload().isStepped()
                        && !context.getSecondaryResources(GenericKubernetesResource.class)
                                .isEmpty())) {
            // The status write that recorded TargetReady can lose a conflict while the TestRun it went with stays:
            // the TestRun exists only because the target was Ready, so the condition is put back. A target
            // restarted between steps reports its own readiness (restartBeforeStep).
            if (!Conditions.isTrue(progress.status().getConditions(), Conditions.TARGET_READY)
                    && !Boolean.TRUE.equals(run.getSpec().getWorkload().getRestartBetweenSteps())) {
                progress.targetReady();
            }
            return false;
        }
        KubernetesClient client = context.getClient();
        if (secondary(context, ConfigMap.class, RunLabels.scriptConfigMapName(run))
                .isEmpty()) {
            Optional<String> customModule = customModule(progress, run, client);
            if (run.getSpec().getWorkload().getScenario() == Scenario.CUSTOM && customModule.isEmpty()) {
                return true;
            }
            ConfigMap desired = script.desired(run, customModule.orElse(null));
            desired.getMetadata()
                    .setAnnotations(Map.of(
                            SPEC_GENERATION_ANNOTATION,
                            String.valueOf(run.getMetadata().getGeneration())));
            apply(client, desired);
        }
        boolean ownDatabase = ownDatabase(run);
        if (ownDatabase) {
            if (secondary(context, Deployment.class, RunDatabase.name(run)).isEmpty()) {
                createSecretOnce(client, database.secret(run));
            }
            applyIfMissing(context, client, database.deployment(run));
            applyIfMissing(context, client, database.service(run));
        }
        applyIfMissing(context, client, delayService.desired(run));
        applyIfMissing(context, client, delayServiceService.desired(run));
        boolean databaseReady = !ownDatabase
                || secondary(context, Deployment.class, RunDatabase.name(run))
                        .map(TargetReadiness::isReady)
                        .orElse(false);
        // The target starts beside its database: its JVM starts while the database is created, and its start-up
        // migration, the first use of the database, tries again every second until the database answers
        // (DB_CONNECT_RETRIES), rather than failing into a crash-loop back-off.
        applyIfMissing(context, client, target.desired(run));
        applyIfMissing(context, client, targetService.desired(run));

        Optional<Deployment> targetDeployment = secondary(context, Deployment.class, RunLabels.targetName(run));
        Optional<Deployment> delayDeployment = secondary(context, Deployment.class, RunLabels.delayServiceName(run));
        boolean targetReady = targetDeployment.map(TargetReadiness::isReady).orElse(false);
        boolean delayReady = delayDeployment.map(TargetReadiness::isReady).orElse(false);
        if (targetReady && delayReady && databaseReady) {
            progress.targetReady();
            return false;
        }
        Optional<String> oomKilled = TargetReadiness.oomKilled(pods(context, run, RunLabels.ROLE_TARGET))
                .or(() -> TargetReadiness.oomKilled(pods(context, run, RunLabels.ROLE_DELAY_SERVICE)))
                .or(() -> TargetReadiness.oomKilled(pods(context, run, RunLabels.ROLE_DATABASE)));
        if (oomKilled.isPresent()) {
            progress.condition(Conditions.TARGET_READY, false, RunProgress.TARGET_OOM_KILLED, oomKilled.get());
            progress.fail(RunProgress.TARGET_OOM_KILLED, oomKilled.get());
            return true;
        }
        String problem = !databaseReady
                ? TargetReadiness.problem(
                        "database " + RunDatabase.name(run), pods(context, run, RunLabels.ROLE_DATABASE))
                : !targetReady
                        ? TargetReadiness.problem(
                                "target " + RunLabels.targetName(run), pods(context, run, RunLabels.ROLE_TARGET))
                        : TargetReadiness.problem(
                                "delay service " + RunLabels.delayServiceName(run),
                                pods(context, run, RunLabels.ROLE_DELAY_SERVICE));
        Duration limit = readyLimit(run);
        if (progress.now().isAfter(startOf(progress).plus(limit))) {
            progress.targetNotReady(limit, problem);
            return true;
        }
        progress.waitingForTarget(problem);
        progress.checkAgainIn(settings.pollInterval());
        return true;
    }

    private boolean startLoad(RunProgress progress, BenchmarkRun run, Context<BenchmarkRun> context) {
        if (secondary(context, GenericKubernetesResource.class, RunLabels.testRunName(run))
                .isPresent()) {
            return false;
        }
        KubernetesClient client = context.getClient();
        // The cache may lag behind a TestRun created just before a restart: ask the API server before creating.
        GenericKubernetesResource existing = client.genericKubernetesResources(K6TestRun.CONTEXT)
                .inNamespace(run.getMetadata().getNamespace())
                .withName(RunLabels.testRunName(run))
                .get();
        if (existing == null) {
            // A reading of the target's and delay service's CPU counters before the load: the kubelet refreshes them
            // only every 10-20 s by default, so a short window may otherwise hold fewer than the two readings a figure
            // needs.
            scraper.scrapePodCpu(run, progress.now());
            apply(client, testRun.desired(run));
            announceTestRun(progress, run, null, RunLabels.testRunName(run));
        }
        progress.checkAgainIn(settings.pollInterval());
        return true;
    }

    /**
     * Follows the TestRun of the run, or of one step of a sweep or a capacity search ({@code step} not null, {@code run}
     * the step's view): returns false once its runners have finished.
     */
    private boolean followLoad(RunProgress progress, BenchmarkRun run, Context<BenchmarkRun> context, StepInfo step) {
        String name = RunLabels.testRunName(run);
        Optional<GenericKubernetesResource> testRun = secondary(context, GenericKubernetesResource.class, name);
        String stage = testRun.map(K6TestRun::stage).orElse(null);
        List<Pod> runnerPods = runnerPods(context, run);
        List<Job> runnerJobs = context.getClient()
                .batch()
                .v1()
                .jobs()
                .inNamespace(run.getMetadata().getNamespace())
                .withLabel(RunLabels.K6_TEST_RUN, name)
                .list()
                .getItems();
        // A target that restarted once it was Ready (OOMKilled, crashed) measured two processes: nothing it reports
        // counts. A start that failed before it was Ready (e.g. while the database came up) does not matter.
        Instant ready =
                TargetReadiness.readySince(progress.trueSince(Conditions.TARGET_READY), testRun, startOf(progress));
        Optional<String> targetRestart = TargetReadiness.restarted(pods(context, run, RunLabels.ROLE_TARGET), ready)
                .map(why -> "target " + why + " after it was Ready; its figures would mix two processes");
        if (targetRestart.isPresent()) {
            String reason = targetRestart.get().contains(TargetReadiness.OOM_KILLED)
                    ? RunProgress.TARGET_OOM_KILLED
                    : RunProgress.TARGET_RESTARTED;
            progress.fail(reason, targetRestart.get());
            return true;
        }
        Optional<String> runnerFailure = RunnerHealth.failure(runnerJobs, runnerPods);
        if (runnerFailure.isPresent()) {
            progress.loadGeneratorFailed("RunnerFailed", runnerFailure.get());
            return true;
        }
        if ("error".equals(stage)) {
            progress.loadGeneratorFailed(
                    RunProgress.LOAD_GENERATOR_FAILED,
                    "k6-operator reports TestRun " + name + " in stage error: see its"
                            + " status and the k6-operator logs");
            return true;
        }
        boolean started = "started".equals(stage) || "stopped".equals(stage) || "finished".equals(stage);
        if (!started && !announced(progress, name)) {
            announceTestRun(progress, run, step, name);
            progress.checkAgainIn(settings.pollInterval());
            return true;
        }
        if (!started) {
            // k6-operator waits for every runner; one that cannot be placed or pulled would hold the run silently.
            // The message follows the runners, so a problem that went away does not outlive its cause.
            Optional<String> problem = TargetReadiness.startProblem(runnerPods);
            String message = problem.map(why -> "k6 runners of TestRun " + name + " cannot start: " + why)
                    .orElse("waiting for the k6 runners of TestRun " + name + " to start");
            progress.condition(
                    Conditions.LOAD_RUNNING,
                    false,
                    problem.isPresent() ? "RunnersNotStarted" : "WaitingForRunners",
                    message);
            progress.status().setMessage(message);
            progress.checkAgainIn(settings.pollInterval());
            return true;
        }
        boolean finished = "finished".equals(stage)
                && RunnerHealth.allFinished(
                        runnerPods, run.getSpec().getWorkload().getParallelism());
        if (step != null && !Conditions.isTrue(progress.status().getConditions(), Conditions.LOAD_RUNNING)) {
            // Once per step: each step's TestRun is created with LoadRunning False.
            progress.stepStarted(
                    step.number(),
                    step.level(),
                    step.unit(),
                    step.maxSteps(),
                    run.getSpec().getWorkload().getWarmup(),
                    run.getSpec().getWorkload().getDuration());
        }
        if (finished) {
            progress.loadRunning(runnerPods.size(), TargetService.url(run));
            if (step == null) {
                progress.loadFinished(run.getSpec().getWorkload().getParallelism());
            }
            return false;
        }
        progress.loadRunning(runnerPods.size(), TargetService.url(run));
        Duration elapsed = Duration.between(Instant.parse(progress.status().getStartedAt()), progress.now());
        Duration warmup = Durations.parse(run.getSpec().getWorkload().getWarmup());
        // From the start of load: the server-side check needs a scrape before the measured window too. The clock
        // keeps scraping between reconciles.
        scraper.scrape(run, pods(context, run, RunLabels.ROLE_TARGET), progress.now());
        scraper.scrapeEvery(run, SCRAPE_INTERVAL);
        if (step != null && step.number() > 1) {
            // The phase is Running since the first step; the message says which step runs.
            progress.checkAgainIn(settings.pollInterval());
            return true;
        }
        if (elapsed.compareTo(warmup) < 0) {
            progress.warmingUp(run.getSpec().getWorkload().getWarmup());
            // Scrapes come with reconciles: several during the warmup, so one lies close before the window.
            Duration left = warmup.minus(elapsed);
            progress.checkAgainIn(left.compareTo(settings.pollInterval()) < 0 ? left : settings.pollInterval());
        } else {
            progress.measuring(run.getSpec().getWorkload().getDuration());
        }
        progress.checkAgainIn(settings.pollInterval());
        return true;
    }

    private boolean collect(RunProgress progress, BenchmarkRun run, Context<BenchmarkRun> context) {
        Optional<Measured> measured =
                measure(progress, run, context, progress.status().getStartedAt());
        if (measured.isEmpty()) {
            return true;
        }
        RunSummary summary = measured.get().summary();
        progress.status()
                .setEnvironment(environment(run, context, measured.get().metrics()));
        progress.generatorChecked(summary, generatorJudgement(summary));
        progress.succeeded(summary, measured.get().runners());
        return false;
    }

    /**
     * What the runners of a finished TestRun measured, with the target's scrapes and the pods' CPU.
     *
     * @param run the run, or a step's view of it
     * @param startedAt when the load started if the runners' summaries do not say
     */
    private record Measured(
            RunSummary summary,
            Optional<GeneratorCheck.Finding> finding,
            int runners,
            TargetMetricsScraper.Outcome metrics,
            String startedAt) {}

    /** Reads every runner's k6 summary from its pod log and combines them; empty when the run failed on them. */
    private Optional<Measured> measure(
            RunProgress progress, BenchmarkRun run, Context<BenchmarkRun> context, String startedAtOtherwise) {
        KubernetesClient client = context.getClient();
        List<RunResults.RunnerLog> logs = new ArrayList<>();
        for (Pod pod : RunnerHealth.sorted(runnerPods(context, run))) {
            String log = client.pods()
                    .inNamespace(run.getMetadata().getNamespace())
                    .withName(pod.getMetadata().getName())
                    .getLog();
            logs.add(new RunResults.RunnerLog(pod.getMetadata().getName(), log == null ? "" : log));
        }
        scraper.stopScraping(run);
        // One scrape after the load stopped, so the window's end lies between two scrapes.
        scraper.scrape(run, pods(context, run, RunLabels.ROLE_TARGET), progress.now());
        scraper.scrapePodCpu(run, progress.now());
        String startedAt = results.loadStartedAt(logs).map(Conditions::format).orElse(startedAtOtherwise);
        if (RunLabels.step(run).isEmpty()) {
            // The operator saw the runners start at its last poll; their summaries say when they really did.
            progress.status().setStartedAt(startedAt);
        }
        TargetMetricsScraper.Outcome metrics = scraper.finish(run, startedAt);
        RunSummary summary;
        try {
            summary = results.summarize(run, logs, metrics.summary().orElse(null));
        } catch (IllegalArgumentException e) {
            progress.resultsUnreadable(e.getMessage());
            return Optional.empty();
        }
        metrics.warning().ifPresent(reason -> addWarning(summary, reason));
        scraper.checkServerSide(run, startedAt, summary);
        Optional<GeneratorCheck.Finding> finding = addPodCpu(summary, scraper.podCpu(run, startedAt), metrics.pods());
        return Optional.of(new Measured(summary, finding, logs.size(), metrics, startedAt));
    }

    // ---------------------------------------------------------------------------------------------------------
    // Sweeps and capacity searches: one step after another against the same target

    /** The step under way: its number (1 for the first), its level, what the level counts, the most steps. */
    private record StepInfo(int number, int level, String unit, int maxSteps) {}

    /**
     * Runs the steps of a sweep or a capacity search one after another, each with a TestRun and a script of its own
     * ({@code <run>-s<step>}, {@code <run>-s<step>-script}). The status is the state: status.steps holds the steps
     * judged so far, so the step under way is the next one {@link SteppedLoad#next} gives, whatever happened to the
     * operator in between; its TestRun is looked up before it is created, so no step's TestRun is created twice.
     */
    private boolean runSteps(RunProgress progress, BenchmarkRun run, Context<BenchmarkRun> context) {
        WorkloadSpec workload = run.getSpec().getWorkload();
        List<StepResult> done = progress.status().getSteps() == null
                ? List.of()
                : List.copyOf(progress.status().getSteps());
        SteppedLoad.Next next = SteppedLoad.next(workload, done);
        if (next instanceof SteppedLoad.Done finished) {
            finishSteps(progress, run, finished);
            return false;
        }
        int level = ((SteppedLoad.Step) next).level();
        StepInfo step =
                new StepInfo(done.size() + 1, level, SteppedLoad.unit(workload), SteppedLoad.maxSteps(workload));
        BenchmarkRun stepRun = RunLabels.forStep(run, step.number(), SteppedLoad.specFor(run.getSpec(), level));
        if (startStep(progress, run, stepRun, step, context)
                || followLoad(progress, stepRun, context, step)
                || collectStep(progress, run, stepRun, step, context)) {
            return true;
        }
        // The step is judged: the run ends in this pass when it was the last, else the next step starts next pass,
        // once this one's result is stored.
        SteppedLoad.Next after = SteppedLoad.next(workload, progress.status().getSteps());
        if (after instanceof SteppedLoad.Done finished) {
            finishSteps(progress, run, finished);
            return false;
        }
        progress.checkAgainIn(settings.pollInterval());
        return true;
    }

    /**
     * Creates the step's script and TestRun, once: first the TestRuns of the steps before are deleted and their pods
     * gone, and with spec.workload.restartBetweenSteps the target restarted and Ready again. Returns false once the
     * step's TestRun exists.
     */
    private boolean startStep(
            RunProgress progress,
            BenchmarkRun run,
            BenchmarkRun stepRun,
            StepInfo step,
            Context<BenchmarkRun> context) {
        String name = RunLabels.testRunName(stepRun);
        if (secondary(context, GenericKubernetesResource.class, name).isPresent()) {
            return false;
        }
        KubernetesClient client = context.getClient();
        String namespace = run.getMetadata().getNamespace();
        // The cache may lag behind a TestRun created just before a restart: ask the API server before creating.
        if (client.genericKubernetesResources(K6TestRun.CONTEXT)
                        .inNamespace(namespace)
                        .withName(name)
                        .get()
                != null) {
            progress.checkAgainIn(settings.pollInterval());
            return true;
        }
        List<String> earlier = context.getSecondaryResources(GenericKubernetesResource.class).stream()
                .map(testRun -> testRun.getMetadata().getName())
                .filter(other -> !other.equals(name))
                .sorted()
                .toList();
        if (!earlier.isEmpty()) {
            for (String other : earlier) {
                client.genericKubernetesResources(K6TestRun.CONTEXT)
                        .inNamespace(namespace)
                        .withName(other)
                        .delete();
            }
            progress.status()
                    .setMessage("deleting TestRun " + String.join(", ", earlier) + " before step " + step.number());
            progress.checkAgainIn(settings.pollInterval());
            return true;
        }
        List<String> leftover = context.getSecondaryResources(Pod.class).stream()
                .filter(pod -> pod.getMetadata().getLabels().containsKey(RunLabels.K6_TEST_RUN))
                .map(pod -> pod.getMetadata().getName())
                .sorted()
                .toList();
        if (!leftover.isEmpty()) {
            progress.status()
                    .setMessage("waiting for the k6 pods of the step before (" + String.join(", ", leftover)
                            + ") to be deleted before step " + step.number());
            progress.checkAgainIn(settings.pollInterval());
            return true;
        }
        if (step.number() > 1
                && Boolean.TRUE.equals(run.getSpec().getWorkload().getRestartBetweenSteps())
                && restartTarget(progress, run, step, context)) {
            return true;
        }
        Optional<String> customModule = secondary(context, ConfigMap.class, RunLabels.scriptConfigMapName(run))
                .map(ConfigMap::getData)
                .map(data -> data.get(K6ScriptConfigMap.CUSTOM_MODULE_KEY));
        // A step's scrapes are its own: those of the step before are summarised in its result already.
        scraper.startOver(run);
        scraper.scrapePodCpu(stepRun, progress.now());
        apply(client, script.desired(stepRun, customModule.orElse(null)));
        apply(client, testRun.desired(stepRun));
        announceTestRun(progress, run, step, name);
        progress.checkAgainIn(settings.pollInterval());
        return true;
    }

    /**
     * Records that the TestRun of the run (or of one step, {@code step} not null) exists and its runners are awaited:
     * the LoadRunning condition turns False with reason TestRunCreated, which also becomes the run's Event.
     */
    private static void announceTestRun(RunProgress progress, BenchmarkRun run, StepInfo step, String name) {
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
    private static boolean announced(RunProgress progress, String name) {
        return progress.condition(Conditions.LOAD_RUNNING)
                .map(Condition::getMessage)
                .filter(message -> message != null && message.contains("TestRun " + name + " "))
                .isPresent();
    }

    /**
     * Restarts the target's pods for the step (spec.workload.restartBetweenSteps) by marking its pod template with the
     * step, once, and waits until every target pod is of that template and Ready. Returns true while it waits.
     */
    private boolean restartTarget(
            RunProgress progress, BenchmarkRun run, StepInfo step, Context<BenchmarkRun> context) {
        KubernetesClient client = context.getClient();
        String name = RunLabels.targetName(run);
        String marker = Integer.toString(step.number());
        Deployment deployment = client.apps()
                .deployments()
                .inNamespace(run.getMetadata().getNamespace())
                .withName(name)
                .get();
        if (deployment == null) {
            progress.targetNotReady("the target Deployment " + name + " was deleted while the run went on: create"
                    + " the run again and leave its objects alone until it has ended");
            return true;
        }
        Map<String, String> annotations = deployment.getSpec().getTemplate().getMetadata() == null
                ? null
                : deployment.getSpec().getTemplate().getMetadata().getAnnotations();
        if (annotations == null || !marker.equals(annotations.get(RESTARTED_FOR_STEP_ANNOTATION))) {
            String patch = "{\"spec\":{\"template\":{\"metadata\":{\"annotations\":{\"" + RESTARTED_FOR_STEP_ANNOTATION
                    + "\":\"" + marker + "\"}}}}}";
            try {
                client.apps()
                        .deployments()
                        .inNamespace(run.getMetadata().getNamespace())
                        .withName(name)
                        .patch(
                                io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                                        io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
                                patch);
            } catch (KubernetesClientException e) {
                throw new ApiErrors.RequestFailed(ApiErrors.describe("patch", deployment), deployment, e);
            }
            progress.waitingForTarget("restarting target " + name + " before step " + step.number()
                    + " (spec.workload.restartBetweenSteps)");
            progress.checkAgainIn(settings.pollInterval());
            return true;
        }
        List<Pod> targetPods = pods(context, run, RunLabels.ROLE_TARGET);
        Integer wanted = deployment.getSpec().getReplicas();
        boolean restarted = TargetReadiness.isReady(deployment)
                && wanted != null
                && targetPods.size() == wanted
                && targetPods.stream()
                        .allMatch(pod -> pod.getMetadata().getDeletionTimestamp() == null
                                && pod.getMetadata().getAnnotations() != null
                                && marker.equals(
                                        pod.getMetadata().getAnnotations().get(RESTARTED_FOR_STEP_ANNOTATION)));
        if (restarted) {
            if (!Conditions.isTrue(progress.status().getConditions(), Conditions.TARGET_READY)) {
                progress.targetReady();
            }
            return false;
        }
        Optional<String> oomKilled = TargetReadiness.oomKilled(targetPods);
        if (oomKilled.isPresent()) {
            progress.condition(Conditions.TARGET_READY, false, RunProgress.TARGET_OOM_KILLED, oomKilled.get());
            progress.fail(RunProgress.TARGET_OOM_KILLED, oomKilled.get());
            return true;
        }
        progress.waitingForTarget("target " + name + " restarting before step " + step.number() + ": "
                + TargetReadiness.problem("target " + name, targetPods));
        progress.checkAgainIn(settings.pollInterval());
        return true;
    }

    /**
     * Reads the step's results as those of a run at its level, judges them, and adds them to status.steps; the best
     * step so far keeps its whole summary in status.summary, so a later step that fails loses nothing.
     */
    private boolean collectStep(
            RunProgress progress,
            BenchmarkRun run,
            BenchmarkRun stepRun,
            StepInfo step,
            Context<BenchmarkRun> context) {
        // Without a start time in the runners' summaries: when the operator saw the step's runners start.
        String startedOtherwise = progress.trueSince(Conditions.LOAD_RUNNING)
                .map(Conditions::format)
                .orElseGet(() -> Conditions.format(progress.now()));
        Optional<Measured> measured = measure(progress, stepRun, context, startedOtherwise);
        if (measured.isEmpty()) {
            return true;
        }
        RunSummary summary = measured.get().summary();
        StepResult result = SteppedLoad.judge(
                run.getSpec().getWorkload(),
                step.number(),
                step.level(),
                summary,
                measured.get().finding(),
                generatorCores(summary));
        result.setStartedAt(measured.get().startedAt());
        result.setFinishedAt(Conditions.format(progress.now()));
        if (step.number() == 1) {
            progress.status().setStartedAt(measured.get().startedAt());
        }
        progress.stepFinished(result);
        Optional<StepResult> best = SteppedLoad.best(progress.status().getSteps());
        if (best.isPresent() && best.get().getStep() == step.number()) {
            summary.setStep(step.number());
            progress.status().setSummary(summary);
            progress.status()
                    .setEnvironment(environment(stepRun, context, measured.get().metrics()));
        }
        return false;
    }

    /** The runners' CPU in cores during the step, all runners together; null when the kubelets gave none. */
    private static Double generatorCores(RunSummary summary) {
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

    /** No step follows: the run keeps the best step's summary (in status.summary since that step) and succeeds. */
    private void finishSteps(RunProgress progress, BenchmarkRun run, SteppedLoad.Done done) {
        scraper.stopScraping(run);
        List<StepResult> steps = progress.status().getSteps();
        Optional<StepResult> best = SteppedLoad.best(steps == null ? List.of() : steps);
        RunSummary kept = progress.status().getSummary();
        if (best.isEmpty()
                || kept == null
                || !Objects.equals(kept.getStep(), best.get().getStep())) {
            progress.resultsUnreadable("the summary of the step the run keeps is missing from status.summary"
                    + " (status.steps has " + (steps == null ? 0 : steps.size()) + " steps): create the run again");
            return;
        }
        progress.stepsDone(done, kept, best.get().getStep());
        progress.loadFinished(run.getSpec().getWorkload().getParallelism());
        progress.generatorChecked(kept, generatorJudgement(kept));
        progress.succeeded(
                kept, kept.getRunners() == null ? run.getSpec().getWorkload().getParallelism() : kept.getRunners());
    }

    /**
     * Each pod's CPU into the summary, the target's throttling into its figures (the most throttled target pod: one
     * throttled replica is enough to slow the requests it serves), and the generator check.
     */
    private static Optional<GeneratorCheck.Finding> addPodCpu(
            RunSummary summary,
            TargetMetricsScraper.PodCpu podCpu,
            Map<String, dev.stackbench.api.TargetSummary> targetPods) {
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
        return generatorFinding(summary);
    }

    /** What the generator check finds in a summary's pods and dropped iterations. */
    private static Optional<GeneratorCheck.Finding> generatorFinding(RunSummary summary) {
        return generatorJudgement(summary).finding();
    }

    /** The start of a warning about a pod whose CPU the kubelets did not give over the window. */
    static final String NO_CPU_FIGURES = "no CPU figures for ";

    /**
     * The generator check over a summary's runner pods and dropped iterations; when no runner's CPU was read, the
     * warnings saying why explain the condition.
     */
    private static GeneratorCheck.Judgement generatorJudgement(RunSummary summary) {
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

    /**
     * Each target pod's own JVM figures (threads, heap, GC) beside its CPU from the kubelet; a target pod the kubelet
     * gave no CPU reading for still gets an entry with its JVM figures.
     */
    static List<PodResources> withTargetFigures(
            List<PodResources> pods, Map<String, dev.stackbench.api.TargetSummary> targetPods) {
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

    private void cleanUp(RunProgress progress, BenchmarkRun run, KubernetesClient client) {
        boolean stored = run.getStatus() != null
                && run.getStatus().getPhase() != null
                && run.getStatus().getPhase().isTerminal();
        if (!stored || progress.condition(RunProgress.CLEANED_UP).isPresent()) {
            return;
        }
        scraper.forget(run);
        CleanupPolicy policy = run.getSpec().getCleanup() == null
                ? CleanupPolicy.ALWAYS
                : run.getSpec().getCleanup();
        boolean delete = policy == CleanupPolicy.ALWAYS
                || (policy == CleanupPolicy.ON_SUCCESS && progress.phase() == Phase.Succeeded);
        if (!delete) {
            progress.cleanedUp(
                    false,
                    "kept the target, delay service, " + (ownDatabase(run) ? "database, " : "")
                            + "k6 script and TestRun (spec.cleanup " + policy.value() + "); deleting the BenchmarkRun"
                            + " deletes them");
            return;
        }
        String namespace = run.getMetadata().getNamespace();
        String selector = RunLabels.RUN + "=" + run.getMetadata().getName() + "," + RunLabels.MANAGED_SELECTOR;
        // One delete per object (list + delete), not a collection delete: the operator's RBAC has no deletecollection.
        List<HasMetadata> owned = new ArrayList<>();
        owned.addAll(client.genericKubernetesResources(K6TestRun.CONTEXT)
                .inNamespace(namespace)
                .withLabelSelector(selector)
                .list()
                .getItems());
        owned.addAll(client.apps()
                .deployments()
                .inNamespace(namespace)
                .withLabelSelector(selector)
                .list()
                .getItems());
        owned.addAll(client.services()
                .inNamespace(namespace)
                .withLabelSelector(selector)
                .list()
                .getItems());
        owned.addAll(client.configMaps()
                .inNamespace(namespace)
                .withLabelSelector(selector)
                .list()
                .getItems());
        // The scrape journal is not labelled for the informers (its writes must not wake the reconciler): by name.
        client.configMaps()
                .inNamespace(namespace)
                .withName(ScrapeJournal.name(run))
                .delete();
        if (ownDatabase(run)) {
            // By name: the operator may create and delete Secrets, never read or list them.
            client.secrets()
                    .inNamespace(namespace)
                    .withName(RunDatabase.name(run))
                    .delete();
        }
        for (HasMetadata object : owned) {
            if (object instanceof GenericKubernetesResource testRun) {
                client.genericKubernetesResources(K6TestRun.CONTEXT)
                        .inNamespace(namespace)
                        .withName(testRun.getMetadata().getName())
                        .delete();
            } else {
                client.resource(object).delete();
            }
        }
        progress.cleanedUp(
                true,
                "deleted the target, delay service, " + (ownDatabase(run) ? "database, " : "") + "k6 script and"
                        + " TestRun (spec.cleanup " + policy.value()
                        + "); the results stay in this status");
    }

    // ---------------------------------------------------------------------------------------------------------
    // Helpers

    /**
     * Stores the status when it changed, then publishes the steps as events. The update carries the resourceVersion
     * the reconcile started from: a reconcile that saw a stale copy of the run (the cache lagging behind the last
     * status write) gets a conflict and is retried on fresh data, so the phase can never be written backward and no
     * step is announced twice.
     */
    private UpdateControl<BenchmarkRun> finish(RunProgress progress, KubernetesClient client) {
        if (progress.changed()) {
            BenchmarkRun update = new BenchmarkRun();
            update.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
                    .withName(progress.run().getMetadata().getName())
                    .withNamespace(progress.run().getMetadata().getNamespace())
                    .withResourceVersion(progress.run().getMetadata().getResourceVersion())
                    .build());
            update.setSpec(progress.run().getSpec());
            update.setStatus(progress.status());
            client.resources(BenchmarkRun.class)
                    .inNamespace(update.getMetadata().getNamespace())
                    .resource(update)
                    .updateStatus();
        }
        RunEvents events = new RunEvents(client);
        for (RunProgress.Step step : progress.steps()) {
            if (step.warning()) {
                events.warning(progress.run(), step.reason(), step.message());
            } else {
                events.normal(progress.run(), step.reason(), step.message());
            }
        }
        UpdateControl<BenchmarkRun> control = UpdateControl.noUpdate();
        if (!progress.isTerminal() || progress.condition(RunProgress.CLEANED_UP).isEmpty()) {
            progress.nextCheck()
                    .ifPresent(delay -> control.rescheduleAfter(delay.isNegative() ? Duration.ZERO : delay));
        }
        return control;
    }

    /**
     * The run as it started: once its script ConfigMap exists, the spec recorded there, so a later change of the
     * spec cannot alter a run in flight. Defaults are applied either way.
     */
    private BenchmarkRun withStartedSpec(BenchmarkRun resource, Context<BenchmarkRun> context) {
        BenchmarkRun run = new BenchmarkRun();
        run.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder(resource.getMetadata()).build());
        run.setStatus(resource.getStatus());
        BenchmarkRunSpec spec = secondary(context, ConfigMap.class, RunLabels.scriptConfigMapName(resource))
                .map(configMap ->
                        configMap.getData() == null ? null : configMap.getData().get(K6ScriptConfigMap.SPEC_KEY))
                .map(yaml -> {
                    try {
                        return BenchmarkRuns.yamlMapper().readValue(yaml, BenchmarkRunSpec.class);
                    } catch (java.io.IOException e) {
                        LOG.warn(
                                "the recorded spec of run {} is unreadable, using the current spec: {}",
                                resource.getMetadata().getName(),
                                e.getMessage());
                        return null;
                    }
                })
                .orElseGet(() -> BenchmarkRuns.yamlMapper().convertValue(resource.getSpec(), BenchmarkRunSpec.class));
        run.setSpec(BenchmarkRunDefaults.apply(spec));
        return run;
    }

    /** The generation of the spec the run started with, once it started (recorded on its script ConfigMap). */
    private static Optional<Long> startedGeneration(Context<BenchmarkRun> context, BenchmarkRun run) {
        return secondary(context, ConfigMap.class, RunLabels.scriptConfigMapName(run))
                .map(configMap -> configMap.getMetadata().getAnnotations())
                .map(annotations -> annotations.get(SPEC_GENERATION_ANNOTATION))
                .map(Long::valueOf);
    }

    /** When the run got its pools: the timeout and the target's readiness limit count from there. */
    private static Instant startOf(RunProgress progress) {
        return progress.trueSince(RunProgress.POOLS_AVAILABLE).orElse(progress.now());
    }

    /** The longest the target may take to become Ready: the operator's limit, at most half the run's timeout. */
    Duration readyLimit(BenchmarkRun run) {
        Duration half = Durations.parse(run.getSpec().getTimeout()).dividedBy(2);
        return half.compareTo(settings.targetReadyLimit()) < 0 ? half : settings.targetReadyLimit();
    }

    private Optional<String> customModule(RunProgress progress, BenchmarkRun run, KubernetesClient client) {
        if (run.getSpec().getWorkload().getScenario() != Scenario.CUSTOM) {
            return Optional.empty();
        }
        var ref = run.getSpec().getWorkload().getScript().getConfigMapRef();
        ConfigMap configMap = ref == null
                ? null
                : client.configMaps()
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
            progress.fail(
                    "ScriptMissing",
                    what + ": create it in namespace " + run.getMetadata().getNamespace()
                            + " with your k6 module, then create the run again");
            return Optional.empty();
        }
        return Optional.of(module);
    }

    private RunEnvironment environment(
            BenchmarkRun run, Context<BenchmarkRun> context, TargetMetricsScraper.Outcome metrics) {
        RunEnvironment environment = RunApps.environment(run.getSpec(), target.app(run), catalogue);
        environment.setMode("cluster");
        environment.setNodeNames(pods(context, run, RunLabels.ROLE_TARGET).stream()
                .map(pod -> pod.getSpec().getNodeName())
                .filter(Objects::nonNull)
                .distinct()
                .sorted()
                .toList());
        environment.setParallelism(run.getSpec().getWorkload().getParallelism());
        Map<String, String> images = new LinkedHashMap<>();
        images.put(RunLabels.ROLE_TARGET, target.image(run));
        images.put(RunLabels.ROLE_DELAY_SERVICE, delayService.image());
        if (ownDatabase(run)) {
            images.put(RunLabels.ROLE_DATABASE, database.image());
            environment.setDatabase(RunEnvironment.DATABASE_OWN);
            postgresVersion(context, run).ifPresent(environment::setPostgresVersion);
        } else {
            var external = TargetDeployment.database(run, settings);
            environment.setDatabase(
                    "external " + external.getHost() + ":" + external.getPort() + "/" + external.getDatabase());
        }
        runnerPods(context, run).stream()
                .findFirst()
                .ifPresent(pod -> images.put(
                        RunLabels.ROLE_LOADGEN,
                        pod.getSpec().getContainers().getFirst().getImage()));
        environment.setImages(images);
        k6Version(context, run).ifPresent(environment::setK6Version);
        metrics.javaVersion().ifPresent(environment::setJavaVersion);
        metrics.springBootVersion().ifPresent(environment::setSpringBootVersion);
        Map<String, List<Pod>> podsByRole = new LinkedHashMap<>();
        podsByRole.put(RunLabels.ROLE_TARGET, pods(context, run, RunLabels.ROLE_TARGET));
        podsByRole.put(RunLabels.ROLE_DELAY_SERVICE, pods(context, run, RunLabels.ROLE_DELAY_SERVICE));
        podsByRole.put(RunLabels.ROLE_DATABASE, pods(context, run, RunLabels.ROLE_DATABASE));
        podsByRole.put(PodCpuScraper.ROLE_RUNNER, RunnerHealth.sorted(runnerPods(context, run)));
        RunManifest.describePods(environment, podsByRole, node -> {
            try {
                return Optional.ofNullable(
                        context.getClient().nodes().withName(node).get());
            } catch (KubernetesClientException e) {
                LOG.warn(
                        "run {}: cannot read node {} for the manifest: {}",
                        run.getMetadata().getName(),
                        node,
                        e.getMessage());
                return Optional.empty();
            }
        });
        OperatorIdentity operator = OperatorIdentity.current();
        environment.setOperatorVersion(operator.version());
        environment.setOperatorImage(operator.image());
        return environment;
    }

    /**
     * The server version the run's own PostgreSQL announced at start ("starting PostgreSQL 15.14 (Debian ...) on
     * ..."), from its pod's log: the exact server, whatever the image tag says.
     */
    private static Optional<String> postgresVersion(Context<BenchmarkRun> context, BenchmarkRun run) {
        return fromContainerLog(
                context,
                run,
                pods(context, run, RunLabels.ROLE_DATABASE),
                RunDatabase.CONTAINER,
                RunDatabase::announcedVersion);
    }

    /** What `k6 version` printed in a runner's version init container ("k6 v1.8.1 (commit/..., go1.24, ...)"). */
    private static Optional<String> k6Version(Context<BenchmarkRun> context, BenchmarkRun run) {
        List<Pod> withVersionContainer = RunnerHealth.sorted(runnerPods(context, run)).stream()
                .filter(pod -> pod.getSpec().getInitContainers() != null
                        && pod.getSpec().getInitContainers().stream()
                                .anyMatch(c -> K6TestRun.VERSION_CONTAINER.equals(c.getName())))
                .toList();
        return fromContainerLog(
                context, run, withVersionContainer, K6TestRun.VERSION_CONTAINER, K6TestRun::printedVersion);
    }

    /** The first figure {@code parse} finds in the log of {@code container} of one of the pods, in their order. */
    private static Optional<String> fromContainerLog(
            Context<BenchmarkRun> context,
            BenchmarkRun run,
            List<Pod> pods,
            String container,
            java.util.function.Function<String, Optional<String>> parse) {
        for (Pod pod : pods) {
            try {
                Optional<String> found = parse.apply(context.getClient()
                        .pods()
                        .inNamespace(run.getMetadata().getNamespace())
                        .withName(pod.getMetadata().getName())
                        .inContainer(container)
                        .getLog());
                if (found.isPresent()) {
                    return found;
                }
            } catch (KubernetesClientException e) {
                LOG.warn(
                        "run {}: cannot read the log of container {} of pod {}: {}",
                        run.getMetadata().getName(),
                        container,
                        pod.getMetadata().getName(),
                        e.getMessage());
            }
        }
        return Optional.empty();
    }

    private static void addWarning(RunSummary summary, String warning) {
        List<String> warnings =
                summary.getWarnings() == null ? new ArrayList<>() : new ArrayList<>(summary.getWarnings());
        warnings.add(warning);
        summary.setWarnings(warnings);
    }

    private static <R extends HasMetadata> Optional<R> secondary(
            Context<BenchmarkRun> context, Class<R> type, String name) {
        return context.getSecondaryResources(type).stream()
                .filter(resource -> name.equals(resource.getMetadata().getName()))
                .findFirst();
    }

    private static List<Pod> pods(Context<BenchmarkRun> context, BenchmarkRun run, String role) {
        return context.getSecondaryResources(Pod.class).stream()
                .filter(pod -> role.equals(pod.getMetadata().getLabels().get(RunLabels.ROLE)))
                .toList();
    }

    private static List<Pod> runnerPods(Context<BenchmarkRun> context, BenchmarkRun run) {
        String testRunName = RunLabels.testRunName(run);
        return context.getSecondaryResources(Pod.class).stream()
                .filter(pod -> testRunName.equals(pod.getMetadata().getLabels().get(RunLabels.K6_TEST_RUN))
                        && "true".equals(pod.getMetadata().getLabels().get(RunLabels.K6_RUNNER)))
                .toList();
    }

    /** Whether the run gets a database of its own (no spec.backend.database.external). */
    static boolean ownDatabase(BenchmarkRun run) {
        return run.getSpec().getBackend() == null
                || run.getSpec().getBackend().getDatabase() == null
                || !run.getSpec().getBackend().getDatabase().isExternal();
    }

    /**
     * Creates the Secret unless it exists: its content (a password made for the run) must never change once the
     * database was initialised with it, and the operator has no right to read Secrets back.
     */
    private static void createSecretOnce(KubernetesClient client, io.fabric8.kubernetes.api.model.Secret secret) {
        try {
            client.secrets()
                    .inNamespace(secret.getMetadata().getNamespace())
                    .resource(secret)
                    .create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw new ApiErrors.RequestFailed(ApiErrors.describe("create", secret), secret, e);
            }
        }
    }

    private static <R extends HasMetadata> void applyIfMissing(
            Context<BenchmarkRun> context, KubernetesClient client, R desired) {
        @SuppressWarnings("unchecked")
        Class<R> type = (Class<R>) desired.getClass();
        if (secondary(context, type, desired.getMetadata().getName()).isEmpty()) {
            apply(client, desired);
        }
    }

    /**
     * Creates or updates one of the run's objects (server-side apply). A failure carries what was asked and the
     * object, so the reconciler can tell a refused object from a missing right or a passing failure
     * ({@link ApiErrors}).
     */
    private static void apply(KubernetesClient client, HasMetadata desired) {
        try {
            if (desired instanceof GenericKubernetesResource generic) {
                client.genericKubernetesResources(K6TestRun.CONTEXT)
                        .inNamespace(generic.getMetadata().getNamespace())
                        .resource(generic)
                        .fieldManager(RunEvents.COMPONENT)
                        .forceConflicts()
                        .serverSideApply();
            } else {
                client.resource(desired)
                        .fieldManager(RunEvents.COMPONENT)
                        .forceConflicts()
                        .serverSideApply();
            }
        } catch (KubernetesClientException e) {
            throw new ApiErrors.RequestFailed(ApiErrors.describe("apply", desired), desired, e);
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // What the operator watches: only objects labelled managed-by=stackbench, mapped to their run by label.

    @Override
    public List<EventSource<?, BenchmarkRun>> prepareEventSources(EventSourceContext<BenchmarkRun> context) {
        return List.of(
                informer(context, Deployment.class),
                informer(context, Service.class),
                informer(context, ConfigMap.class),
                informer(context, Pod.class),
                new InformerEventSource<>(
                        InformerEventSourceConfiguration.from(
                                        new GroupVersionKind("k6.io", "v1alpha1", K6TestRun.KIND), BenchmarkRun.class)
                                .withName("testruns")
                                .withLabelSelector(RunLabels.MANAGED_SELECTOR)
                                .withSecondaryToPrimaryMapper(byRunLabel())
                                .build(),
                        context));
    }

    private static <R extends HasMetadata> InformerEventSource<R, BenchmarkRun> informer(
            EventSourceContext<BenchmarkRun> context, Class<R> type) {
        return new InformerEventSource<>(
                InformerEventSourceConfiguration.from(type, BenchmarkRun.class)
                        .withName(type.getSimpleName().toLowerCase(java.util.Locale.ROOT) + "s")
                        .withLabelSelector(RunLabels.MANAGED_SELECTOR)
                        .withSecondaryToPrimaryMapper(byRunLabel())
                        .build(),
                context);
    }

    private static <R extends HasMetadata> SecondaryToPrimaryMapper<R> byRunLabel() {
        return resource -> {
            Map<String, String> labels = resource.getMetadata().getLabels();
            String run = labels == null ? null : labels.get(RunLabels.RUN);
            return run == null
                    ? Set.of()
                    : Set.of(new ResourceID(run, resource.getMetadata().getNamespace()));
        };
    }
}
