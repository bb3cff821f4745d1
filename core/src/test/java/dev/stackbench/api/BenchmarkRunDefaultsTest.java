package dev.stackbench.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.run.BenchmarkRunDefaults;
import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.run.CleanupPolicy;
import dev.stackbench.api.run.Executor;
import dev.stackbench.api.run.LoadSpec;
import dev.stackbench.api.run.Scenario;
import dev.stackbench.api.run.TargetSpec;
import dev.stackbench.api.run.WorkloadSpec;
import org.junit.jupiter.api.Test;

class BenchmarkRunDefaultsTest {

    @Test
    void fillsEveryDefaultAndCreatesTheObjectsHoldingThem() {
        BenchmarkRunSpec spec = new BenchmarkRunSpec()
                .withTarget(new TargetSpec().withVariant("mvc-jdbc"))
                .withWorkload(new WorkloadSpec()
                        .withScenario(Scenario.DB)
                        .withDbSleep("100ms")
                        .withLoad(new LoadSpec().withRate(50)));

        BenchmarkRunDefaults.apply(spec);

        assertThat(spec.getTarget().getReplicas()).isEqualTo(1);
        assertThat(spec.getTarget().getResources().getCpu()).isEqualTo("2");
        assertThat(spec.getTarget().getResources().getMemory()).isEqualTo("1Gi");
        assertThat(spec.getBackend().getDelayService().getReplicas()).isEqualTo(1);
        assertThat(spec.getBackend().getDelayService().getResources().getCpu()).isEqualTo("2");
        assertThat(spec.getWorkload().getLoad().getExecutor()).isEqualTo(Executor.CONSTANT_ARRIVAL_RATE);
        assertThat(spec.getWorkload().getWarmup()).isEqualTo("20s");
        assertThat(spec.getWorkload().getDuration()).isEqualTo("60s");
        assertThat(spec.getWorkload().getParallelism()).isEqualTo(1);
        assertThat(spec.getWorkload().getRowCount()).isEqualTo(100);
        assertThat(spec.getCleanup()).isEqualTo(CleanupPolicy.ALWAYS);
        assertThat(spec.getTimeout()).isEqualTo("15m");
    }

    @Test
    void keepsValuesThatAreSetAndLeavesMissingRequiredPartsMissing() {
        BenchmarkRunSpec spec =
                new BenchmarkRunSpec().withCleanup(CleanupPolicy.NEVER).withTimeout("1h");

        BenchmarkRunDefaults.apply(spec);

        assertThat(spec.getCleanup()).isEqualTo(CleanupPolicy.NEVER);
        assertThat(spec.getTimeout()).isEqualTo("1h");
        assertThat(spec.getTarget()).isNull();
        assertThat(spec.getWorkload()).isNull();
    }
}
