package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.BenchmarkRunStatus;
import dev.stackbench.api.LatencySummary;
import dev.stackbench.api.RunSummary;
import dev.stackbench.api.ServerAgreement;
import dev.stackbench.results.ScrapeLog;
import dev.stackbench.results.ServerSideCheck;
import dev.stackbench.results.TargetMetrics;
import dev.stackbench.results.TimedScrape;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TargetMetricsScraperTest {

    private static final Path RESOURCES = Path.of("..", "core", "src", "test", "resources");

    private static final Instant START = Instant.parse("2026-11-23T10:00:00Z");
    private static final TargetMetricsScraper.Window WINDOW =
            new TargetMetricsScraper.Window(START, START.plusSeconds(40));

    @Test
    void scrapesSpanningTheWindowGiveNoWarning() {
        // Every 2 s from the window's first second to its last: 38 of 40 s.
        assertThat(TargetMetricsScraper.partialCoverage(WINDOW, Duration.ofSeconds(38)))
                .isEmpty();
    }

    @Test
    void scrapesThatStartedLateInTheWindowAreSaidToCoverPartOfIt() {
        // An operator that came back 15 s into the window scraped its last 25 s.
        assertThat(TargetMetricsScraper.partialCoverage(WINDOW, Duration.ofSeconds(25)))
                .hasValueSatisfying(warning -> assertThat(warning)
                        .contains("cover 25 s of the 40 s measured window")
                        .contains("restart"));
    }

    @Test
    void theJournalOfAStepCountsItsWindowFromWhenThatStepsRunnersStarted() {
        dev.stackbench.api.BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        run.setStatus(new dev.stackbench.api.BenchmarkRunStatus());
        run.getStatus().setStartedAt("2026-11-23T10:00:00Z");
        run.getStatus().setConditions(new java.util.ArrayList<>());
        dev.stackbench.api.Conditions.set(
                run.getStatus().getConditions(),
                dev.stackbench.api.Conditions.LOAD_RUNNING,
                true,
                "LoadRunning",
                "1 k6 runner sends load",
                1L,
                Instant.parse("2026-11-23T10:05:00Z"));
        assertThat(TargetMetricsScraper.loadStartedAt(run))
                .as("an ordinary run: status.startedAt")
                .isEqualTo("2026-11-23T10:00:00Z");

        run.getSpec().getWorkload().getLoad().setRate(null);
        run.getSpec().getWorkload().setSweep(java.util.List.of(10, 20));

        assertThat(Instant.parse(TargetMetricsScraper.loadStartedAt(run)))
                .as("a step after the first: when its runners started")
                .isEqualTo(Instant.parse("2026-11-23T10:05:00Z"));
    }

    @Test
    void theServerSideCheckReadsThePodsScrapesAroundTheMeasuredWindow() throws Exception {
        // Scrapes recorded around the measured window of a real mvc-jdbc run, 00:03:37 to 00:03:57.
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        run.getSpec().getWorkload().setWarmup("10s");
        run.getSpec().getWorkload().setDuration("20s");
        run.setStatus(new BenchmarkRunStatus());
        run.getStatus().setStartedAt("2026-11-23T00:03:27Z");
        TargetMetrics metrics = new TargetMetrics();
        for (TimedScrape scrape : ScrapeLog.read(RESOURCES.resolve("prometheus/mvc-jdbc-overloaded-scrapes.txt"))) {
            metrics.add(scrape.at(), "run-target-0", scrape.prometheusText());
        }
        TargetMetricsScraper.Window window = TargetMetricsScraper.measuredWindow(
                        run, run.getStatus().getStartedAt())
                .orElseThrow();
        RunSummary summary = new RunSummary()
                .withRps(31.2)
                .withLatencyMs(new LatencySummary().withP50(9423.8).withP95(9672.0));

        ServerSideCheck.addTo(summary, metrics.serverRequests(), window.start(), window.end());

        assertThat(window.start()).isEqualTo(Instant.parse("2026-11-23T00:03:37Z"));
        assertThat(window.end()).isEqualTo(Instant.parse("2026-11-23T00:03:57Z"));
        assertThat(summary.getServer().getRequests()).isEqualTo(626);
        assertThat(summary.getServer().getRpsCheck()).isEqualTo(ServerAgreement.AGREES);
        assertThat(summary.getServer().getP95Check()).isEqualTo(ServerAgreement.CLIENT_HIGHER);
        assertThat(summary.getWarnings())
                .anySatisfy(warning -> assertThat(warning).contains("queued before the server's timer started"));
    }

    @Test
    void scrapesThatStartInsideTheWindowGiveTheReasonInsteadOfServerFigures() throws Exception {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        run.getSpec().getWorkload().setWarmup("10s");
        run.getSpec().getWorkload().setDuration("20s");
        run.setStatus(new BenchmarkRunStatus());
        // load seen started 2 s earlier than in the recording: the window starts before the first scrape
        run.getStatus().setStartedAt("2026-11-23T00:03:25Z");
        TargetMetrics metrics = new TargetMetrics();
        for (TimedScrape scrape : ScrapeLog.read(RESOURCES.resolve("prometheus/mvc-jdbc-overloaded-scrapes.txt"))) {
            metrics.add(scrape.at(), "run-target-0", scrape.prometheusText());
        }
        TargetMetricsScraper.Window window = TargetMetricsScraper.measuredWindow(
                        run, run.getStatus().getStartedAt())
                .orElseThrow();
        RunSummary summary = new RunSummary().withRps(31.2);

        ServerSideCheck.addTo(summary, metrics.serverRequests(), window.start(), window.end());

        assertThat(summary.getServer().getUnavailableReason())
                .contains("no scrape of the target at or before the measured window's start 2026-11-23T00:03:35Z");
        assertThat(summary.getServer().getRps()).isNull();
        assertThat(summary.getWarnings()).isNull();
    }

    @Test
    void aRunTheOperatorNeverScrapedSaysSoInTheServerSummary() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        run.setStatus(new BenchmarkRunStatus());
        run.getStatus().setStartedAt("2026-11-23T00:03:25Z");
        RunSummary summary = new RunSummary().withRps(31.2);

        new TargetMetricsScraper(null)
                .checkServerSide(
                        run, run.getStatus() == null ? null : run.getStatus().getStartedAt(), summary);

        assertThat(summary.getServer().getUnavailableReason())
                .contains("no scrape of the target's /actuator/prometheus");
        assertThat(summary.getServer().getRps()).isNull();
    }
}
