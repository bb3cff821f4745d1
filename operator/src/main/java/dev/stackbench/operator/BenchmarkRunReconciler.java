package dev.stackbench.operator;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.status.Conditions;
import dev.stackbench.api.status.Phase;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.lifecycle.ResolvedRun;
import dev.stackbench.lifecycle.RunDriver;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.operator.objects.K6ScriptConfigMap;
import dev.stackbench.operator.objects.K6TestRun;
import dev.stackbench.operator.run.Admission;
import dev.stackbench.operator.run.Cleanup;
import dev.stackbench.operator.run.EnvironmentRecord;
import dev.stackbench.operator.run.LoadFollowing;
import dev.stackbench.operator.run.LoadStart;
import dev.stackbench.operator.run.Provisioning;
import dev.stackbench.operator.run.ResultCollection;
import dev.stackbench.operator.run.RunContext;
import dev.stackbench.operator.run.RunMeasurement;
import dev.stackbench.operator.run.RunObserver;
import dev.stackbench.operator.run.RunnerResults;
import dev.stackbench.operator.run.SteppedLoadStage;
import dev.stackbench.operator.run.WorkVerification;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.KubernetesClient;
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
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives a BenchmarkRun, one pass at a time: observe the run ({@link RunObserver}), let the run driver decide
 * ({@link RunDriver#next}: the phase order, the step loop, every judgement and its words, shared with local mode),
 * execute the one action it names with the stage that owns it, and write the status. The stages are the classes of
 * {@code dev.stackbench.operator.run}:
 * <ol>
 *   <li>{@link Admission} Pending: the cluster's policy allows the spec, the spec is valid, its variant in the
 *       catalogue; a spec change after the start is ignored, saying so. The pools (Queued while another run holds
 *       one) and spec.timeout the driver judges.
 *   <li>{@link Provisioning} script, delay service, database and target, until they are Ready.
 *   <li>{@link LoadStart} a load's k6-operator TestRun, created exactly once.
 *   <li>{@link LoadFollowing} WarmingUp, then Running, by the TestRun's stage and the time since load started;
 *       failed runners or a restarted target fail the run.
 *   <li>{@link ResultCollection} Collecting: every runner's k6 summary from its pod log, combined; Succeeded, or for
 *       a sweep or a capacity search the step judged into status.steps.
 *   <li>{@link SteppedLoadStage} between the steps of a sweep or a capacity search: the steps before cleared, the
 *       target restarted when asked, and the end of the steps.
 *   <li>{@link Cleanup} per spec.cleanup once the run has ended; the run and its status stay.
 * </ol>
 * The target's scrapes and the pods' CPU readings of a load go through one {@link RunMeasurement}. A request the API
 * server refuses or fails on the way is handled here, in one place ({@link ApiErrors}): a missing right stalls the run
 * until it is granted, an object refused as invalid fails the run at once, anything else is retried.
 */
@ControllerConfiguration(name = BenchmarkRunReconciler.NAME)
public class BenchmarkRunReconciler implements Reconciler<BenchmarkRun> {

    public static final String NAME = "benchmarkrun";

    private static final Logger LOG = LoggerFactory.getLogger(BenchmarkRunReconciler.class);

    private static final Duration PERMISSION_RETRY = Duration.ofSeconds(5);
    private static final Duration RETRY_MIN = Duration.ofSeconds(1);
    private static final Duration RETRY_MAX = Duration.ofSeconds(30);
    /** How soon a pass whose status write met a conflict is repeated: the informer's copy is fresh by then. */
    private static final Duration CONFLICT_RETRY = Duration.ofMillis(200);

    private final OperatorSettings settings;
    private final Clock clock;
    private final Admission admission;
    private final RunObserver observer;
    private final Provisioning provisioning;
    private final WorkVerification workVerification;
    private final LoadStart loadStart;
    private final LoadFollowing loadFollowing;
    private final ResultCollection resultCollection;
    private final SteppedLoadStage steppedLoad;
    private final Cleanup cleanup;
    private final TimelineCarry timelineCarry = new TimelineCarry();
    private final StoredEnds storedEnds = new StoredEnds();

    public BenchmarkRunReconciler(
            VariantCatalogue catalogue, OperatorSettings settings, TargetMetricsScraper scraper, Clock clock) {
        this.settings = settings;
        this.clock = clock;
        RunMeasurement measurement = new RunMeasurement(scraper, new RunnerResults(catalogue));
        this.admission = new Admission(catalogue, settings);
        this.provisioning = new Provisioning(catalogue, settings);
        this.steppedLoad = new SteppedLoadStage(measurement);
        this.loadStart = new LoadStart(settings, measurement, steppedLoad);
        this.loadFollowing = new LoadFollowing(measurement);
        this.resultCollection =
                new ResultCollection(measurement, new EnvironmentRecord(catalogue, settings), steppedLoad);
        this.workVerification = new WorkVerification(settings);
        this.observer = new RunObserver(admission, provisioning, loadFollowing, steppedLoad, workVerification);
        this.cleanup = new Cleanup(measurement);
    }

    @Override
    public UpdateControl<BenchmarkRun> reconcile(BenchmarkRun resource, Context<BenchmarkRun> context) {
        Optional<Duration> older = storedEnds.olderThanStored(resource, clock.instant());
        if (older.isPresent()) {
            // The informer has not yet seen the ended status this operator stored: nothing to do on this copy.
            LOG.debug(
                    "run {}: waiting for the informer's copy with the stored end",
                    resource.getMetadata().getName());
            return UpdateControl.<BenchmarkRun>noUpdate().rescheduleAfter(older.get());
        }
        RunProgress progress = new RunProgress(resource, clock.instant());
        if (progress.status().getQueuedAt() == null) {
            // Orders runs created in the same second (creation times have one-second resolution): PoolQueue.ARRIVAL.
            progress.status()
                    .setQueuedAt(clock.instant().truncatedTo(ChronoUnit.MILLIS).toString());
        }
        try {
            RunContext pass = new RunContext(context, settings, progress, withStartedSpec(resource, context));
            if (!progress.isTerminal()) {
                admission.noteSpecChange(pass);
            }
            RunDriver.Action action = progress.isTerminal()
                    ? new RunDriver.CleanUp()
                    : admission
                            .refuse(pass)
                            .orElseGet(() -> RunDriver.next(progress, pass.resolved(), observer.observe(pass)));
            LOG.debug("run {} in phase {}: {}", resource.getMetadata().getName(), progress.phase(), action);
            execute(pass, action);
            goOnIfStalled(progress, resource);
        } catch (RuntimeException e) {
            Optional<ApiErrors.Failure> apiFailure = ApiErrors.of(e);
            if (apiFailure.isEmpty() && !holdsAnything(progress)) {
                // A spec the checks let through but the operator cannot process would otherwise be retried forever
                // without a status, and a run without a phase holds back every later run on its node pools.
                LOG.error(
                        "run {}: cannot process the spec",
                        resource.getMetadata().getName(),
                        e);
                progress.fail(
                        "SpecNotProcessable",
                        "the operator could not process this run's spec (" + e.getMessage() + "): correct the field"
                                + " it names, or report the spec with this message if it is valid");
                return finish(progress, context.getClient());
            }
            ApiErrors.Failure failure = apiFailure.orElseThrow(() -> e);
            switch (failure.handling()) {
                case WAIT_FOR_PERMISSION -> stall(progress, "Forbidden", failure.forbiddenMessage(), PERMISSION_RETRY);
                case FAIL -> failOnRefusedObject(progress, failure);
                case RETRY -> stall(progress, "RequestFailed", failure.retryMessage(), retryDelay(progress));
            }
        }
        if (progress.isTerminal() && progress.condition(RunProgress.CLEANED_UP).isEmpty()) {
            // Cleanup waits for the next pass, when the final status with the results is stored. Nothing the run
            // watches changes by then, so that pass is asked for at once, since a comparison or a queued run waits on
            // the cleanup: it finds the stored status, or waits for the informer to have it (StoredEnds).
            progress.checkAgainIn(StoredEnds.SOON);
        }
        return finish(progress, context.getClient());
    }

    /** The object is owned by this very run, not by an earlier one of the same name that is being deleted. */
    private static boolean ownedBy(HasMetadata object, BenchmarkRun run) {
        return object.getMetadata().getOwnerReferences() == null
                || object.getMetadata().getOwnerReferences().stream()
                        .filter(owner -> BenchmarkRun.KIND.equals(owner.getKind()))
                        .allMatch(
                                owner -> owner.getUid().equals(run.getMetadata().getUid()));
    }

    /** An ended run still holding node pools looks again until its pods are gone (Cleanup releases them). */
    private static boolean holdsPools(RunProgress progress) {
        return progress.status().getPools() != null
                && !progress.status().getPools().isEmpty();
    }

    /** Before Provisioning a run has created nothing and holds no pool: failing it loses nothing. */
    private static boolean holdsAnything(RunProgress progress) {
        return progress.phase() != null && progress.phase().compareTo(Phase.Provisioning) >= 0;
    }

    /** Carries out what the run driver decided, with the stage that owns it. */
    private void execute(RunContext pass, RunDriver.Action action) {
        switch (action) {
            case RunDriver.Queue queue -> pass.progress().checkAgainIn(settings.pollInterval());
            case RunDriver.Provision provision -> {
                if (provisioning.provision(pass, provision.waitingFor())) {
                    loadStart.startEarly(pass);
                    workVerification.prepare(pass);
                }
            }
            case RunDriver.Verify verify -> workVerification.verify(pass);
            case RunDriver.RestartTarget restart -> steppedLoad.restartTarget(pass, restart.load());
            case RunDriver.StartLoad start -> loadStart.start(pass, start.load());
            case RunDriver.FollowLoad follow -> loadFollowing.follow(pass, follow.load(), follow.state());
            case RunDriver.Collect collect -> resultCollection.collect(pass, collect.load(), collect.runners());
            case RunDriver.FinishSteps steps -> steppedLoad.finish(pass, steps.done());
            case RunDriver.Fail fail ->
                LOG.info("run {} failed: {}", pass.resolved().name(), fail.message());
            case RunDriver.CleanUp cleanUp -> cleanup.cleanUp(pass);
        }
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
    // Status and the spec the run started with

    /**
     * Publishes the steps as events, then stores the status when it changed. The update carries the resourceVersion
     * the reconcile started from: a reconcile that saw a stale copy of the run (the cache lagging behind the last
     * status write) gets a conflict and is repeated on fresh data, so the phase can never be written backward. The
     * events come first, each named after the run's uid, that resourceVersion and its place among the pass's steps: a
     * pass that died after its status write used to take its steps' events with it (an operator killed as a run
     * entered Provisioning left no PoolsAcquired event), and a pass repeated from the same version (after a crash or a
     * lost status write) announces the same steps under the same names, which exist already, so none twice.
     */
    private UpdateControl<BenchmarkRun> finish(RunProgress progress, KubernetesClient client) {
        RunEvents events = new RunEvents(client);
        List<RunProgress.Event> steps = progress.events();
        for (int i = 0; i < steps.size(); i++) {
            RunProgress.Event step = steps.get(i);
            events.once(
                    progress.run(),
                    step.warning(),
                    step.reason(),
                    step.message(),
                    progress.run().getMetadata().getUid() + "/"
                            + progress.run().getMetadata().getResourceVersion() + "/" + i + "/" + step.reason());
        }
        timelineCarry.restore(progress);
        if (progress.changed() && !RunStatusWrite.store(progress, client)) {
            // A conflict: repeated on fresh data soon, not after the SDK's 2 s retry backoff; the repeat may not record
            // again what this pass did once, so its timeline entries wait for the next write.
            timelineCarry.keep(progress);
            return UpdateControl.<BenchmarkRun>noUpdate().rescheduleAfter(CONFLICT_RETRY);
        }
        timelineCarry.stored(progress);
        storedEnds.stored(progress);
        UpdateControl<BenchmarkRun> control = UpdateControl.noUpdate();
        if (!progress.isTerminal() || progress.condition(RunProgress.CLEANED_UP).isEmpty() || holdsPools(progress)) {
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
        run.setMetadata(new ObjectMetaBuilder(resource.getMetadata()).build());
        run.setStatus(resource.getStatus());
        String scriptConfigMap = RunLabels.scriptConfigMapName(resource);
        BenchmarkRunSpec spec = context.getSecondaryResources(ConfigMap.class).stream()
                .filter(configMap ->
                        scriptConfigMap.equals(configMap.getMetadata().getName()) && ownedBy(configMap, resource))
                .findFirst()
                .map(configMap ->
                        configMap.getData() == null ? null : configMap.getData().get(K6ScriptConfigMap.SPEC_KEY))
                .map(yaml -> {
                    try {
                        return BenchmarkRuns.yamlMapper().readValue(yaml, BenchmarkRunSpec.class);
                    } catch (IOException e) {
                        LOG.warn(
                                "the recorded spec of run {} is unreadable, using the current spec: {}",
                                resource.getMetadata().getName(),
                                e.getMessage());
                        return null;
                    }
                })
                .orElseGet(resource::getSpec);
        // Resolved once: a copy with the defaults, so the informers' copy of the run is never written to.
        run.setSpec(ResolvedRun.of(resource, spec).spec());
        return run;
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
                informer(context, NetworkPolicy.class),
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
                        .withName(type.getSimpleName().toLowerCase(Locale.ROOT) + "s")
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
