package dev.stackbench.operator.comparison;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.comparison.BenchmarkComparison;
import dev.stackbench.api.comparison.BenchmarkComparisonSpec;
import dev.stackbench.api.comparison.BenchmarkComparisonStatus;
import dev.stackbench.api.comparison.ComparisonDefaults;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.comparison.ComparisonResults;
import dev.stackbench.comparison.ComparisonRuns;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.operator.ApiErrors;
import dev.stackbench.operator.OperatorSettings;
import dev.stackbench.operator.run.Admission;
import dev.stackbench.operator.run.PolicyCheck;
import dev.stackbench.validation.SpecValidator;
import dev.stackbench.validation.Violation;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The comparison as it started: checked, with its defaults, its spec and seed recorded in a ConfigMap it owns on the
 * first pass, so that a later change of the spec cannot alter a comparison in flight.
 */
public final class ComparisonStart {

    /** What the repetitions of a comparison share on a cluster. */
    static final String SHARED = "nothing: every repetition is its own BenchmarkRun with its own target, database and"
            + " delay service, started once the previous run's pods are gone";

    private final SpecValidator validator;
    private final PolicyCheck policy;

    public ComparisonStart(VariantCatalogue catalogue, OperatorSettings settings) {
        this.validator = new SpecValidator(catalogue);
        this.policy =
                new PolicyCheck(settings.policy(), catalogue, settings.imageTag(), settings.defaultDatabaseSecret());
    }

    /** The comparison with the spec it started with; empty when it is invalid and has failed. */
    public Optional<BenchmarkComparison> start(ComparisonPass pass, KubernetesClient client) {
        BenchmarkComparison resource = pass.resource();
        ConfigMap recorded = client.configMaps()
                .inNamespace(resource.getMetadata().getNamespace())
                .withName(ComparisonObjects.recordName(resource))
                .get();
        if (recorded == null) {
            Optional<ConfigMap> created = record(pass, client);
            if (created.isEmpty()) {
                return Optional.empty();
            }
            recorded = created.get();
        }
        BenchmarkComparison comparison = copy(resource);
        long seed;
        try {
            comparison.setSpec(BenchmarkRuns.yamlMapper()
                    .readValue(recorded.getData().get(ComparisonObjects.SPEC_KEY), BenchmarkComparisonSpec.class));
            seed = Long.parseLong(recorded.getData().get(ComparisonObjects.SEED_KEY));
        } catch (IOException | RuntimeException e) {
            pass.fail(
                    "RecordUnreadable",
                    "ConfigMap " + ComparisonObjects.recordName(resource) + " does not hold a readable spec and seed ("
                            + e.getMessage() + "): delete the comparison and create it again");
            return Optional.empty();
        }
        ComparisonDefaults.apply(comparison.getSpec());
        if (pass.status().getStartedAt() == null) {
            begin(pass, comparison, seed);
        } else if (!Objects.equals(
                resource.getMetadata().getGeneration(), pass.status().getObservedGeneration())) {
            noteSpecChange(pass);
        }
        return Optional.of(comparison);
    }

    /**
     * On the first pass: checks the comparison and creates the ConfigMap recording its spec and seed. Empty when the
     * comparison is invalid, or lost its record after it started, and has failed.
     */
    private Optional<ConfigMap> record(ComparisonPass pass, KubernetesClient client) {
        BenchmarkComparison resource = pass.resource();
        if (pass.status().getStartedAt() != null) {
            pass.fail(
                    "RecordMissing",
                    "ConfigMap " + ComparisonObjects.recordName(resource) + ", which holds the spec and seed this"
                            + " comparison started with, was deleted: its runs cannot be planned again; delete the"
                            + " comparison and create it again");
            return Optional.empty();
        }
        BenchmarkComparison checked = copy(resource);
        ComparisonDefaults.apply(checked.getSpec());
        List<Violation> violations = ComparisonRuns.validate(checked, validator);
        if (!violations.isEmpty()) {
            pass.fail(
                    RunProgress.INVALID_SPEC,
                    "invalid: "
                            + violations.stream().map(Violation::toString).collect(Collectors.joining("; "))
                            + ". Fix the field(s) and create the comparison again");
            return Optional.empty();
        }
        List<Violation> refusals = policy.check(
                checked.getSpec(),
                PolicyCheck.secretsIn(client, resource.getMetadata().getNamespace()));
        if (!refusals.isEmpty()) {
            pass.fail(
                    Admission.REFUSED_BY_POLICY,
                    refusals.stream().map(Violation::toString).collect(Collectors.joining("; "))
                            + ". None of its runs was created");
            return Optional.empty();
        }
        long seed = checked.getSpec().getSeed() != null
                ? checked.getSpec().getSeed()
                : pass.clock().millis();
        ConfigMap record = ComparisonObjects.record(checked, seed);
        try {
            return Optional.of(client.resource(record).create());
        } catch (KubernetesClientException e) {
            throw new ApiErrors.RequestFailed(ApiErrors.describe("create", record), null, e);
        }
    }

    /** The status a comparison starts with: its variants, its planned runs, its seed. */
    private static void begin(ComparisonPass pass, BenchmarkComparison comparison, long seed) {
        BenchmarkComparisonStatus fresh = ComparisonResults.start(
                comparison.getSpec(), seed, SHARED, pass.clock().instant());
        fresh.setObservedGeneration(pass.resource().getMetadata().getGeneration());
        copyInto(fresh, pass.status());
        pass.markChanged();
        pass.event(
                false,
                "Started",
                "comparing " + fresh.getVariantNames() + ": " + fresh.getRunsPlanned() + " runs, "
                        + comparison.getSpec().getOrder() + " (seed " + seed + ")");
    }

    /** A spec changed after the start is ignored, and the status says so once per generation. */
    private static void noteSpecChange(ComparisonPass pass) {
        BenchmarkComparison resource = pass.resource();
        BenchmarkComparisonStatus status = pass.status();
        String note = "the spec was changed after the comparison started (generation "
                + resource.getMetadata().getGeneration() + "): it goes on with the spec it started with, recorded"
                + " in ConfigMap " + ComparisonObjects.recordName(resource) + "; create a new comparison to run the"
                + " new spec";
        List<String> warnings =
                status.getWarnings() == null ? new ArrayList<>() : new ArrayList<>(status.getWarnings());
        warnings.removeIf(warning -> warning.startsWith("the spec was changed after the comparison started"));
        warnings.add(note);
        status.setWarnings(warnings);
        status.setObservedGeneration(resource.getMetadata().getGeneration());
        pass.markChanged();
        pass.event(true, "SpecChangeIgnored", note);
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
}
