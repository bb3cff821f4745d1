package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.BenchmarkRunStatus;
import dev.stackbench.api.status.TimelineEntry;
import dev.stackbench.lifecycle.RunProgress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The entries of a pass whose status write was refused reach the status with a later pass. The fast suite's view; on a
 * real API server whose writes keep meeting conflicts, BenchmarkRunLoadIT checks the run's timeline against its Events.
 */
class TimelineCarryTest {

    private static final Instant CREATED = Instant.parse("2026-12-06T10:00:00Z");

    private final TimelineCarry carry = new TimelineCarry();

    @Test
    void whatALostPassRecordedReachesTheNextStoredStatusAtTheTimeItHappened() {
        BenchmarkRun read = run(entry(1.0, "Accepted"));
        RunProgress lost = new RunProgress(read, CREATED.plusSeconds(3));
        lost.note("VerificationStarted", "started the verification pod");
        lost.addToTimeline(CREATED.plusSeconds(2), "verification pod created", false);
        carry.keep(lost);
        assertThat(carry.waiting()).isEqualTo(1);

        // The repeat reads the run as stored by another writer meanwhile; it does not start the verification again.
        RunProgress repeat = new RunProgress(run(entry(1.0, "Accepted"), entry(2.5, "database Ready")), at(3.2));
        carry.restore(repeat);

        assertThat(repeat.status().getTimeline())
                .extracting(TimelineEntry::getSeconds, TimelineEntry::getWhat)
                .containsExactly(
                        tuple(1.0, "Accepted"),
                        tuple(2.0, "verification pod created"),
                        tuple(2.5, "database Ready"),
                        tuple(3.0, "VerificationStarted"));
        assertThat(repeat.changed()).isTrue();
        carry.stored(repeat);
        assertThat(carry.waiting()).isZero();
    }

    @Test
    void aMomentTheTimelineHasAlreadyIsNotAddedTwice() {
        // A pass on a stale copy records TargetReady again, 0.4 s after the stored one: its write fails.
        RunProgress stale = new RunProgress(run(entry(1.0, "Accepted")), at(5.4));
        stale.note("TargetReady", "the target answers");
        carry.keep(stale);

        RunProgress fresh = new RunProgress(run(entry(1.0, "Accepted"), entry(5.0, "TargetReady")), at(5.7));
        carry.restore(fresh);
        assertThat(fresh.status().getTimeline())
                .extracting(TimelineEntry::getWhat)
                .containsExactly("Accepted", "TargetReady");
        assertThat(fresh.changed()).isFalse();
        carry.stored(fresh);

        // A repeat that derives the moment again (later) keeps one entry, at the time the lost pass saw it.
        RunProgress lost = new RunProgress(run(entry(1.0, "Accepted")), at(6.0));
        lost.note("WorkVerified", "verified");
        carry.keep(lost);
        RunProgress repeat = new RunProgress(run(entry(1.0, "Accepted")), at(6.2));
        repeat.note("WorkVerified", "verified");
        carry.restore(repeat);
        assertThat(repeat.status().getTimeline())
                .extracting(TimelineEntry::getSeconds, TimelineEntry::getWhat)
                .containsExactly(tuple(1.0, "Accepted"), tuple(6.0, "WorkVerified"));
    }

    @Test
    void theSameNameLongAfterIsAnotherMomentAndTwoLostPassesAddUp() {
        // A sweep's second step starts well after the first: the lost StepStarted is its own moment.
        BenchmarkRun read = run(entry(1.0, "StepStarted"));
        RunProgress first = new RunProgress(read, at(30.0));
        first.note("StepStarted", "step 2");
        carry.keep(first);
        RunProgress second = new RunProgress(read, at(30.3));
        second.note("LoadRunning", "step 2 runs");
        carry.keep(second);

        RunProgress next = new RunProgress(read, at(31.0));
        carry.restore(next);
        assertThat(next.status().getTimeline())
                .extracting(TimelineEntry::getSeconds, TimelineEntry::getWhat)
                .containsExactly(tuple(1.0, "StepStarted"), tuple(30.0, "StepStarted"), tuple(30.3, "LoadRunning"));
    }

    @Test
    void aPassThatAddedNothingKeepsNothingAndARunWithoutUidIsLeftAlone() {
        RunProgress nothing = new RunProgress(run(entry(1.0, "Accepted")), at(2.0));
        carry.keep(nothing);
        assertThat(carry.waiting()).isZero();

        BenchmarkRun noUid = run();
        noUid.getMetadata().setUid(null);
        RunProgress pass = new RunProgress(noUid, at(2.0));
        pass.note("Accepted", "accepted");
        carry.keep(pass);
        carry.restore(pass);
        assertThat(carry.waiting()).isZero();
    }

    private static Instant at(double seconds) {
        return CREATED.plusMillis(Math.round(seconds * 1000));
    }

    private static TimelineEntry entry(double seconds, String what) {
        return new TimelineEntry()
                .withAt(at(seconds).toString())
                .withSeconds(seconds)
                .withWhat(what);
    }

    /** The example run created at {@link #CREATED}, with the same uid every time, its status holding these entries. */
    private static BenchmarkRun run(TimelineEntry... timeline) {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        run.getMetadata().setUid("8d4c6b0e-0d7e-4a57-9a53-5f1d3c0c2f11");
        run.getMetadata().setCreationTimestamp(CREATED.toString());
        BenchmarkRunStatus status = new BenchmarkRunStatus();
        status.setTimeline(new ArrayList<>(List.of(timeline)));
        status.setConditions(new ArrayList<>());
        status.setObservedGeneration(run.getMetadata().getGeneration());
        run.setStatus(status);
        return run;
    }
}
