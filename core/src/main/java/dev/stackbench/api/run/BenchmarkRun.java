package dev.stackbench.api.run;

import dev.stackbench.api.SpecRules;
import dev.stackbench.api.status.BenchmarkRunStatus;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/** One load experiment against one target variant; its status carries the measured results. */
@Group(BenchmarkRun.GROUP)
@Version(BenchmarkRun.VERSION)
@ShortNames("br")
@AdditionalPrinterColumn(
        name = "VARIANT",
        jsonPath = ".spec.target.variant",
        type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "PHASE", jsonPath = ".status.phase", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "RPS", jsonPath = ".status.summary.rps", type = AdditionalPrinterColumn.Type.NUMBER)
@AdditionalPrinterColumn(
        name = "P95(ms)",
        jsonPath = ".status.summary.latencyMs.p95",
        type = AdditionalPrinterColumn.Type.NUMBER)
@AdditionalPrinterColumn(
        name = "ERRORS",
        jsonPath = ".status.summary.errorRate",
        type = AdditionalPrinterColumn.Type.NUMBER)
@AdditionalPrinterColumn(
        name = "THREADS",
        jsonPath = ".status.summary.target.peakThreads",
        type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
        name = "CAPACITY",
        jsonPath = ".status.capacity.rate",
        type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
        name = "LIMITED-BY",
        jsonPath = ".status.summary.limitedBy.resource",
        type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "LIVE", jsonPath = ".status.live.text", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
        name = "AGE",
        jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE)
@ValidationRule(value = SpecRules.RUN_NAME_LENGTH, message = SpecRules.RUN_NAME_LENGTH_MESSAGE)
public class BenchmarkRun extends CustomResource<BenchmarkRunSpec, BenchmarkRunStatus> implements Namespaced {

    public static final String GROUP = "stackbench.dev";
    public static final String VERSION = "v1alpha1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "BenchmarkRun";
    public static final String CRD_NAME = "benchmarkruns." + GROUP;
}
