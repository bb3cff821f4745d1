package dev.stackbench.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.BenchmarkRunDefaults;
import dev.stackbench.api.status.Conditions;
import dev.stackbench.api.status.LatencySummary;
import dev.stackbench.api.status.Phase;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.results.GeneratorCheck;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RunProgressTest {

    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

    /** examples/webflux-r2dbc.yaml with defaults applied, as both runners see it. */
    static BenchmarkRun exampleRun() {
        BenchmarkRun run = BenchmarkRuns.readOne(Path.of("..", "examples", "webflux-r2dbc.yaml"));
        run.getMetadata().setGeneration(1L);
        return BenchmarkRunDefaults.apply(run);
    }

    @Test
    void theTimelineHasEveryEventWithItsSecondsSinceTheRunWasCreatedInTimeOrder() {
        BenchmarkRun run = exampleRun();
        run.getMetadata().setCreationTimestamp("2026-01-01T09:59:58Z");
        java.util.concurrent.atomic.AtomicReference<Instant> now =
                new java.util.concurrent.atomic.AtomicReference<>(T0);
        java.time.Clock clock = new java.time.Clock() {
            @Override
            public java.time.ZoneId getZone() {
                return java.time.ZoneOffset.UTC;
            }

            @Override
            public java.time.Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now.get();
            }
        };
        RunProgress progress = new RunProgress(run, clock);

        progress.accepted();
        now.set(T0.plusMillis(4_250));
        progress.targetReady();
        // A pod's milestone learnt later, between the two: it takes its place in time.
        progress.addToTimeline(T0.plusSeconds(1), "database Ready", false);

        assertThat(progress.status().getTimeline())
                .extracting(e -> e.getWhat() + "@" + e.getSeconds())
                .containsExactly("Accepted@2.0", "database Ready@3.0", "TargetReady@6.3");
        assertThat(progress.status().getTimeline().getLast().getAt()).isEqualTo("2026-01-01T10:00:04.250Z");

        // Full: only the end (or a failure) still gets in, in place of the last entry.
        for (int i = progress.status().getTimeline().size(); i < RunProgress.TIMELINE_LIMIT; i++) {
            progress.addToTimeline(T0.plusSeconds(10 + i), "step " + i, false);
        }
        progress.addToTimeline(T0.plusSeconds(500), "step beyond", false);
        progress.addToTimeline(T0.plusSeconds(501), "RunSucceeded", true);
        assertThat(progress.status().getTimeline()).hasSize(RunProgress.TIMELINE_LIMIT);
        assertThat(progress.status().getTimeline().getLast().getWhat()).isEqualTo("RunSucceeded");
        assertThat(progress.status().getTimeline()).noneMatch(e -> e.getWhat().equals("step beyond"));
    }

    @Test
    void aSuccessfulRunGoesThroughTheSharedStepsWithTheirReasons() {
        RunProgress progress = new RunProgress(exampleRun(), T0);

        progress.accepted();
        progress.poolsAcquired("no other run uses the node pools of this run");
        progress.waitingForTarget("target not Ready yet");
        progress.targetReady();
        progress.loadRunning(1, "http://target:8080");
        progress.warmingUp("10s");
        progress.measuring("30s");
        progress.loadFinished(1);
        RunSummary summary = new RunSummary();
        summary.setRequests(300L);
        summary.setRps(10.0);
        summary.setErrorRate(0.0);
        LatencySummary latency = new LatencySummary();
        latency.setP95(12.5);
        summary.setLatencyMs(latency);
        progress.succeeded(summary, 1);

        assertThat(progress.phase()).isEqualTo(Phase.Succeeded);
        assertThat(progress.status().getStartedAt()).isEqualTo("2026-01-01T10:00:00Z");
        assertThat(progress.status().getMessage())
                .isEqualTo("300 requests, 10.0 requests/s, p95 12.5 ms, error rate 0.0000");
        assertThat(progress.status().getConditions())
                .extracting(c -> c.getType() + "=" + c.getStatus() + "/" + c.getReason())
                .containsExactly(
                        "PoolsAvailable=True/PoolsAcquired",
                        "TargetReady=True/TargetReady",
                        "LoadRunning=False/LoadFinished",
                        "ResultsCollected=True/ResultsCollected",
                        "Complete=True/RunSucceeded");
        assertThat(progress.takeEvents())
                .extracting(RunProgress.Event::reason)
                .containsExactly(
                        "Accepted",
                        "PoolsAcquired",
                        "Provisioning",
                        "WaitingForTarget",
                        "TargetReady",
                        "LoadRunning",
                        "WarmingUp",
                        "Running",
                        "LoadFinished",
                        "Collecting",
                        "ResultsCollected",
                        "RunSucceeded");
        assertThat(progress.takeEvents()).as("steps are handed out once").isEmpty();
    }

    @Test
    void aSaturatedGeneratorIsAConditionAndAWarningOnceDroppedIterationsAreOnlyACondition() {
        RunProgress progress = new RunProgress(exampleRun(), T0);
        RunSummary summary = new RunSummary();
        String saturated = "k6 could not generate the requested load (r used 0.10 of the 0.10 CPU it may use)";
        GeneratorCheck.Judgement judgement = new GeneratorCheck.Judgement(
                Optional.of(new GeneratorCheck.Finding(GeneratorCheck.RUNNER_CPU_SATURATED, saturated)), null);

        progress.generatorChecked(summary, judgement);
        progress.generatorChecked(summary, judgement);

        assertThat(progress.condition(Conditions.GENERATOR_SATURATED)).hasValueSatisfying(c -> {
            assertThat(c.getStatus()).isEqualTo(Conditions.TRUE);
            assertThat(c.getReason()).isEqualTo("RunnerCpuSaturated");
            assertThat(c.getMessage()).isEqualTo(saturated);
        });
        assertThat(summary.getWarnings()).as("once, however often checked").containsExactly(saturated);

        RunSummary dropped = new RunSummary().addWarning("k6 dropped 3 of 300 planned iterations");
        progress.generatorChecked(
                dropped,
                new GeneratorCheck.Judgement(
                        Optional.of(
                                new GeneratorCheck.Finding(GeneratorCheck.ITERATIONS_DROPPED, "3 iterations dropped")),
                        null));
        assertThat(dropped.getWarnings()).as("the summary already says it").hasSize(1);

        progress.generatorChecked(new RunSummary(), new GeneratorCheck.Judgement(Optional.empty(), "k6 kept up"));
        assertThat(progress.condition(Conditions.GENERATOR_SATURATED))
                .hasValueSatisfying(c ->
                        assertThat(c.getReason() + ": " + c.getMessage()).isEqualTo("GeneratorKeptUp: k6 kept up"));
    }

    @Test
    void thresholdsGetAConditionOnlyWhenTheRunHadThresholds() {
        RunProgress withThresholds = new RunProgress(exampleRun(), T0);
        RunSummary failed = new RunSummary();
        failed.setRequests(1L);
        failed.setRps(1.0);
        failed.setErrorRate(0.0);
        failed.setThresholdsPassed(false);
        withThresholds.succeeded(failed, 2);
        assertThat(withThresholds.condition(Conditions.THRESHOLDS_PASSED))
                .hasValueSatisfying(c -> assertThat(c.getReason()).isEqualTo("ThresholdsFailed"));

        RunProgress without = new RunProgress(exampleRun(), T0);
        RunSummary noThresholds = new RunSummary();
        noThresholds.setRequests(1L);
        noThresholds.setRps(1.0);
        noThresholds.setErrorRate(0.0);
        without.succeeded(noThresholds, 1);
        assertThat(without.condition(Conditions.THRESHOLDS_PASSED)).isEmpty();
    }

    @Test
    void aTargetThatNeverBecomesReadyFailsTheRunNamingTheProblem() {
        RunProgress progress = new RunProgress(exampleRun(), T0);
        progress.accepted();
        progress.poolsAcquired("pools held");

        progress.targetNotReady(Duration.ofMinutes(3), "target pod OOMKilled");

        assertThat(progress.phase()).isEqualTo(Phase.Failed);
        assertThat(progress.status().getMessage()).isEqualTo("not Ready within 3m: target pod OOMKilled");
        assertThat(progress.condition(Conditions.TARGET_READY))
                .hasValueSatisfying(c -> assertThat(c.getReason()).isEqualTo("TargetNotReady"));
    }

    @Test
    void phasesOnlyMoveForwardAndAFinalPhaseStays() {
        RunProgress progress = new RunProgress(exampleRun(), T0);

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
        assertThat(progress.events())
                .extracting(RunProgress.Event::reason)
                .containsExactly("Accepted", "Running", "RunnerFailed");
        assertThat(progress.events().getLast().warning()).isTrue();
    }

    @Test
    void aProblemWarnsOnceUntilItIsCleared() {
        BenchmarkRun run = exampleRun();
        RunProgress first = new RunProgress(run, T0);
        first.problem(RunProgress.STALLED, "Forbidden", "may not get pods/log");
        assertThat(first.events()).singleElement().satisfies(step -> {
            assertThat(step.warning()).isTrue();
            assertThat(step.reason()).isEqualTo("Forbidden");
        });

        run.setStatus(first.status());
        RunProgress again = new RunProgress(run, T0.plusSeconds(5));
        again.problem(RunProgress.STALLED, "Forbidden", "may not get pods/log");
        assertThat(again.events()).as("still stalled: no second warning").isEmpty();
        again.condition(RunProgress.STALLED, false, "PermissionGranted", "granted");
        assertThat(again.events()).extracting(RunProgress.Event::reason).containsExactly("PermissionGranted");
        assertThat(again.condition(RunProgress.STALLED))
                .hasValueSatisfying(stalled -> assertThat(stalled.getStatus()).isEqualTo(Conditions.FALSE));
    }

    @Test
    void conditionTransitionTimeChangesOnlyWhenItsStatusFlips() {
        BenchmarkRun run = exampleRun();
        RunProgress first = new RunProgress(run, T0);
        first.condition(Conditions.TARGET_READY, false, "WaitingForTarget", "pod a is not Ready");
        run.setStatus(first.status());

        RunProgress second = new RunProgress(run, T0.plusSeconds(30));
        second.condition(Conditions.TARGET_READY, false, "WaitingForTarget", "pod b is not Ready");
        assertThat(second.condition(Conditions.TARGET_READY).orElseThrow().getLastTransitionTime())
                .isEqualTo("2026-01-01T10:00:00Z");
        assertThat(second.events()).isEmpty();
        second.condition(Conditions.TARGET_READY, true, "TargetReady", "ready");

        assertThat(second.condition(Conditions.TARGET_READY).orElseThrow().getLastTransitionTime())
                .isEqualTo("2026-01-01T10:00:30Z");
        assertThat(second.events()).extracting(RunProgress.Event::reason).containsExactly("TargetReady");
    }

    @Test
    void reportsNoChangeWhenAReconcileChangesNothing() {
        BenchmarkRun run = exampleRun();
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
