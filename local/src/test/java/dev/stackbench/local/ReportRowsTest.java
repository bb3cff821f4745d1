package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.BenchmarkRunStatus;
import dev.stackbench.api.status.LatencySummary;
import dev.stackbench.api.status.Phase;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.api.status.TargetSummary;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.report.RunRow;
import dev.stackbench.results.GeneratorCheck;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReportRowsTest {

    private static BenchmarkRun run() {
        return BenchmarkRuns.read("""
                apiVersion: stackbench.dev/v1alpha1
                kind: BenchmarkRun
                metadata: {name: overload}
                spec:
                  target: {variant: mvc-jdbc, replicas: 3}
                  workload:
                    scenario: upstream
                    upstreamDelay: 300ms
                    parallelism: 2
                    load: {executor: constant-arrival-rate, rate: 120}
                """, "test").get(0);
    }

    @Test
    void theRowShowsTheStatusFiguresAndTheLoadGeneratorAlarmSeparately() {
        BenchmarkRun run = run();
        RunSummary summary = new RunSummary();
        summary.setRequests(2000L);
        summary.setRps(66.0);
        summary.setErrorRate(0.0);
        summary.setDroppedIterations(900L);
        LatencySummary latency = new LatencySummary();
        latency.setP50(4000.0);
        latency.setP95(7000.0);
        latency.setP99(7500.0);
        latency.setMax(7600.0);
        summary.setLatencyMs(latency);
        TargetSummary target = new TargetSummary();
        target.setPeakThreads(74);
        summary.setTarget(target);
        summary.setLittleLawRps(66.7);
        summary.addWarning("k6 dropped 900 of 3600 planned iterations (25.0%): it ran out of VUs");
        summary.addWarning("the requested rate 120/s is above the Little's-law cap");
        summary.setLimitedBy(new dev.stackbench.api.status.LimitedBy(
                "request-pool",
                List.of("74/74 tomcat threads in use in 96% of samples", "66.0 req/s at the Little's-law cap 66.7")));
        BenchmarkRunStatus status = new BenchmarkRunStatus();
        status.setPhase(Phase.Succeeded);
        status.setSummary(summary);
        run.setStatus(status);
        RunProgress progress = new RunProgress(run, java.time.Instant.parse("2026-01-01T10:00:00Z"));
        progress.generatorChecked(
                summary,
                GeneratorCheck.judge(
                        List.of(GeneratorCheck.Generator.localProcess(0.1, 1, Double.NaN, "nobody")), 900, List.of()));
        run.setStatus(progress.status());

        RunRow row = ReportRows.of(run, null);

        assertThat(row.name()).isEqualTo("overload");
        assertThat(row.phase()).isEqualTo("Succeeded");
        assertThat(row.rps()).isEqualTo(66.0);
        assertThat(row.p95Ms()).isEqualTo(7000.0);
        assertThat(row.peakThreads()).isEqualTo(74);
        assertThat(row.littleLawRps()).isEqualTo(66.7);
        assertThat(row.loadGeneratorAlarm())
                .startsWith("k6 could not generate the requested load (900 iterations dropped)");
        assertThat(row.warnings()).containsExactly("the requested rate 120/s is above the Little's-law cap");
        assertThat(row.limitedBy().getResource()).isEqualTo("request-pool");
        assertThat(row.details())
                .contains("limited by request-pool: 74/74 tomcat threads in use in 96% of samples; 66.0 req/s at the"
                        + " Little's-law cap 66.7");
    }

    @Test
    void aFailedRunWithoutSummaryStillGetsARowThatSaysWhy() {
        BenchmarkRun run = run();
        BenchmarkRunStatus status = new BenchmarkRunStatus();
        status.setPhase(Phase.Failed);
        status.setMessage("could not start PostgreSQL");
        run.setStatus(status);

        RunRow row = ReportRows.of(run, null);

        assertThat(row.phase()).isEqualTo("Failed");
        assertThat(row.rps()).isNull();
        assertThat(row.warnings()).containsExactly("failed: could not start PostgreSQL");
    }

    @Test
    void aSweepsRowCarriesItsStepsTheKeptStepAndTheCapacity() {
        BenchmarkRun run = run();
        RunSummary summary = new RunSummary();
        summary.setRps(199.8);
        summary.setStep(2);
        BenchmarkRunStatus status = new BenchmarkRunStatus();
        status.setPhase(Phase.Succeeded);
        status.setSummary(summary);
        status.setSteps(java.util.List.of(
                new dev.stackbench.api.status.StepResult().withStep(1).withLevel(100),
                new dev.stackbench.api.status.StepResult().withStep(2).withLevel(200)));
        status.setCapacity(new dev.stackbench.api.status.CapacityResult().withRate(200));
        run.setStatus(status);

        RunRow row = ReportRows.of(run, null);

        assertThat(row.rps()).isEqualTo(199.8);
        assertThat(row.steps())
                .extracting(dev.stackbench.api.status.StepResult::getLevel)
                .containsExactly(100, 200);
        assertThat(row.keptStep()).isEqualTo(2);
        assertThat(row.capacity().getRate()).isEqualTo(200);
    }

    @Test
    void aSweepThatFailedBeforeItsSummaryStillShowsTheStepsItMeasured() {
        BenchmarkRun run = run();
        BenchmarkRunStatus status = new BenchmarkRunStatus();
        status.setPhase(Phase.Failed);
        status.setMessage("the target exited");
        status.setSteps(java.util.List.of(
                new dev.stackbench.api.status.StepResult().withStep(1).withLevel(100)));
        run.setStatus(status);

        RunRow row = ReportRows.of(run, null);

        assertThat(row.steps()).hasSize(1);
        assertThat(row.keptStep()).isNull();
        assertThat(row.capacity()).isNull();
        assertThat(row.warnings()).containsExactly("failed: the target exited");
    }

    @Test
    void clusterOnlySettingsAreNamedRatherThanSilentlyIgnored() {
        assertThat(LocalEnvironment.clusterOnlySettings(run().getSpec()))
                .anyMatch(note -> note.contains("spec.target.replicas 3"))
                .anyMatch(note -> note.contains("spec.workload.parallelism 2"));
    }

    @Test
    void detailLinesGiveTheStatusesTheBurstAndTheLockGroups() {
        RunSummary summary = new RunSummary();
        summary.setStatusCodes(new java.util.LinkedHashMap<>(java.util.Map.of("0", 2L)));
        summary.getStatusCodes().put("200", 90L);
        summary.getStatusCodes().put("409", 180L);
        summary.setBurst(new dev.stackbench.api.status.BurstSummary()
                .withPlannedRequests(1000L)
                .withCompletedRequests(1000L)
                .withMakespanMs(1712.4));
        dev.stackbench.api.status.LockSummary lock = new dev.stackbench.api.status.LockSummary();
        lock.setGroupSize(3);
        lock.setGroups(90L);
        lock.setCorrectGroups(89L);
        lock.setGroupsWithSeveralSuccesses(1L);
        lock.setGroupsWithoutSuccess(0L);
        lock.setGroupsWithErrors(0L);
        lock.setLockWaitMs(
                new LatencySummary().withP50(2.04).withP95(7.9).withP99(11.0).withMax(12.5));
        lock.setLockWaitExact(true);
        summary.setLock(lock);

        assertThat(ReportRows.details(summary))
                .containsExactly(
                        "statuses: no response x2, 200 x90, 409 x180",
                        "burst: 1000 of 1000 requests answered, makespan 1712 ms (first request sent to last"
                                + " response)",
                        "lock: 90 groups of 3: 89 correct, 1 with several successes, 0 with none, 0 with errors;"
                                + " lock wait p50 2.0 ms, p95 7.9 ms, p99 11.0 ms, max 12.5 ms");
    }

    @Test
    void aPoolWithoutABusyThreadCountIsSaidSoInsteadOfAtMostMinusOne() {
        RunSummary summary = new RunSummary();
        summary.setTarget(new TargetSummary());
        summary.getTarget().setPeakPoolThreads(-1);

        assertThat(ReportRows.details(summary))
                .singleElement()
                .asString()
                .doesNotContain("at most -1")
                .contains("reports no busy-thread count");

        summary.getTarget().setPeakPoolThreads(12);
        assertThat(ReportRows.details(summary))
                .containsExactly("pool: at most 12 threads of the request pool at work (its live threads for an"
                        + " offloading pool)");
    }

    @Test
    void theIntendedStartLineNamesTheDroppedTheUnservedAndTheCutOffAndMarksLowerBounds() {
        dev.stackbench.api.status.IntendedLatency intended = new dev.stackbench.api.status.IntendedLatency();
        intended.setIntended(151L);
        intended.setDropped(4L);
        intended.setBeyondWindow(1L);
        intended.setCutOff(21L);
        intended.setP50(403.5);
        intended.setP90(410.0);
        intended.setP95(420.0);
        intended.setP99(900.0);
        intended.setLowerBounds(List.of("p99", "max"));

        assertThat(ReportRows.intendedLine(intended))
                .contains("from the intended start: p50 403.5, p90 410.0, p95 420.0, p99 >=900.0 ms over 151 intended"
                        + " iterations (4 dropped, 1 never served in the window, 21 cut off at the end)");
        intended.setCutOff(null);
        assertThat(ReportRows.intendedLine(intended).orElseThrow()).doesNotContain("cut off");
    }
}
