package dev.stackbench.operator.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.status.PodResources;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.api.status.TargetSummary;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

    @Test
    void theNodesStealGoesIntoTheSummaryAndAboveTheLimitWarns() {
        RunSummary quiet = new RunSummary();
        RunMeasurement.addHostSteal(quiet, Optional.of(0.012345));
        assertThat(quiet.getHostSteal()).isEqualTo(0.0123);
        assertThat(quiet.getWarnings()).isNull();

        RunSummary stolen = new RunSummary();
        RunMeasurement.addHostSteal(stolen, Optional.of(0.2));
        assertThat(stolen.getHostSteal()).isEqualTo(0.2);
        assertThat(stolen.getWarnings())
                .singleElement()
                .asString()
                .startsWith("the machine's host took 20.0 % of its CPU time during the measured window")
                .contains("run it again");

        RunSummary unknown = new RunSummary();
        RunMeasurement.addHostSteal(unknown, Optional.empty());
        assertThat(unknown.getHostSteal()).isNull();
        assertThat(unknown.getWarnings()).isNull();
    }
}
