package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.run.BackendSpec;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.DatabaseSpec;
import dev.stackbench.api.run.ExternalDatabaseSpec;
import dev.stackbench.api.status.BenchmarkRunStatus;
import dev.stackbench.api.status.Phase;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PoolQueueTest {

    @Test
    void laterRunWaitsForTheEarlierOneOnTheSamePoolsWhichGoesFirst() {
        BenchmarkRun first = run("first", "2026-01-01T10:00:00Z", null);
        BenchmarkRun second = run("second", "2026-01-01T10:00:05Z", null);

        assertThat(PoolQueue.waitFor(first, List.of(first, second))).isEmpty();
        assertThat(PoolQueue.waitFor(second, List.of(first, second))).hasValueSatisfying(wait -> {
            assertThat(wait.blocker().getMetadata().getName()).isEqualTo("first");
            assertThat(wait.message()).contains("bench/first", "stackbench.dev/pool=");
        });
    }

    @Test
    void sameCreationTimeIsDecidedByName() {
        BenchmarkRun alpha = run("alpha", "2026-01-01T10:00:00Z", null);
        BenchmarkRun beta = run("beta", "2026-01-01T10:00:00Z", null);

        assertThat(PoolQueue.waitFor(alpha, List.of(beta, alpha))).isEmpty();
        assertThat(PoolQueue.waitFor(beta, List.of(beta, alpha))).isPresent();
    }

    @Test
    void aStartedRunBlocksEvenAnEarlierOneAndAFinishedRunBlocksNobody() {
        BenchmarkRun earlier = run("earlier", "2026-01-01T10:00:00Z", null);
        BenchmarkRun started = run("started", "2026-01-01T10:00:05Z", Phase.Running);
        BenchmarkRun finished = run("finished", "2026-01-01T09:00:00Z", Phase.Succeeded);

        assertThat(PoolQueue.waitFor(earlier, List.of(earlier, started, finished)))
                .hasValueSatisfying(wait ->
                        assertThat(wait.blocker().getMetadata().getName()).isEqualTo("started"));
        assertThat(PoolQueue.waitFor(started, List.of(earlier, started, finished)))
                .isEmpty();
    }

    @Test
    void runsOnDifferentPoolsOrWithoutPlacementNeverWait() {
        BenchmarkRun first = run("first", "2026-01-01T10:00:00Z", Phase.Running);
        BenchmarkRun elsewhere = run("elsewhere", "2026-01-01T10:00:05Z", null);
        elsewhere.getSpec().getPlacement().getTarget().setNodeSelector(Map.of("stackbench.dev/pool", "target-b"));
        elsewhere.getSpec().getPlacement().getBackend().setNodeSelector(Map.of("stackbench.dev/pool", "backend-b"));
        elsewhere.getSpec().getPlacement().getLoadgen().setNodeSelector(Map.of("stackbench.dev/pool", "loadgen-b"));
        BenchmarkRun anywhere = run("anywhere", "2026-01-01T10:00:05Z", null);
        anywhere.getSpec().setPlacement(null);

        assertThat(PoolQueue.waitFor(elsewhere, List.of(first, elsewhere))).isEmpty();
        assertThat(PoolQueue.waitFor(anywhere, List.of(first, anywhere))).isEmpty();
    }

    @Test
    void aStartedRunHoldsThePoolsItStartedWithWhateverItsSpecSaysNow() {
        BenchmarkRun started = run("started", "2026-01-01T10:00:00Z", Phase.Running);
        started.getStatus().setPools(PoolQueue.claims(started));
        // Editing the placement of a running run moves none of its pods: the pools stay taken.
        started.getSpec().setPlacement(null);
        BenchmarkRun next = run("next", "2026-01-01T10:00:05Z", null);

        assertThat(PoolQueue.waitFor(next, List.of(started, next)))
                .hasValueSatisfying(wait ->
                        assertThat(wait.blocker().getMetadata().getName()).isEqualTo("started"));
    }

    @Test
    void anEndedRunHoldsItsPoolsUntilItsPodsAreGoneAndARunThatNeverStartedHoldsNone() {
        BenchmarkRun kept = run("kept", "2026-01-01T10:00:00Z", Phase.Succeeded);
        kept.getStatus().setPools(PoolQueue.claims(kept));
        BenchmarkRun refused = run("refused", "2026-01-01T09:00:00Z", Phase.Failed);
        BenchmarkRun next = run("next", "2026-01-01T10:00:05Z", null);

        assertThat(PoolQueue.waitFor(next, List.of(kept, refused, next))).hasValueSatisfying(wait -> {
            assertThat(wait.blocker().getMetadata().getName()).isEqualTo("kept");
            assertThat(wait.message())
                    .contains("has ended but whose pods are still on", "delete BenchmarkRun bench/kept");
        });
        kept.getStatus().setPools(List.of());
        assertThat(PoolQueue.waitFor(next, List.of(kept, refused, next))).isEmpty();
    }

    @Test
    void runsOnOneExternalDatabaseQueueWhateverWayTheHostIsWritten() {
        BenchmarkRun first = onDatabase(run("first", "2026-01-01T10:00:00Z", Phase.Running), "pg");
        first.getStatus().setPools(PoolQueue.claims(first));
        BenchmarkRun second = onDatabase(run("second", "2026-01-01T10:00:05Z", null), "PG.bench.svc.cluster.local.");
        BenchmarkRun otherDatabase = onDatabase(run("other", "2026-01-01T10:00:05Z", null), "pg.elsewhere");
        for (BenchmarkRun run : List.of(second, otherDatabase)) {
            run.getSpec().setPlacement(null);
        }

        assertThat(PoolQueue.waitFor(second, List.of(first, second)))
                .hasValueSatisfying(wait ->
                        assertThat(wait.message()).contains("the same external database pg.bench.svc:5432/stackbench"));
        assertThat(PoolQueue.waitFor(otherDatabase, List.of(first, otherDatabase)))
                .isEmpty();
    }

    @Test
    void ofRunsCreatedInTheSameSecondTheOneTheOperatorSawFirstGoesFirst() {
        BenchmarkRun zulu = run("zulu", "2026-01-01T10:00:00Z", Phase.Queued);
        zulu.getStatus().setQueuedAt("2026-01-01T10:00:00.120Z");
        BenchmarkRun alpha = run("alpha", "2026-01-01T10:00:00Z", Phase.Queued);
        alpha.getStatus().setQueuedAt("2026-01-01T10:00:00.480Z");
        BenchmarkRun unseen = run("aaa", "2026-01-01T10:00:00Z", null);

        assertThat(PoolQueue.waitFor(zulu, List.of(alpha, zulu, unseen))).isEmpty();
        assertThat(PoolQueue.waitFor(alpha, List.of(alpha, zulu, unseen))).isPresent();
        assertThat(PoolQueue.waitFor(unseen, List.of(alpha, zulu, unseen))).isPresent();
    }

    private static BenchmarkRun onDatabase(BenchmarkRun run, String host) {
        if (run.getSpec().getBackend() == null) {
            run.getSpec().setBackend(new BackendSpec());
        }
        run.getSpec()
                .getBackend()
                .setDatabase(new DatabaseSpec().withExternal(new ExternalDatabaseSpec().withHost(host)));
        return run;
    }

    private static BenchmarkRun run(String name, String created, Phase phase) {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        run.getMetadata().setName(name);
        run.getMetadata().setCreationTimestamp(created);
        if (phase != null) {
            run.setStatus(new BenchmarkRunStatus().withPhase(phase));
        }
        return run;
    }
}
