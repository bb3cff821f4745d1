package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.BenchmarkRunStatus;
import dev.stackbench.api.LatencySummary;
import dev.stackbench.api.RunSummary;
import dev.stackbench.api.ServerAgreement;
import dev.stackbench.api.TargetSummary;
import dev.stackbench.k6.K6SummaryParser;
import dev.stackbench.k6.RunnerSummary;
import dev.stackbench.results.ScrapeLog;
import dev.stackbench.results.TimedScrape;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The operator's wiring of runner pod logs and target scrapes into the shared results code. */
class CoreResultsTest {

    private static final Path RESOURCES = Path.of("..", "core", "src", "test", "resources");

    @Test
    void theLoadStartedWhenTheEarliestRunnerSaysItDid() throws Exception {
        String withEnd = Files.readString(RESOURCES.resolve("k6/tiny-run-with-end.stdout"));
        String withoutEnd = Files.readString(RESOURCES.resolve("k6/tiny-run.stdout"));
        CoreResults results = new CoreResults(ExampleRuns.catalogue());

        assertThat(results.loadStartedAt(List.of(
                        new RunResults.RunnerLog("run-k6-1", withoutEnd),
                        new RunResults.RunnerLog("run-k6-2", "level=info msg=starting\n" + withEnd),
                        new RunResults.RunnerLog("run-k6-3", "no summary at all"))))
                .contains(Instant.ofEpochMilli(1795508568907L));
        assertThat(results.loadStartedAt(List.of(new RunResults.RunnerLog("run-k6-1", withoutEnd))))
                .as("runners whose summaries do not say when they ended leave the operator's own observation")
                .isEmpty();
    }

    @Test
    void combinesTheSummariesOfEveryRunnerLogDespiteLogLinesAroundThem() throws Exception {
        String k6Output = Files.readString(RESOURCES.resolve("k6/tiny-run.stdout"));
        RunnerSummary oneRunner = K6SummaryParser.parse(k6Output);
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        TargetSummary target = new TargetSummary().withPeakThreads(42);

        RunSummary summary = new CoreResults(ExampleRuns.catalogue())
                .summarize(
                        run,
                        List.of(
                                new RunResults.RunnerLog(
                                        "run-k6-1-abcde", "time=\"...\" level=info msg=\"starting\"\n" + k6Output),
                                new RunResults.RunnerLog(
                                        "run-k6-2-fghij", k6Output + "\nlevel=warning msg=\"done\"\n")),
                        target);

        assertThat(summary.getRunners()).isEqualTo(2);
        assertThat(summary.getRequests()).isPositive().isEqualTo(2 * oneRunner.requests());
        assertThat(summary.getFailedRequests()).isEqualTo(2 * oneRunner.failedRequests());
        assertThat(summary.getTarget().getPeakThreads()).isEqualTo(42);
    }

    @Test
    void aLogWithoutASummaryIsRefusedNamingThePod() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        CoreResults results = new CoreResults(ExampleRuns.catalogue());

        assertThatThrownBy(() -> results.summarize(
                        run,
                        List.of(new RunResults.RunnerLog(
                                "run-k6-1-abcde", "level=error msg=\"GoError: connection refused\"\n")),
                        null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("run-k6-1-abcde")
                .hasMessageContaining("kubectl logs");
        assertThatThrownBy(() -> results.summarize(run, List.of(), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no k6 runner pod");
    }

    @Test
    void targetScrapesBecomeTheTargetSummary() throws Exception {
        String scrape = Files.readString(RESOURCES.resolve("prometheus/webflux-r2dbc-actuator.txt"));
        TargetMetricsScraper.MetricsSummarizer metrics = CoreResults.newTargetMetrics();
        Instant from = Instant.parse("2026-01-01T10:00:00Z");
        Instant to = Instant.parse("2026-01-01T10:00:05Z");
        assertThat(metrics.summary(from, to)).isEmpty();

        metrics.add("target-0", scrape, from);
        metrics.add("target-0", scrape, to);
        metrics.add("target-0", scrape, to.plusSeconds(5));

        assertThat(metrics.summary(from, to)).hasValueSatisfying(summary -> {
            assertThat(summary.getPeakThreads()).isPositive();
            assertThat(summary.getSamples()).isEqualTo(2);
        });
    }

    @Test
    void theServerSideCheckReadsThePodsScrapesAroundTheMeasuredWindow() throws Exception {
        // Scrapes recorded around the measured window of a real mvc-jdbc run, 00:03:37 to 00:03:57.
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        run.getSpec().getWorkload().setWarmup("10s");
        run.getSpec().getWorkload().setDuration("20s");
        run.setStatus(new BenchmarkRunStatus());
        run.getStatus().setStartedAt("2026-11-23T00:03:27Z");
        TargetMetricsScraper.MetricsSummarizer metrics = CoreResults.newTargetMetrics();
        for (TimedScrape scrape : ScrapeLog.read(RESOURCES.resolve("prometheus/mvc-jdbc-overloaded-scrapes.txt"))) {
            metrics.add("run-target-0", scrape.prometheusText(), scrape.at());
        }
        TargetMetricsScraper.Window window = TargetMetricsScraper.measuredWindow(
                        run, run.getStatus().getStartedAt())
                .orElseThrow();
        RunSummary summary = new RunSummary()
                .withRps(31.2)
                .withLatencyMs(new LatencySummary().withP50(9423.8).withP95(9672.0));

        metrics.checkServerSide(summary, window.start(), window.end());

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
        TargetMetricsScraper.MetricsSummarizer metrics = CoreResults.newTargetMetrics();
        for (TimedScrape scrape : ScrapeLog.read(RESOURCES.resolve("prometheus/mvc-jdbc-overloaded-scrapes.txt"))) {
            metrics.add("run-target-0", scrape.prometheusText(), scrape.at());
        }
        TargetMetricsScraper.Window window = TargetMetricsScraper.measuredWindow(
                        run, run.getStatus().getStartedAt())
                .orElseThrow();
        RunSummary summary = new RunSummary().withRps(31.2);

        metrics.checkServerSide(summary, window.start(), window.end());

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

        new TargetMetricsScraper(null, CoreResults::newTargetMetrics)
                .checkServerSide(
                        run, run.getStatus() == null ? null : run.getStatus().getStartedAt(), summary);

        assertThat(summary.getServer().getUnavailableReason())
                .contains("no scrape of the target's /actuator/prometheus");
        assertThat(summary.getServer().getRps()).isNull();
    }
}
