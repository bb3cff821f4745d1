package dev.stackbench.operator.objects;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.Scenario;
import dev.stackbench.k6.K6Script;
import dev.stackbench.k6.K6ScriptGenerator;
import dev.stackbench.operator.RunLabels;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The k6 script the runners execute, generated from the spec by the shared generator (the same script local mode
 * runs). The ConfigMap also keeps the spec the run started with, so a later spec change cannot alter a run in
 * flight and the experiment stays documented next to its script.
 */
public final class K6ScriptConfigMap {

    public static final String SCRIPT_KEY = "test.js";
    /** Where a custom scenario's module sits next to the script (imported as ./custom.js). */
    public static final String CUSTOM_MODULE_KEY = "custom.js";

    public static final String SPEC_KEY = "spec.yaml";

    private final K6ScriptGenerator generator;

    /** Scripts for the runners' k6 as the operator's environment describes it ({@link K6TestRun#PER_SECOND_ENV}). */
    public K6ScriptConfigMap() {
        this(K6TestRun.perSecondFromEnvironment());
    }

    /**
     * @param stackbenchOutput whether the runners' k6 has stackbench's output (they run with {@code --out
     *     stackbench=-}), which then counts the latency buckets instead of the script
     */
    K6ScriptConfigMap(boolean stackbenchOutput) {
        this.generator = K6ScriptGenerator.forK6(stackbenchOutput);
    }

    public K6Script script(BenchmarkRun run) {
        return run.getSpec().getWorkload().getScenario() == Scenario.CUSTOM
                ? generator.generate(run.getSpec(), "./" + CUSTOM_MODULE_KEY)
                : generator.generate(run.getSpec());
    }

    /**
     * The run's ConfigMap, or a step's (for a step's view of the run, {@link RunLabels#forStep}). A sweep or a capacity
     * search has no script of its own: each step gets its ConfigMap with the script at its level, while the run's
     * keeps the spec it started with (and a custom module, copied into each step's).
     *
     * @param customModule the text of the user's module for scenario custom (read from spec.workload.script's
     *     ConfigMap), null otherwise
     */
    public ConfigMap desired(BenchmarkRun run, String customModule) {
        Map<String, String> data = new LinkedHashMap<>();
        if (!run.getSpec().getWorkload().isStepped()) {
            data.put(SCRIPT_KEY, script(run).text());
        }
        if (customModule != null) {
            data.put(CUSTOM_MODULE_KEY, customModule);
        }
        if (ReadinessGate.applies(run)) {
            data.put(ReadinessGate.SCRIPT_KEY, ReadinessGate.SCRIPT);
        }
        data.put(SPEC_KEY, BenchmarkRuns.toYaml(run.getSpec()));
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName(RunLabels.scriptConfigMapName(run))
                .withNamespace(run.getMetadata().getNamespace())
                .withLabels(RunLabels.forRole(run, RunLabels.ROLE_LOADGEN))
                .withOwnerReferences(RunLabels.ownerReference(run))
                .endMetadata()
                .withData(data)
                .build();
    }
}
