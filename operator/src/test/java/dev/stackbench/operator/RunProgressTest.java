package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.Conditions;
import dev.stackbench.api.Phase;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RunProgressTest {

    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

    @Test
    void phasesOnlyMoveForwardAndAFinalPhaseStays() {
        RunProgress progress = new RunProgress(ExampleRuns.webfluxR2dbc(), T0);

        assertThat(progress.moveTo(Phase.Pending, "Accepted", "accepted")).isTrue();
        assertThat(progress.moveTo(Phase.Running, "Running", "running")).isTrue();
        assertThat(progress.moveTo(Phase.Provisioning, "Provisioning", "back")).isFalse();
        assertThat(progress.phase()).isEqualTo(Phase.Running);
        progress.fail("RunnerFailed", "runner 1 failed");
        assertThat(progress.moveTo(Phase.Succeeded, "RunSucceeded", "done")).isFalse();

        assertThat(progress.phase()).isEqualTo(Phase.Failed);
        assertThat(progress.status().getFinishedAt()).isEqualTo("2026-01-01T10:00:00Z");
        assertThat(progress.condition(Conditions.COMPLETE)).hasValueSatisfying(complete -> {
            assertThat(complete.getReason()).isEqualTo("RunnerFailed");
            assertThat(complete.getMessage()).isEqualTo("runner 1 failed");
        });
        assertThat(progress.steps())
                .extracting(RunProgress.Step::reason)
                .containsExactly("Accepted", "Running", "RunnerFailed");
        assertThat(progress.steps().getLast().warning()).isTrue();
    }

    @Test
    void aProblemWarnsOnceUntilItIsCleared() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        RunProgress first = new RunProgress(run, T0);
        first.problem(RunProgress.STALLED, "Forbidden", "may not get pods/log");
        assertThat(first.steps()).singleElement().satisfies(step -> {
            assertThat(step.warning()).isTrue();
            assertThat(step.reason()).isEqualTo("Forbidden");
        });

        run.setStatus(first.status());
        RunProgress again = new RunProgress(run, T0.plusSeconds(5));
        again.problem(RunProgress.STALLED, "Forbidden", "may not get pods/log");
        assertThat(again.steps()).as("still stalled: no second warning").isEmpty();
        again.condition(RunProgress.STALLED, false, "PermissionGranted", "granted");
        assertThat(again.steps()).extracting(RunProgress.Step::reason).containsExactly("PermissionGranted");
        assertThat(again.condition(RunProgress.STALLED))
                .hasValueSatisfying(stalled -> assertThat(stalled.getStatus()).isEqualTo(Conditions.FALSE));
    }

    @Test
    void conditionTransitionTimeChangesOnlyWhenItsStatusFlips() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        RunProgress first = new RunProgress(run, T0);
        first.condition(Conditions.TARGET_READY, false, "WaitingForTarget", "pod a is not Ready");
        run.setStatus(first.status());

        RunProgress second = new RunProgress(run, T0.plusSeconds(30));
        second.condition(Conditions.TARGET_READY, false, "WaitingForTarget", "pod b is not Ready");
        assertThat(second.condition(Conditions.TARGET_READY).orElseThrow().getLastTransitionTime())
                .isEqualTo("2026-01-01T10:00:00Z");
        assertThat(second.steps()).isEmpty();
        second.condition(Conditions.TARGET_READY, true, "TargetReady", "ready");

        assertThat(second.condition(Conditions.TARGET_READY).orElseThrow().getLastTransitionTime())
                .isEqualTo("2026-01-01T10:00:30Z");
        assertThat(second.steps()).extracting(RunProgress.Step::reason).containsExactly("TargetReady");
    }

    @Test
    void reportsNoChangeWhenAReconcileChangesNothing() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        RunProgress first = new RunProgress(run, T0);
        first.moveTo(Phase.Pending, "Accepted", "accepted");
        first.condition(RunProgress.POOLS_AVAILABLE, true, "PoolsAcquired", "free");
        assertThat(first.changed()).isTrue();
        run.setStatus(first.status());

        RunProgress again = new RunProgress(run, T0.plusSeconds(5));
        again.moveTo(Phase.Pending, "Accepted", "accepted");
        again.condition(RunProgress.POOLS_AVAILABLE, true, "PoolsAcquired", "free");

        assertThat(again.changed()).isFalse();
        assertThat(again.status().getObservedGeneration()).isEqualTo(1L);
    }
}
