package dev.stackbench.operator;

import dev.stackbench.api.comparison.BenchmarkComparison;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.comparison.ComparisonRuns;
import dev.stackbench.operator.comparison.ComparisonPass;
import dev.stackbench.operator.comparison.ComparisonSequence;
import dev.stackbench.operator.comparison.ComparisonStart;
import dev.stackbench.operator.comparison.ComparisonVerdict;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
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
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives a BenchmarkComparison: checks it, records the spec and seed it starts with, then creates its runs one at a
 * time in the planned order, each a BenchmarkRun owned by the comparison that goes through the pool queue like any
 * other. A run starts only once the one before it has ended, been cleaned up and has no pod left, so no two
 * repetitions ever share a node. Each run's figures are copied into the comparison's status as it ends; when the last
 * has ended, the statistics fill the status and the comparison Succeeds (or Fails when a variant has too few valid
 * runs). Each step is a class of its own: {@link ComparisonStart}, {@link ComparisonSequence} and
 * {@link ComparisonVerdict}; this class writes the status and the events of a pass.
 *
 * <p>Everything it needs to go on is in the API server (the recorded spec and seed, the runs, the records), so an
 * operator restart or a lost status update only repeats a pass: the plan is the same, an existing run is found, not
 * created again.
 */
@ControllerConfiguration(name = BenchmarkComparisonReconciler.NAME)
public class BenchmarkComparisonReconciler implements Reconciler<BenchmarkComparison> {

    public static final String NAME = "benchmarkcomparison";

    private static final Logger LOG = LoggerFactory.getLogger(BenchmarkComparisonReconciler.class);
    private static final Duration PERMISSION_RETRY = Duration.ofSeconds(5);
    private static final Duration RETRY = Duration.ofSeconds(5);

    private final ComparisonStart start;
    private final ComparisonSequence sequence;
    private final Clock clock;

    public BenchmarkComparisonReconciler(VariantCatalogue catalogue, OperatorSettings settings, Clock clock) {
        this.start = new ComparisonStart(catalogue, settings);
        this.sequence = new ComparisonSequence(settings);
        this.clock = clock;
    }

    @Override
    public UpdateControl<BenchmarkComparison> reconcile(
            BenchmarkComparison resource, Context<BenchmarkComparison> context) {
        ComparisonPass pass = new ComparisonPass(resource, clock);
        KubernetesClient client = context.getClient();
        if (pass.ended()) {
            return UpdateControl.noUpdate();
        }
        try {
            Optional<BenchmarkComparison> started = start.start(pass, client);
            if (started.isPresent() && sequence.advance(pass, started.get(), context)) {
                ComparisonVerdict.conclude(pass, started.get());
            }
        } catch (RuntimeException e) {
            ApiErrors.Failure failure = ApiErrors.of(e).orElseThrow(() -> e);
            switch (failure.handling()) {
                case WAIT_FOR_PERMISSION -> {
                    pass.message("waiting for a right: " + failure.forbiddenMessage());
                    pass.checkAgainIn(PERMISSION_RETRY);
                }
                case FAIL ->
                    pass.fail(
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

    /** Writes the status if it changed, then records the pass's events and says when to look again. */
    private UpdateControl<BenchmarkComparison> finish(ComparisonPass pass, KubernetesClient client) {
        BenchmarkComparison resource = pass.resource();
        if (pass.hasChanged()) {
            BenchmarkComparison update = new BenchmarkComparison();
            update.setMetadata(new ObjectMetaBuilder()
                    .withName(resource.getMetadata().getName())
                    .withNamespace(resource.getMetadata().getNamespace())
                    .withResourceVersion(resource.getMetadata().getResourceVersion())
                    .build());
            update.setSpec(resource.getSpec());
            update.setStatus(pass.status());
            try {
                client.resources(BenchmarkComparison.class)
                        .inNamespace(update.getMetadata().getNamespace())
                        .resource(update)
                        .updateStatus();
            } catch (KubernetesClientException e) {
                // A conflict means a newer version exists: the next pass starts from it and repeats this one.
                LOG.info(
                        "comparison {}: status not written ({}), trying again",
                        resource.getMetadata().getName(),
                        e.getMessage());
                return UpdateControl.<BenchmarkComparison>noUpdate().rescheduleAfter(Duration.ofSeconds(1));
            }
        }
        RunEvents events = new RunEvents(client);
        for (ComparisonPass.Event event : pass.events()) {
            if (event.warning()) {
                events.warning(resource, event.reason(), event.message());
            } else {
                events.normal(resource, event.reason(), event.message());
            }
        }
        UpdateControl<BenchmarkComparison> control = UpdateControl.noUpdate();
        if (!pass.ended() && pass.nextCheck() != null) {
            control.rescheduleAfter(pass.nextCheck());
        }
        return control;
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
