package dev.stackbench.operator.comparison;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.comparison.BenchmarkComparison;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.comparison.ComparisonRuns;
import dev.stackbench.operator.RunLabels;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import java.util.LinkedHashMap;
import java.util.Map;

/** The ConfigMap recording how a comparison started, and the owner reference it and the comparison's runs carry. */
final class ComparisonObjects {

    static final String SPEC_KEY = "spec.yaml";
    static final String SEED_KEY = "seed";

    private ComparisonObjects() {}

    /** The ConfigMap holding the spec and seed a comparison started with, owned by it. */
    static String recordName(BenchmarkComparison comparison) {
        return comparison.getMetadata().getName() + "-comparison";
    }

    static ConfigMap record(BenchmarkComparison comparison, long seed) {
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

    static OwnerReference ownerReference(BenchmarkComparison comparison) {
        return new OwnerReferenceBuilder()
                .withApiVersion(BenchmarkRun.API_VERSION)
                .withKind(BenchmarkComparison.KIND)
                .withName(comparison.getMetadata().getName())
                .withUid(comparison.getMetadata().getUid())
                .withController(true)
                .build();
    }
}
