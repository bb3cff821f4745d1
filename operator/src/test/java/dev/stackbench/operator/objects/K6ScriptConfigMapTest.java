package dev.stackbench.operator.objects;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.k6.K6ScriptGenerator;
import dev.stackbench.k6.LatencyBuckets;
import dev.stackbench.operator.ExampleRuns;
import io.fabric8.kubernetes.api.model.ConfigMap;
import org.junit.jupiter.api.Test;

/** The run's script follows the runners' k6: with stackbench's output, the output counts the latency buckets. */
class K6ScriptConfigMapTest {

    @Test
    void runnersWithStackbenchsOutputGetTheScriptWhoseBucketsTheOutputCounts() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();

        ConfigMap withOutput = new K6ScriptConfigMap(true).desired(run, null);
        ConfigMap anyK6 = new K6ScriptConfigMap(false).desired(run, null);

        assertThat(withOutput.getData().get(K6ScriptConfigMap.SCRIPT_KEY))
                .contains("from '" + K6ScriptGenerator.OUTPUT_MODULE + "'")
                .doesNotContain(LatencyBuckets.metricName(0));
        assertThat(anyK6.getData().get(K6ScriptConfigMap.SCRIPT_KEY))
                .doesNotContain(K6ScriptGenerator.OUTPUT_MODULE)
                .contains(LatencyBuckets.metricName(0));
    }
}
