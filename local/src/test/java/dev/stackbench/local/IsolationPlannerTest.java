package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class IsolationPlannerTest {

    @Test
    void oneCpuOnTwoCoreMachineGivesTheTargetTheLastCpuAndEverythingElseTheFirst() {
        IsolationPlan plan = IsolationPlanner.plan(CpuSet.parse("0-1"), new BigDecimal("1"));

        assertThat(plan.targetCpus()).isEqualTo(CpuSet.of(1));
        assertThat(plan.supportCpus()).isEqualTo(CpuSet.of(0));
        assertThat(plan.activeProcessorCount()).isEqualTo(1);
        assertThat(plan.isolated()).isTrue();
        assertThat(plan.notes()).anyMatch(note -> note.contains("share one CPU"));
    }

    @Test
    void requestingEveryCpuSharesThemAndSaysResultsAreNotIsolated() {
        IsolationPlan plan = IsolationPlanner.plan(CpuSet.parse("0-1"), new BigDecimal("2"));

        assertThat(plan.targetCpus()).isEqualTo(CpuSet.parse("0-1"));
        assertThat(plan.supportCpus()).isEqualTo(CpuSet.parse("0-1"));
        assertThat(plan.isolated()).isFalse();
        assertThat(plan.notes())
                .contains("requested 2 CPUs for the target, machine has 2: target shares CPUs with "
                        + "k6 and PostgreSQL: results are not isolated");
    }

    @Test
    void fractionalRequestIsRoundedUpToWholeCpusAndSaidSo() {
        IsolationPlan plan = IsolationPlanner.plan(CpuSet.parse("0-7"), new BigDecimal("2.5"));

        assertThat(plan.targetCpus()).isEqualTo(CpuSet.parse("5-7"));
        assertThat(plan.supportCpus()).isEqualTo(CpuSet.parse("0-4"));
        assertThat(plan.activeProcessorCount()).isEqualTo(3);
        assertThat(plan.notes()).anyMatch(note -> note.contains("requested 2.5 CPUs") && note.contains("3 whole"));
    }

    @Test
    void moreCpusThanTheMachineHasKeepsTheJvmSizedAsInTheClusterAndWarns() {
        IsolationPlan plan = IsolationPlanner.plan(CpuSet.parse("0-1"), new BigDecimal("4"));

        assertThat(plan.activeProcessorCount()).isEqualTo(4);
        assertThat(plan.isolated()).isFalse();
        assertThat(plan.notes()).anyMatch(note -> note.contains("only 2 exist here"));
    }

    @Test
    void respectsAnAffinityMaskThatIsNotZeroBased() {
        IsolationPlan plan = IsolationPlanner.plan(CpuSet.parse("2,3,6"), new BigDecimal("0.5"));

        assertThat(plan.targetCpus()).isEqualTo(CpuSet.of(6));
        assertThat(plan.supportCpus()).isEqualTo(CpuSet.parse("2-3"));
        assertThat(plan.targetCpus().overlaps(plan.supportCpus())).isFalse();
    }

    @Test
    void refusesANonPositiveRequest() {
        assertThatThrownBy(() -> IsolationPlanner.plan(CpuSet.parse("0-1"), BigDecimal.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
