package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.BenchmarkRunStatus;
import dev.stackbench.api.status.RunSummary;
import org.junit.jupiter.api.Test;

class TargetMetricsScraperTest {

    @Test
    void aRunTheOperatorNeverScrapedSaysSoInTheServerSummary() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        run.setStatus(new BenchmarkRunStatus());
        run.getStatus().setStartedAt("2026-11-23T00:03:25Z");
        RunSummary summary = new RunSummary().withRps(31.2);

        new TargetMetricsScraper(null).checkServerSide(run, run.getStatus().getStartedAt(), summary);

        assertThat(summary.getServer().getUnavailableReason())
                .contains("no scrape of the target's /actuator/prometheus");
        assertThat(summary.getServer().getRps()).isNull();
    }

    @Test
    void aRunTheOperatorNeverScrapedHasNoTargetFigures() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();

        TargetMetricsScraper.Outcome outcome = new TargetMetricsScraper(null).finish(run, "2026-11-23T00:03:25Z");

        assertThat(outcome.summary()).isEmpty();
        assertThat(outcome.pods()).isEmpty();
        assertThat(outcome.warning())
                .hasValueSatisfying(warning -> assertThat(warning).contains("made no scrape of /actuator/prometheus"));
    }
}
