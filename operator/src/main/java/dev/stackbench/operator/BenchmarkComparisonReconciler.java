package dev.stackbench.operator;

import dev.stackbench.api.BenchmarkComparison;
import dev.stackbench.api.BenchmarkComparisonSpec;
import dev.stackbench.api.BenchmarkComparisonStatus;
import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.ComparisonDefaults;
import dev.stackbench.api.ComparisonPhase;
import dev.stackbench.api.ComparisonRunRecord;
import dev.stackbench.api.Phase;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.comparison.ComparisonResults;
import dev.stackbench.comparison.ComparisonRuns;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.validation.SpecValidator;
import dev.stackbench.validation.Violation;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives a BenchmarkComparison: checks it, records the spec and seed it starts with, then creates its runs one at a
 * time in the planned order, each a BenchmarkRun owned by the comparison that goes through the pool queue like any
 * other. A run starts only once the one before it has ended, been cleaned up and has no pod left, so no two
 * repetitions ever share a node. Each run's figures are copied into the comparison's status as it ends; when the last
 * has ended, the statistics fill the status and the comparison Succeeds (or Fails when a variant has too few valid
 * runs).
 *
 * <p>Everything it needs to go on is in the API server (the recorded spec and seed, the runs, the records), so an
 * operator restart or a lost status update only repeats a pass: the plan is the same, an existing run is found, not
 * created again.
 */
@ControllerConfiguration(name = BenchmarkComparisonReconciler.NAME)
public class BenchmarkComparisonReconciler implements Reconciler<BenchmarkComparison> {

    public static final String NAME = "benchmarkcomparison";

    /** What the repetitions of a comparison share on a cluster. */
    static final String SHARED = "nothing: every repetition is its own BenchmarkRun with its own target, database and"
            + " delay service, started once the previous run's pods are gone";

    static final String SPEC_KEY = "spec.yaml";
    static final String SEED_KEY = "seed";

    private static final Logger LOG = LoggerFactory.getLogger(BenchmarkComparisonReconciler.class);
    private static final Duration PERMISSION_RETRY = Duration.ofSeconds(5);
    private static final Duration RETRY = Duration.ofSeconds(5);
    /**
     * How soon a comparison waiting for the previous run's pods to go looks again. Pods are not watched here, and
     * they usually go within a few seconds of the run's cleanup: a check every second starts the next repetition
     * about when they are gone, for two list requests a second during that wait.
     */
    private static final Duration PODS_GONE_CHECK = Duration.ofSeconds(1);

    private final SpecValidator validator;
    private final OperatorSettings settings;
    private final Clock clock;

    public BenchmarkComparisonReconciler(VariantCatalogue catalogue, OperatorSettings settings, Clock clock) {
        this.validator = new SpecValidator(catalogue);
        this.settings = settings;
        this.clock = clock;
    }

    /** One pass: its comparison, the status being written and the events to record. */
    private static final class Pass {
        final BenchmarkComparison resource;
        final BenchmarkComparisonStatus status;
        final List<String[]> events = new ArrayList<>();
        boolean changed;
        Duration nextCheck;

        Pass(BenchmarkComparison resource) {
            this.resource = resource;
            this.status = resource.getStatus() == null
                    ? new BenchmarkComparisonStatus()
                    : BenchmarkRuns.yamlMapper().convertValue(resource.getStatus(), BenchmarkComparisonStatus.class);
        }

        void event(boolean warning, String reason, String message) {
            events.add(new String[] {warning ? "Warning" : "Normal", reason, message});
        }

        void message(String message) {
            if (!message.equals(status.getMessage())) {
                status.setMessage(message);
                changed = true;
            }
        }

        void checkAgainIn(Duration delay) {
            if (nextCheck == null || delay.compareTo(nextCheck) < 0) {
                nextCheck = delay;
            }
        }
    }

    @Override
    public UpdateControl<BenchmarkComparison> reconcile(
            BenchmarkComparison resource, Context<BenchmarkComparison> context) {
        Pass pass = new Pass(resource);
        KubernetesClient client = context.getClient();
        if (pass.status.getPhase() == ComparisonPhase.Succeeded || pass.status.getPhase() == ComparisonPhase.Failed) {
            return UpdateControl.noUpdate();
        }
        try {
            Optional<BenchmarkComparison> started = start(pass, client);
            if (started.isPresent()) {
                advance(pass, started.get(), context);
            }
        } catch (RuntimeException e) {
            ApiErrors.Failure failure = ApiErrors.of(e).orElseThrow(() -> e);
            switch (failure.handling()) {
                case WAIT_FOR_PERMISSION -> {
                    pass.message("waiting for a right: " + failure.forbiddenMessage());
                    pass.checkAgainIn(PERMISSION_RETRY);
                }
                case FAIL ->
                    fail(
                            pass,
                            "RunRefused",
                            "the API server refused a run of the comparison: "
                                    + failure.error().getMessage()
                                    + "; fix spec.template or spec.variants and create the"
                                    + " comparison again");
                case RETRY -> {
                    pass.message("retrying: " + failure.retryMessage());
                    pass.checkAgainIn(RETRY);
                }
            }
        }
        return finish(pass, client);
    }

    /**
     * The comparison as it started: checked, with its defaults, its spec and seed recorded in a ConfigMap it owns on
     * the first pass (a later change of the spec cannot alter a comparison in flight). Empty when it is invalid and
     * has failed.
     */
    private Optional<BenchmarkComparison> start(Pass pass, KubernetesClient client) {
        BenchmarkComparison resource = pass.resource;
        String namespace = resource.getMetadata().getNamespace();
        ConfigMap recorded = client.configMaps()
                .inNamespace(namespace)
                .withName(recordName(resource))
                .get();
        if (recorded == null) {
            if (pass.status.getStartedAt() != null) {
                fail(
                        pass,
                        "RecordMissing",
                        "ConfigMap " + recordName(resource) + ", which holds the spec and seed this comparison"
                                + " started with, was deleted: its runs cannot be planned again; delete the"
                                + " comparison and create it again");
                return Optional.empty();
            }
            BenchmarkComparison checked = copy(resource);
            ComparisonDefaults.apply(checked.getSpec());
            List<Violation> violations = ComparisonRuns.validate(checked, validator);
            if (!violations.isEmpty()) {
                fail(
                        pass,
                        RunProgress.INVALID_SPEC,
                        "invalid: "
                                + violations.stream().map(Violation::toString).collect(Collectors.joining("; "))
                                + ". Fix the field(s) and create the comparison again");
                return Optional.empty();
            }
            long seed = checked.getSpec().getSeed() != null ? checked.getSpec().getSeed() : clock.millis();
            recorded = record(checked, seed);
            try {
                recorded = client.resource(recorded).create();
            } catch (KubernetesClientException e) {
                throw new ApiErrors.RequestFailed(ApiErrors.describe("create", recorded), null, e);
            }
        }
        BenchmarkComparison comparison = copy(resource);
        long seed;
        try {
            comparison.setSpec(BenchmarkRuns.yamlMapper()
                    .readValue(recorded.getData().get(SPEC_KEY), BenchmarkComparisonSpec.class));
            seed = Long.parseLong(recorded.getData().get(SEED_KEY));
        } catch (IOException | RuntimeException e) {
            fail(
                    pass,
                    "RecordUnreadable",
                    "ConfigMap " + recordName(resource) + " does not hold a readable spec and seed (" + e.getMessage()
                            + "): delete the comparison and create it again");
            return Optional.empty();
        }
        ComparisonDefaults.apply(comparison.getSpec());
        if (pass.status.getStartedAt() == null) {
            BenchmarkComparisonStatus fresh =
                    ComparisonResults.start(comparison.getSpec(), seed, SHARED, clock.instant());
            fresh.setObservedGeneration(resource.getMetadata().getGeneration());
            copyInto(fresh, pass.status);
            pass.changed = true;
            pass.event(
                    false,
                    "Started",
                    "comparing " + fresh.getVariantNames() + ": " + fresh.getRunsPlanned() + " runs, "
                            + comparison.getSpec().getOrder() + " (seed " + seed + ")");
        } else if (!java.util.Objects.equals(
                resource.getMetadata().getGeneration(), pass.status.getObservedGeneration())) {
            String note = "the spec was changed after the comparison started (generation "
                    + resource.getMetadata().getGeneration() + "): it goes on with the spec it started with, recorded"
                    + " in ConfigMap " + recordName(resource) + "; create a new comparison to run the new spec";
            List<String> warnings =
                    pass.status.getWarnings() == null ? new ArrayList<>() : new ArrayList<>(pass.status.getWarnings());
            warnings.removeIf(warning -> warning.startsWith("the spec was changed after the comparison started"));
            warnings.add(note);
            pass.status.setWarnings(warnings);
            pass.status.setObservedGeneration(resource.getMetadata().getGeneration());
            pass.changed = true;
            pass.event(true, "SpecChangeIgnored", note);
        }
        return Optional.of(comparison);
    }

    /**
     * Walks the plan in order: records what ended, waits for the run in flight (or for the cleanup of the one
     * before), starts the next; concludes when every run has ended.
     */
    private void advance(Pass pass, BenchmarkComparison comparison, Context<BenchmarkComparison> context) {
        KubernetesClient client = context.getClient();
        String namespace = comparison.getMetadata().getNamespace();
        List<ComparisonRuns.Child> plan = ComparisonRuns.plan(comparison, pass.status.getSeed());
        Map<String, BenchmarkRun> runs = new LinkedHashMap<>();
        context.getSecondaryResources(BenchmarkRun.class)
                .forEach(run -> runs.put(run.getMetadata().getName(), run));
        int repetitions = comparison.getSpec().getRepetitions();
        BenchmarkRun previous = null;
        for (ComparisonRuns.Child child : plan) {
            String name = child.run().getMetadata().getName();
            String where = name + " (" + child.label() + ", round " + (child.round() + 1) + " of " + repetitions + ")";
            Optional<ComparisonRunRecord> record = ComparisonResults.find(pass.status, name);
            BenchmarkRun run = runs.get(name);
            if (run == null && record.isPresent()) {
                // The cache may lag behind a run created a moment ago: ask the API server before concluding.
                run = client.resources(BenchmarkRun.class)
                        .inNamespace(namespace)
                        .withName(name)
                        .get();
            }
            if (record.isPresent() && ComparisonResults.ended(record.get())) {
                previous = run;
                continue;
            }
            if (run == null && record.isPresent()) {
                ComparisonRunRecord lost = record.get();
                lost.setPhase(Phase.Failed);
                lost.setMessage("the run was deleted before it ended");
                ComparisonResults.put(pass.status, lost);
                pass.changed = true;
                pass.event(true, "RunDeleted", "run " + where + " was deleted before it ended; it counts as failed");
                continue;
            }
            if (run == null) {
                Optional<String> busy = previous == null ? Optional.empty() : stillBusy(previous, client);
                if (busy.isPresent()) {
                    pass.message(busy.get());
                    pass.checkAgainIn(shorter(settings.pollInterval(), PODS_GONE_CHECK));
                    return;
                }
                create(comparison, child.run(), client);
                ComparisonResults.put(pass.status, ComparisonResults.record(name, child.label(), child.round(), null));
                pass.message("started run " + where);
                pass.changed = true;
                pass.event(false, "RunCreated", "run " + where + " created");
                pass.checkAgainIn(settings.pollInterval());
                return;
            }
            ComparisonRunRecord now = ComparisonResults.record(name, child.label(), child.round(), run.getStatus());
            if (record.isEmpty() || !same(record.get(), now)) {
                ComparisonResults.put(pass.status, now);
                pass.changed = true;
            }
            if (!ComparisonResults.ended(now)) {
                String phase =
                        now.getPhase() == null ? "Pending" : now.getPhase().toString();
                String runMessage = run.getStatus() == null || run.getStatus().getMessage() == null
                        ? ""
                        : ": " + run.getStatus().getMessage();
                pass.message("run " + where + " is " + phase + runMessage);
                pass.checkAgainIn(settings.pollInterval());
                return;
            }
            pass.event(
                    now.getPhase() != Phase.Succeeded,
                    "RunEnded",
                    "run " + where + " " + now.getPhase() + (now.getMessage() == null ? "" : ": " + now.getMessage()));
            previous = run;
        }
        ComparisonResults.conclude(comparison.getSpec(), pass.status);
        pass.status.setFinishedAt(clock.instant().toString());
        pass.changed = true;
        pass.event(
                pass.status.getPhase() != ComparisonPhase.Succeeded,
                pass.status.getPhase() == ComparisonPhase.Succeeded ? "Concluded" : "Failed",
                pass.status.getMessage());
        LOG.info(
                "comparison {} {}: {}",
                comparison.getMetadata().getName(),
                pass.status.getPhase(),
                pass.status.getMessage());
    }

    /**
     * Why the next run cannot start yet: the run before it has not been cleaned up, or some of its pods (target,
     * database, delay service, k6 runners) are still there. Empty once its nodes are free.
     */
    private static Optional<String> stillBusy(BenchmarkRun previous, KubernetesClient client) {
        String name = previous.getMetadata().getName();
        boolean cleanedUp = previous.getStatus() != null
                && previous.getStatus().getConditions() != null
                && previous.getStatus().getConditions().stream()
                        .anyMatch(condition -> RunProgress.CLEANED_UP.equals(condition.getType()));
        if (!cleanedUp) {
            return Optional.of("waiting for run " + name + " to be cleaned up before the next repetition starts");
        }
        String namespace = previous.getMetadata().getNamespace();
        int left = client.pods()
                        .inNamespace(namespace)
                        .withLabel(RunLabels.RUN, name)
                        .list()
                        .getItems()
                        .size()
                + client.pods()
                        .inNamespace(namespace)
                        .withLabel(RunLabels.K6_TEST_RUN, RunLabels.testRunName(previous))
                        .list()
                        .getItems()
                        .size();
        if (left > 0) {
            return Optional.of("waiting for the " + left + " pod(s) of run " + name
                    + " to terminate before the next repetition starts");
        }
        return Optional.empty();
    }

    private static Duration shorter(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static void create(BenchmarkComparison comparison, BenchmarkRun run, KubernetesClient client) {
        run.getMetadata().setOwnerReferences(List.of(ownerReference(comparison)));
        try {
            client.resources(BenchmarkRun.class)
                    .inNamespace(run.getMetadata().getNamespace())
                    .resource(run)
                    .create();
        } catch (KubernetesClientException e) {
            if (e.getCode() == java.net.HttpURLConnection.HTTP_CONFLICT) {
                // Created by an earlier pass whose status update was lost: found next time.
                return;
            }
            throw new ApiErrors.RequestFailed(ApiErrors.describe("create", run), run, e);
        }
    }

    private static boolean same(ComparisonRunRecord a, ComparisonRunRecord b) {
        return BenchmarkRuns.yamlMapper()
                .valueToTree(a)
                .equals(BenchmarkRuns.yamlMapper().valueToTree(b));
    }

    private void fail(Pass pass, String reason, String message) {
        LOG.warn("comparison {}: {}", pass.resource.getMetadata().getName(), message);
        pass.status.setPhase(ComparisonPhase.Failed);
        pass.status.setMessage(message);
        pass.status.setFinishedAt(clock.instant().toString());
        pass.status.setObservedGeneration(pass.resource.getMetadata().getGeneration());
        pass.changed = true;
        pass.event(true, reason, message);
    }

    private UpdateControl<BenchmarkComparison> finish(Pass pass, KubernetesClient client) {
        if (pass.changed) {
            BenchmarkComparison update = new BenchmarkComparison();
            update.setMetadata(new ObjectMetaBuilder()
                    .withName(pass.resource.getMetadata().getName())
                    .withNamespace(pass.resource.getMetadata().getNamespace())
                    .withResourceVersion(pass.resource.getMetadata().getResourceVersion())
                    .build());
            update.setSpec(pass.resource.getSpec());
            update.setStatus(pass.status);
            try {
                client.resources(BenchmarkComparison.class)
                        .inNamespace(update.getMetadata().getNamespace())
                        .resource(update)
                        .updateStatus();
            } catch (KubernetesClientException e) {
                // A conflict means a newer version exists: the next pass starts from it and repeats this one.
                LOG.info(
                        "comparison {}: status not written ({}), trying again",
                        pass.resource.getMetadata().getName(),
                        e.getMessage());
                return UpdateControl.<BenchmarkComparison>noUpdate().rescheduleAfter(Duration.ofSeconds(1));
            }
        }
        RunEvents events = new RunEvents(client);
        for (String[] event : pass.events) {
            if ("Warning".equals(event[0])) {
                events.warning(pass.resource, event[1], event[2]);
            } else {
                events.normal(pass.resource, event[1], event[2]);
            }
        }
        UpdateControl<BenchmarkComparison> control = UpdateControl.noUpdate();
        boolean ended =
                pass.status.getPhase() == ComparisonPhase.Succeeded || pass.status.getPhase() == ComparisonPhase.Failed;
        if (!ended && pass.nextCheck != null) {
            control.rescheduleAfter(pass.nextCheck);
        }
        return control;
    }

    /** The ConfigMap holding the spec and seed a comparison started with, owned by it. */
    static String recordName(BenchmarkComparison comparison) {
        return comparison.getMetadata().getName() + "-comparison";
    }

    private static ConfigMap record(BenchmarkComparison comparison, long seed) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(RunLabels.MANAGED_BY, RunLabels.MANAGED_BY_VALUE);
        labels.put(ComparisonRuns.COMPARISON_LABEL, comparison.getMetadata().getName());
        return new ConfigMapBuilder()
                .withMetadata(new ObjectMetaBuilder()
                        .withName(recordName(comparison))
                        .withNamespace(comparison.getMetadata().getNamespace())
                        .withLabels(labels)
                        .withOwnerReferences(ownerReference(comparison))
                        .build())
                .withData(Map.of(SPEC_KEY, BenchmarkRuns.toYaml(comparison.getSpec()), SEED_KEY, Long.toString(seed)))
                .build();
    }

    private static OwnerReference ownerReference(BenchmarkComparison comparison) {
        return new OwnerReferenceBuilder()
                .withApiVersion(BenchmarkRun.API_VERSION)
                .withKind(BenchmarkComparison.KIND)
                .withName(comparison.getMetadata().getName())
                .withUid(comparison.getMetadata().getUid())
                .withController(true)
                .build();
    }

    private static BenchmarkComparison copy(BenchmarkComparison resource) {
        BenchmarkComparison copy = new BenchmarkComparison();
        copy.setMetadata(new ObjectMetaBuilder(resource.getMetadata()).build());
        copy.setSpec(BenchmarkRuns.yamlMapper().convertValue(resource.getSpec(), BenchmarkComparisonSpec.class));
        return copy;
    }

    private static void copyInto(BenchmarkComparisonStatus from, BenchmarkComparisonStatus into) {
        BenchmarkComparisonStatus merged =
                BenchmarkRuns.yamlMapper().convertValue(from, BenchmarkComparisonStatus.class);
        into.setPhase(merged.getPhase());
        into.setObservedGeneration(merged.getObservedGeneration());
        into.setMessage("starting");
        into.setSeed(merged.getSeed());
        into.setBaseline(merged.getBaseline());
        into.setVariantNames(merged.getVariantNames());
        into.setRunsPlanned(merged.getRunsPlanned());
        into.setRunsDone(merged.getRunsDone());
        into.setProgress(merged.getProgress());
        into.setStartedAt(merged.getStartedAt());
        into.setShared(merged.getShared());
        into.setRuns(merged.getRuns());
        into.setWarnings(merged.getWarnings());
    }

    // ---------------------------------------------------------------------------------------------------------
    // What the comparison watches: its runs, by the comparison label.

    @Override
    public List<EventSource<?, BenchmarkComparison>> prepareEventSources(
            EventSourceContext<BenchmarkComparison> context) {
        return List.of(new InformerEventSource<>(
                InformerEventSourceConfiguration.from(BenchmarkRun.class, BenchmarkComparison.class)
                        .withName("comparison-runs")
                        .withLabelSelector(ComparisonRuns.COMPARISON_LABEL)
                        .withSecondaryToPrimaryMapper(run -> {
                            Map<String, String> labels = run.getMetadata().getLabels();
                            String comparison = labels == null ? null : labels.get(ComparisonRuns.COMPARISON_LABEL);
                            return comparison == null
                                    ? Set.of()
                                    : Set.of(new ResourceID(
                                            comparison, run.getMetadata().getNamespace()));
                        })
                        .build(),
                context));
    }
}
