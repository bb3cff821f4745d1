package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class MeasuredWindowTest {

    private static final Instant START = Instant.parse("2026-11-23T10:00:00Z");
    private static final MeasuredWindow WINDOW = new MeasuredWindow(START, START.plusSeconds(40));

    @Test
    void scrapesSpanningTheWindowGiveNoWarning() {
        // Every 2 s from the window's first second to its last: 38 of 40 s.
        assertThat(WINDOW.partialCoverage(Duration.ofSeconds(38))).isEmpty();
    }

    @Test
    void scrapesThatStartedLateInTheWindowAreSaidToCoverPartOfIt() {
        // An operator that came back 15 s into the window scraped its last 25 s.
        assertThat(WINDOW.partialCoverage(Duration.ofSeconds(25))).hasValueSatisfying(warning -> assertThat(warning)
                .contains("cover 25 s of the 40 s measured window")
                .contains("restart"));
    }

    @Test
    void theJournalOfAStepCountsItsWindowFromWhenThatStepsRunnersStarted() {
        dev.stackbench.api.run.BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        run.setStatus(new dev.stackbench.api.status.BenchmarkRunStatus());
        run.getStatus().setStartedAt("2026-11-23T10:00:00Z");
        run.getStatus().setConditions(new java.util.ArrayList<>());
        dev.stackbench.api.status.Conditions.set(
                run.getStatus().getConditions(),
                dev.stackbench.api.status.Conditions.LOAD_RUNNING,
                true,
                "LoadRunning",
                "1 k6 runner sends load",
                1L,
                Instant.parse("2026-11-23T10:05:00Z"));
        assertThat(MeasuredWindow.loadStartedAt(run))
                .as("an ordinary run: status.startedAt")
                .isEqualTo("2026-11-23T10:00:00Z");

        run.getSpec().getWorkload().getLoad().setRate(null);
        run.getSpec().getWorkload().setSweep(java.util.List.of(10, 20));

        assertThat(Instant.parse(MeasuredWindow.loadStartedAt(run)))
                .as("a step after the first: when its runners started")
                .isEqualTo(Instant.parse("2026-11-23T10:05:00Z"));
    }
}
