package dev.stackbench.operator.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.status.PodResources;
import dev.stackbench.api.status.TargetSummary;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunMeasurementTest {

    @Test
    void eachTargetPodGetsItsOwnJvmFiguresBesideItsCpu() {
        List<PodResources> cpu = List.of(
                new PodResources().withRole("target").withPod("t-1").withAvgCpuCores(0.4),
                new PodResources().withRole("database").withPod("db-1").withAvgCpuCores(0.1));
        Map<String, TargetSummary> jvm = new LinkedHashMap<>();
        jvm.put("t-1", new TargetSummary().withPeakThreads(30));
        jvm.put("t-2", new TargetSummary().withPeakThreads(28)); // no kubelet reading for this one

        List<PodResources> pods = RunMeasurement.withTargetFigures(cpu, jvm);

        assertThat(pods).extracting(PodResources::getPod).containsExactly("t-1", "t-2", "db-1");
        assertThat(pods.get(0).getPeakThreads()).isEqualTo(30);
        assertThat(pods.get(0).getAvgCpuCores()).isEqualTo(0.4);
        assertThat(pods.get(1).getPeakThreads()).isEqualTo(28);
        assertThat(pods.get(1).getRole()).isEqualTo("target");
        assertThat(pods.get(2).getPeakThreads()).isNull();
    }
}
