package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.BenchmarkRunStatus;
import dev.stackbench.api.status.Phase;
import dev.stackbench.lifecycle.RunProgress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import org.junit.jupiter.api.Test;

/**
 * A pass on a copy of the run older than the ended status this operator stored waits for the informer instead of
 * collecting again. The fast suite's view; the operator's integration tests run every run through it on a real API
 * server (BenchmarkRunLoadIT, with status writes that meet conflicts among them).
 */
class StoredEndsTest {

    private static final Instant STORED = Instant.parse("2026-12-06T20:00:00Z");
    private static final String UID = "5b0c2a4e-61a3-4f0e-9d0c-2b7f4f1c9a10";

    private final StoredEnds ends = new StoredEnds();

    @Test
    void aCopyStillCollectingAfterTheStoredEndWaitsSoonThenLessOften() {
        ends.stored(ended(UID));

        assertThat(ends.olderThanStored(run(UID, Phase.Collecting), STORED.plusMillis(20)))
                .contains(StoredEnds.SOON);
        assertThat(ends.olderThanStored(run(UID, Phase.Running), STORED.plusMillis(1_500)))
                .contains(StoredEnds.LATER);
    }

    @Test
    void theCopyWithTheEndIsCurrentAndTheRunIsForgottenThen() {
        ends.stored(ended(UID));

        assertThat(ends.olderThanStored(run(UID, Phase.Succeeded), STORED.plusMillis(60)))
                .isEmpty();
        // Nothing is remembered any more: a copy without the end (none can come now) is taken as it is.
        assertThat(ends.olderThanStored(run(UID, Phase.Collecting), STORED.plusMillis(70)))
                .isEmpty();
    }

    @Test
    void onlyAnEndedStatusOfThatVeryRunCounts() {
        RunProgress running = new RunProgress(run(UID, Phase.Running), STORED);
        ends.stored(running);
        assertThat(ends.olderThanStored(run(UID, Phase.Running), STORED.plusMillis(10)))
                .as("a run whose stored status has not ended")
                .isEmpty();

        ends.stored(ended(UID));
        assertThat(ends.olderThanStored(run("0f1e2d3c-aaaa-4bbb-8ccc-123456789abc", Phase.Collecting), STORED))
                .as("another run, or the same name created again")
                .isEmpty();
    }

    @Test
    void anEndNoPassSawForTenMinutesIsForgotten() {
        ends.stored(ended(UID));

        assertThat(ends.olderThanStored(run(UID, Phase.Collecting), STORED.plus(Duration.ofMinutes(11))))
                .isEmpty();
    }

    /** The pass that stored the run's end. */
    private static RunProgress ended(String uid) {
        RunProgress progress = new RunProgress(run(uid, Phase.Collecting), STORED);
        progress.fail("ResultsUnreadable", "the runners' summaries could not be read");
        assertThat(progress.isTerminal()).isTrue();
        return progress;
    }

    private static BenchmarkRun run(String uid, Phase phase) {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        run.getMetadata().setUid(uid);
        BenchmarkRunStatus status = new BenchmarkRunStatus();
        status.setConditions(new ArrayList<>());
        status.setPhase(phase);
        run.setStatus(status);
        return run;
    }
}
