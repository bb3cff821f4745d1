package dev.stackbench.operator.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.BenchmarkRunDefaults;
import dev.stackbench.api.status.Conditions;
import dev.stackbench.api.status.VerificationResult;
import dev.stackbench.k6.K6SummaryException;
import dev.stackbench.k6.K6SummaryParser;
import dev.stackbench.k6.RunnerSummary;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.operator.ApiErrors;
import dev.stackbench.operator.BoundedReads;
import dev.stackbench.operator.OperatorSettings;
import dev.stackbench.operator.RunLabels;
import dev.stackbench.operator.objects.ReadinessGate;
import dev.stackbench.operator.objects.TargetService;
import dev.stackbench.operator.objects.VerificationPod;
import dev.stackbench.operator.objects.VerificationSteps;
import dev.stackbench.verification.VerificationLoad;
import dev.stackbench.verification.VerificationVerdict;
import dev.stackbench.verification.WorkCounts;
import dev.stackbench.verification.WorkQueries;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Verifies a run's work per request before its load, as local mode does: the pod of {@link VerificationPod} sends the
 * run's own requests at low concurrency and counts the statements and rows on the run's own PostgreSQL and the calls on
 * the delay service; the verdict goes into status.verification, and a target whose work differs from the scenario's
 * fails the run before any load, naming the counts. A comparison verifies each variant once: a later repetition with
 * the same spec takes the verdict of the repetition that counted it.
 *
 * <p>Runs with an external database are not verified (its statements are not only the run's, and pg_stat_statements
 * may not be there); neither are runs of an operator started with {@value VerificationPod#ENABLED_ENV}=false.
 */
public final class WorkVerification {

    /** The event and note of a verdict. */
    static final String VERIFIED = "WorkVerified";

    /** How long the pod may wait to be scheduled and started before the run says so and fails. */
    static final Duration START_LIMIT = Duration.ofMinutes(2);

    /** What is kept of a log: a k6 summary (some 100 KiB) and what follows it. */
    private static final int LOG_BYTES = 1024 * 1024;

    private static final int FAILURE_TAIL = 2_000;

    /** The steps after which the pod only prints and ends: the counted requests and the statements' query. */
    private static final List<String> ENDING_STEPS = List.of(VerificationSteps.COUNTED, VerificationSteps.STATEMENTS);

    /** How soon the log is read again during those steps (the counted requests take about two seconds). */
    private static final Duration NEAR_THE_END = Duration.ofMillis(250);

    /** How long after the target's readiness the log is read that often whatever the step (then at the poll). */
    private static final Duration SOON_DONE = Duration.ofSeconds(20);

    private static final ObjectMapper COPIES = new ObjectMapper();

    private final OperatorSettings settings;
    private final VerificationPod pod;
    private final TargetService targetService = new TargetService();
    private final boolean enabled;

    public WorkVerification(OperatorSettings settings) {
        this(settings, VerificationPod.enabledFromEnvironment());
    }

    WorkVerification(OperatorSettings settings, boolean enabled) {
        this.settings = settings;
        this.pod = new VerificationPod(settings);
        this.enabled = enabled;
    }

    /** Whether the run's work is verified or needs no verification here. */
    boolean verified(RunContext pass) {
        return !VerificationPod.applies(pass.run(), enabled)
                || pass.progress().status().getVerification() != null;
    }

    /** One step of the verification: start it, wait for it, or judge its counts. */
    public void verify(RunContext pass) {
        RunProgress progress = pass.progress();
        BenchmarkRun run = pass.run();
        progress.checkAgainIn(settings.pollInterval());
        Optional<BenchmarkRun> counted = VerificationReuse.repetition(run, pass.allRuns());
        if (counted.isPresent()) {
            take(pass, counted.get(), "the same spec in the same comparison; a comparison verifies each variant once");
            return;
        }
        Optional<Pod> existing = pass.secondary(Pod.class, VerificationPod.name(run));
        Optional<BenchmarkRun> earlier = VerifiedPods.readyTargetImage(pass)
                .flatMap(targetImage -> VerificationReuse.source(run, pass.allRuns(), targetImage));
        if (earlier.isPresent() && (existing.isEmpty() || !counting(pass, existing.get()))) {
            existing.ifPresent(pod -> pass.client().pods().resource(pod).delete());
            take(
                    pass,
                    earlier.get(),
                    "the same target image, target, backend and scenario: the same work per request, whatever the"
                            + " load");
            return;
        }
        if (existing.isEmpty()) {
            start(pass);
            return;
        }
        Pod verifier = existing.get();
        if (verifier.getMetadata().getDeletionTimestamp() != null) {
            progress.status()
                    .setMessage("verifying the work per request: waiting until the verification pod made for replaced"
                            + " pods is gone");
            return;
        }
        if (VerifiedPods.madeForOtherPods(pass, verifier)) {
            // Made early for a target or delay-service pod that was replaced before it was Ready.
            pass.client().pods().resource(verifier).delete();
            progress.status()
                    .setMessage("verifying the work per request: made again for the Ready target and delay-service"
                            + " pods");
            return;
        }
        String phase =
                verifier.getStatus() == null ? null : verifier.getStatus().getPhase();
        if ("Succeeded".equals(phase)) {
            judge(pass, verifier, log(pass, verifier));
        } else if ("Failed".equals(phase)) {
            progress.fail(RunProgress.VERIFICATION_FAILED, failure(pass, verifier));
        } else if (VerifierStatus.running(verifier, VerificationPod.RUN_STEPS)) {
            String log = log(pass, verifier);
            Optional<String> step = VerificationSteps.lastStep(log);
            if (step.filter(VerificationSteps.DONE::equals).isPresent()) {
                // Every step succeeded and printed its output: the verdict need not wait for the kubelet to report
                // the ended container (up to a second of its pod status sync).
                judge(pass, verifier, log);
                return;
            }
            if (step.filter(ENDING_STEPS::contains).isPresent() || soonDone(progress)) {
                // Nothing the operator watches changes when the steps end: it looks at the log again soon.
                progress.checkAgainIn(NEAR_THE_END);
            }
            waiting(pass, verifier, VerificationSteps.describe(step));
        } else if (VerifierStatus.endedWell(verifier, VerificationPod.RUN_STEPS)) {
            // The steps ended with status 0 and the pod's phase is not reported yet: the log is complete.
            String log = log(pass, verifier);
            if (VerificationSteps.lastStep(log)
                    .filter(VerificationSteps.DONE::equals)
                    .isPresent()) {
                judge(pass, verifier, log);
                return;
            }
            waiting(pass, verifier, VerifierStatus.currentStep(verifier));
        } else {
            waiting(pass, verifier, VerifierStatus.currentStep(verifier));
        }
    }

    /**
     * Whether the steps are about to end: the target has been Ready for less than {@link #SOON_DONE}, so its warmup
     * answers now and the counted requests follow within seconds. No event tells the operator when they end.
     */
    private static boolean soonDone(RunProgress progress) {
        return progress.trueSince(Conditions.TARGET_READY)
                .filter(ready -> progress.now().isBefore(ready.plus(SOON_DONE)))
                .isPresent();
    }

    /**
     * Makes the verification pod while the target and delay-service pods start, once each has its address: the kubelet
     * schedules it and starts its first step (which waits for their health endpoints) before their JVMs answer, so
     * the verification costs the load only its requests. Nothing when the run is not verified, its verdict is known
     * or reused, or the pod is there.
     */
    public void prepare(RunContext pass) {
        BenchmarkRun run = pass.run();
        if (verified(pass)
                || pass.secondary(Pod.class, VerificationPod.name(run)).isPresent()
                || VerificationReuse.repetition(run, pass.allRuns()).isPresent()
                // An earlier run with the same work may answer once the target's image is known: no pod before.
                || !VerificationReuse.candidates(run, pass.allRuns()).isEmpty()) {
            return;
        }
        List<Pod> targets = VerifiedPods.live(pass.pods(RunLabels.ROLE_TARGET));
        List<Pod> delays = VerifiedPods.live(pass.pods(RunLabels.ROLE_DELAY_SERVICE));
        int targetReplicas =
                Objects.requireNonNullElse(run.getSpec().getTarget().getReplicas(), BenchmarkRunDefaults.REPLICAS);
        if (targets.size() != targetReplicas
                || delays.size() != VerifiedPods.delayReplicas(run)
                || Stream.concat(targets.stream(), delays.stream())
                        .anyMatch(pod -> VerifiedPods.address(pod) == null)) {
            return;
        }
        create(
                pass,
                VerifiedPods.address(targets.get(0)),
                delays.stream().map(VerifiedPods::address).toList(),
                false);
    }

    private void start(RunContext pass) {
        RunProgress progress = pass.progress();
        Optional<String> target = VerifiedPods.readyAddresses(pass.pods(RunLabels.ROLE_TARGET)).stream()
                .findFirst();
        List<String> delay = VerifiedPods.readyAddresses(pass.pods(RunLabels.ROLE_DELAY_SERVICE));
        if (target.isEmpty() || delay.isEmpty()) {
            progress.status()
                    .setMessage("verifying the work per request: waiting for the informers to see the Ready"
                            + " target and delay-service pods");
            return;
        }
        create(pass, target.get(), delay, true);
    }

    private void create(RunContext pass, String target, List<String> delay, boolean targetReady) {
        RunProgress progress = pass.progress();
        BenchmarkRun run = pass.run();
        Optional<String> customModule = pass.secondary(ConfigMap.class, RunLabels.scriptConfigMapName(run))
                .map(ConfigMap::getData)
                .map(data -> data.get(dev.stackbench.operator.objects.K6ScriptConfigMap.CUSTOM_MODULE_KEY));
        pass.apply(pod.scripts(run, customModule.orElse(null)));
        Pod desired = pod.desired(run, target, delay, ReadinessGate.readyLimit(run, settings));
        try {
            pass.client()
                    .pods()
                    .inNamespace(run.getMetadata().getNamespace())
                    .resource(desired)
                    .create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw new ApiErrors.RequestFailed(ApiErrors.describe("create", desired), desired, e);
            }
        }
        progress.note(
                "VerificationStarted",
                "verifying the work per request in pod " + VerificationPod.name(run) + ": "
                        + (targetReady ? "" : "once the target and the delay service answer, ")
                        + VerificationLoad.COUNTED_ITERATIONS + " iterations from " + VerificationLoad.CALLERS
                        + " callers after " + VerificationLoad.WARMUP_ITERATIONS + " uncounted, counted on the run's"
                        + " PostgreSQL (pg_stat_statements) and the delay service");
        if (targetReady) {
            progress.status()
                    .setMessage("verifying the work per request (" + VerificationLoad.COUNTED_ITERATIONS
                            + " iterations, " + VerificationLoad.CALLERS + " callers)");
        }
    }

    /** Whether the pod has begun counting (its warmup ended): a verdict found meanwhile does not stop it. */
    private static boolean counting(RunContext pass, Pod verifier) {
        if (!VerifierStatus.running(verifier, VerificationPod.RUN_STEPS)
                && !VerifierStatus.ended(verifier, VerificationPod.RUN_STEPS)) {
            return false;
        }
        return VerificationSteps.lastStep(log(pass, verifier))
                .filter(step -> !VerificationSteps.WARMUP.equals(step))
                .isPresent();
    }

    private void waiting(RunContext pass, Pod verifier, String step) {
        RunProgress progress = pass.progress();
        Instant created = Instant.parse(verifier.getMetadata().getCreationTimestamp());
        boolean started = verifier.getStatus() != null && verifier.getStatus().getStartTime() != null;
        Duration limit = started ? START_LIMIT.plus(VerificationPod.LIMIT) : START_LIMIT;
        if (started) {
            // A pod made while the target started waited for it: its limit counts from the target's readiness.
            Instant ready = progress.trueSince(Conditions.TARGET_READY).orElse(created);
            created = ready.isAfter(created) ? ready : created;
        }
        if (progress.now().isAfter(created.plus(limit))) {
            String why = started
                    ? "it was still at step " + step + " after " + limit.toSeconds() + " s"
                    : "it did not start within " + START_LIMIT.toSeconds() + " s"
                            + VerifierStatus.unscheduled(verifier);
            progress.fail(
                    RunProgress.VERIFICATION_FAILED,
                    "the verification pod " + verifier.getMetadata().getName() + " did not finish: " + why
                            + "; see kubectl describe pod "
                            + verifier.getMetadata().getName() + " and its logs");
            return;
        }
        progress.status().setMessage("verifying the work per request: " + step);
    }

    /** The failed step, its exit code and the end of its log. */
    private String failure(RunContext pass, Pod verifier) {
        for (ContainerStatus status : VerifierStatus.statuses(verifier)) {
            var terminated =
                    status.getState() == null ? null : status.getState().getTerminated();
            if (terminated != null && terminated.getExitCode() != null && terminated.getExitCode() != 0) {
                String log = log(pass, verifier, status.getName());
                String tail =
                        log.substring(Math.max(0, log.length() - FAILURE_TAIL)).strip();
                // The steps' script names the step that failed; the copy of k6 is a step of its own.
                String step = VerificationPod.RUN_STEPS.equals(status.getName())
                        ? VerificationSteps.failedStep(log).orElse(status.getName())
                        : status.getName();
                return "step " + step + " of the verification pod "
                        + verifier.getMetadata().getName()
                        + " exited with code " + terminated.getExitCode()
                        + (terminated.getReason() == null ? "" : " (" + terminated.getReason() + ")")
                        + ", so no load was sent; the end of its log: " + tail;
            }
        }
        String reason =
                verifier.getStatus() == null ? null : verifier.getStatus().getReason();
        String message =
                verifier.getStatus() == null ? null : verifier.getStatus().getMessage();
        return "the verification pod " + verifier.getMetadata().getName() + " failed"
                + (reason == null ? "" : " (" + reason + (message == null ? "" : ": " + message) + ")")
                + ", so no load was sent; see kubectl describe pod "
                + verifier.getMetadata().getName();
    }

    private void judge(RunContext pass, Pod verifier, String stepsLog) {
        RunProgress progress = pass.progress();
        BenchmarkRun run = pass.run();
        String name = verifier.getMetadata().getName();
        String countedLog = VerificationSteps.output(stepsLog, VerificationSteps.COUNTED);
        RunnerSummary counted;
        try {
            counted = K6SummaryParser.parse(countedLog);
        } catch (K6SummaryException e) {
            progress.fail(
                    RunProgress.VERIFICATION_FAILED,
                    "the counted requests of verification pod " + name + " left no k6 summary (" + e.getMessage()
                            + "); see kubectl logs " + name + " -c " + VerificationPod.RUN_STEPS);
            return;
        }
        Optional<Double> before = VerificationSteps.calls(countedLog, VerificationPod.CALLS_BEFORE);
        Optional<Double> after = VerificationSteps.calls(countedLog, VerificationPod.CALLS_AFTER);
        if (before.isEmpty() || after.isEmpty()) {
            progress.fail(
                    RunProgress.VERIFICATION_FAILED,
                    "verification pod " + name + " did not print the delay service's call counter before and after"
                            + " its requests (" + VerificationPod.CALLS_BEFORE + ", " + VerificationPod.CALLS_AFTER
                            + "); see kubectl logs " + name + " -c " + VerificationPod.RUN_STEPS);
            return;
        }
        WorkCounts counts = WorkCounts.of(
                counted,
                WorkQueries.statements(VerificationSteps.output(stepsLog, VerificationSteps.STATEMENTS)),
                Math.round(after.get() - before.get()));
        VerificationResult result = VerificationVerdict.judge(
                VerificationLoad.spec(run.getSpec(), VerificationLoad.COUNTED_ITERATIONS)
                        .getWorkload(),
                counts);
        result.setTargetImage(VerifiedPods.countedTargetImage(pass, verifier).orElse(null));
        if (VerificationResult.DIFFERS.equals(result.getVerdict())) {
            progress.status().setVerification(result);
            progress.fail(
                    RunProgress.VERIFICATION_FAILED,
                    "the target did not do the scenario's work per request, so no load was sent: "
                            + result.getMessage() + " (counts in status.verification; kubectl logs " + name
                            + " -c " + VerificationPod.RUN_STEPS + ")");
            return;
        }
        record(pass, result, ": " + result.getMessage());
    }

    /** Takes the verdict of {@code source}, naming the run that counted it, and why it holds for this run. */
    private void take(RunContext pass, BenchmarkRun source, String why) {
        VerificationResult reused = COPIES.convertValue(source.getStatus().getVerification(), VerificationResult.class);
        reused.setVerifiedBy(Objects.requireNonNullElse(
                reused.getVerifiedBy(), source.getMetadata().getName()));
        record(pass, reused, " as verified by " + reused.getVerifiedBy() + " (" + why + ")");
    }

    /** Records the verdict and lets the load go: the runners' gate opens with the target's Service. */
    private void record(RunContext pass, VerificationResult result, String how) {
        RunProgress progress = pass.progress();
        BenchmarkRun run = pass.run();
        if (VerificationPod.gatesTheLoad(run, enabled)) {
            pass.apply(targetService.desired(run));
        }
        progress.status().setVerification(result);
        progress.note(VERIFIED, result.getVerdict() + how);
        progress.status().setMessage("verified the work per request (" + result.getVerdict() + ")");
    }

    /** The end of the steps' log, at most {@link #LOG_BYTES}. */
    private static String log(RunContext pass, Pod verifier) {
        return log(pass, verifier, VerificationPod.RUN_STEPS);
    }

    /** The end of one container's log, at most {@link #LOG_BYTES}. */
    private static String log(RunContext pass, Pod verifier, String container) {
        try {
            return BoundedReads.podLogTail(pass.client(), verifier, container, RunnerLogs.TAIL_LINES, LOG_BYTES)
                    .text();
        } catch (KubernetesClientException e) {
            throw new ApiErrors.RequestFailed(
                    "read the log of container " + container + " of pod "
                            + verifier.getMetadata().getName(),
                    verifier,
                    e);
        }
    }
}
