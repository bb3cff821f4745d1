package dev.stackbench.operator.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stackbench.api.comparison.BenchmarkComparison;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.status.VerificationResult;
import dev.stackbench.verification.VerificationLoad;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Which earlier verdict a run may take instead of counting its work again: that of an earlier repetition of its
 * comparison with the same spec ({@link #repetition}), or that of a run in the same namespace whose
 * target ran the same image and whose work is the same. The work is the spec as the verification sends it (target,
 * backend, scenario and its parameters, the script), without what shapes only the load (rate, stages, duration,
 * warmup, steps, thresholds, the runners' resources) or the run's housekeeping (checks, cleanup, timeout, placement).
 * Anything else that differs, a field added later included, means counting again.
 */
final class VerificationReuse {

    private static final ObjectMapper JSON = new ObjectMapper();

    private VerificationReuse() {}

    /** The work of a spec, comparable with {@link JsonNode#equals}. */
    static JsonNode work(BenchmarkRunSpec spec) {
        ObjectNode work = JSON.valueToTree(VerificationLoad.spec(spec, VerificationLoad.COUNTED_ITERATIONS));
        work.remove(List.of("checks", "cleanup", "timeout", "placement"));
        if (work.get("workload") instanceof ObjectNode workload) {
            workload.remove("runnerResources");
        }
        return work;
    }

    /**
     * The runs of {@code others} whose verdict {@code run} may take once its target image is known: same namespace,
     * a verdict that is not Differs, recorded with a target image, the same work; the earliest first.
     */
    static List<BenchmarkRun> candidates(BenchmarkRun run, List<BenchmarkRun> others) {
        JsonNode work = work(run.getSpec());
        return others.stream()
                .filter(other ->
                        !other.getMetadata().getName().equals(run.getMetadata().getName()))
                .filter(other -> Objects.equals(
                        other.getMetadata().getNamespace(), run.getMetadata().getNamespace()))
                .filter(other -> other.getStatus() != null
                        && other.getStatus().getVerification() != null
                        && other.getStatus().getVerification().getTargetImage() != null
                        && !VerificationResult.DIFFERS.equals(
                                other.getStatus().getVerification().getVerdict()))
                .filter(other -> work.equals(work(other.getSpec())))
                .sorted(Comparator.comparing((BenchmarkRun other) ->
                                Objects.requireNonNullElse(other.getMetadata().getCreationTimestamp(), ""))
                        .thenComparing(other -> other.getMetadata().getName()))
                .toList();
    }

    /** The earliest of {@link #candidates} whose target ran {@code targetImage}. */
    static Optional<BenchmarkRun> source(BenchmarkRun run, List<BenchmarkRun> others, String targetImage) {
        return candidates(run, others).stream()
                .filter(other ->
                        targetImage.equals(other.getStatus().getVerification().getTargetImage()))
                .findFirst();
    }

    /**
     * An earlier repetition of the same comparison with the same spec whose verification is recorded: the operator
     * set both owner references, so the two runs are the comparison's, of the same variant.
     */
    static Optional<BenchmarkRun> repetition(BenchmarkRun run, List<BenchmarkRun> others) {
        Optional<String> comparison = comparisonOf(run);
        if (comparison.isEmpty()) {
            return Optional.empty();
        }
        JsonNode spec = JSON.valueToTree(run.getSpec());
        return others.stream()
                .filter(other ->
                        !other.getMetadata().getName().equals(run.getMetadata().getName()))
                .filter(other -> Objects.equals(
                        other.getMetadata().getNamespace(), run.getMetadata().getNamespace()))
                .filter(other -> comparisonOf(other).equals(comparison))
                .filter(other -> other.getStatus() != null
                        && other.getStatus().getVerification() != null
                        && !VerificationResult.DIFFERS.equals(
                                other.getStatus().getVerification().getVerdict()))
                .filter(other -> JSON.valueToTree(other.getSpec()).equals(spec))
                .min(Comparator.comparing(other -> other.getMetadata().getName()));
    }

    private static Optional<String> comparisonOf(BenchmarkRun run) {
        List<OwnerReference> owners = run.getMetadata().getOwnerReferences();
        return owners == null
                ? Optional.empty()
                : owners.stream()
                        .filter(owner -> BenchmarkComparison.KIND.equals(owner.getKind()))
                        .map(OwnerReference::getUid)
                        .findFirst();
    }
}
