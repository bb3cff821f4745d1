package dev.stackbench.api.comparison;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.TargetSpec;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.SchemaSwap;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * Two or more variants run repeatedly under one BenchmarkRun template and compared with statistics; its status
 * carries every repetition's figures, each variant's medians with their intervals and each contender's verdicts.
 * The template is a BenchmarkRun spec whose target names no variant: spec.variants does.
 */
@Group(BenchmarkRun.GROUP)
@Version(BenchmarkRun.VERSION)
@ShortNames("bc")
@SchemaSwap(originalType = TargetSpec.class, fieldName = "variant", targetType = void.class)
@SchemaSwap(originalType = TargetSpec.class, fieldName = "image", targetType = void.class)
@AdditionalPrinterColumn(name = "BASELINE", jsonPath = ".status.baseline", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
        name = "VARIANTS",
        jsonPath = ".status.variantNames",
        type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "RUNS", jsonPath = ".status.progress", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "PHASE", jsonPath = ".status.phase", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "VERDICT", jsonPath = ".status.verdict", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "LIVE", jsonPath = ".status.live.text", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
        name = "AGE",
        jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE)
public class BenchmarkComparison extends CustomResource<BenchmarkComparisonSpec, BenchmarkComparisonStatus>
        implements Namespaced {

    public static final String KIND = "BenchmarkComparison";
    public static final String CRD_NAME = "benchmarkcomparisons." + BenchmarkRun.GROUP;
}
