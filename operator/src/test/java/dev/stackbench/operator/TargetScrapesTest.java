package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.BenchmarkRunStatus;
import dev.stackbench.api.status.LatencySummary;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.api.status.ServerAgreement;
import dev.stackbench.results.ScrapeLog;
import dev.stackbench.results.TimedScrape;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A run's target scrapes and what they add up to over its measured window. */
class TargetScrapesTest {

    private static final Path RESOURCES = Path.of("..", "core", "src", "test", "resources");

    @Test
    void scrapesInTheWindowBecomeTheTargetSummary() throws Exception {
        String scrape = Files.readString(RESOURCES.resolve("prometheus/webflux-r2dbc-actuator.txt"));
        BenchmarkRun run = runWithoutWarmup("5s");
        String startedAt = "2026-01-01T10:00:00Z";
        Instant from = Instant.parse(startedAt);
        TargetScrapes scrapes = new TargetScrapes();
        scrapes.failed("the operator saw no target pod to scrape at " + from.minusSeconds(2));
        assertThat(scrapes.outcome(run, startedAt).warning())
                .as("no scrape yet: the last failure says why")
                .contains("target metrics unavailable: the operator saw no target pod to scrape at"
                        + " 2026-01-01T09:59:58Z");

        scrapes.add("target-0", scrape, from);
        scrapes.add("target-0", scrape, from.plusSeconds(5));
        scrapes.add("target-0", scrape, from.plusSeconds(10));

        TargetMetricsScraper.Outcome outcome = scrapes.outcome(run, startedAt);
        assertThat(outcome.summary()).hasValueSatisfying(summary -> {
            assertThat(summary.getPeakThreads()).isPositive();
            assertThat(summary.getSamples()).isEqualTo(2);
        });
        assertThat(outcome.pods()).containsOnlyKeys("target-0");
        assertThat(outcome.warning()).isEmpty();
        assertThat(outcome.hostSteal())
                .as("the recorded page has no machine ticks")
                .isEmpty();
    }

    @Test
    void theMachinesTicksOnTheTargetsPagesGiveTheWindowsSteal() throws Exception {
        String scrape = Files.readString(RESOURCES.resolve("prometheus/webflux-r2dbc-actuator.txt"));
        String startedAt = "2026-01-01T10:00:00Z";
        Instant from = Instant.parse(startedAt);
        TargetScrapes scrapes = new TargetScrapes();
        long[][] ticks = {{100, 10_000}, {130, 11_000}, {160, 12_000}};
        for (int i = 0; i < ticks.length; i++) {
            scrapes.add(
                    "target-0",
                    scrape + "stackbench_host_cpu_ticks_total{mode=\"steal\"} " + ticks[i][0] + "\n"
                            + "stackbench_host_cpu_ticks_total{mode=\"all\"} " + ticks[i][1] + "\n",
                    from.plusSeconds(5L * i));
        }

        assertThat(scrapes.outcome(runWithoutWarmup("10s"), startedAt).hostSteal())
                .hasValue(0.03);
    }

    @Test
    void theDelayServicesNodeCountsWhenItLostMoreThanTheTargetsAndItsScrapesSurviveTheJournal() throws Exception {
        String scrape = Files.readString(RESOURCES.resolve("prometheus/webflux-r2dbc-actuator.txt"));
        // A page with an app's figures: a delay service's JVM publishes threads, heap and requests too.
        String delayPage = scrape;
        String startedAt = "2026-01-01T10:00:00Z";
        Instant from = Instant.parse(startedAt);
        BenchmarkRun run = runWithoutWarmup("10s");
        TargetScrapes scrapes = new TargetScrapes();
        long[][] target = {{100, 10_000}, {110, 11_000}, {120, 12_000}};
        long[][] backend = {{500, 20_000}, {580, 21_000}, {660, 22_000}};
        for (int i = 0; i < target.length; i++) {
            scrapes.add("target-0", scrape + ticks(target[i]), from.plusSeconds(5L * i));
        }
        assertThat(scrapes.outcome(run, startedAt).hostSteal())
                .as("the target's node alone")
                .hasValue(0.01);

        for (int i = 0; i < backend.length; i++) {
            scrapes.addBackend("delay-0", delayPage + ticks(backend[i]), from.plusSeconds(5L * i), Optional.empty());
        }
        TargetMetricsScraper.Outcome outcome = scrapes.outcome(run, startedAt);
        assertThat(outcome.hostSteal()).as("the backend's node lost more").hasValue(0.08);
        assertThat(outcome.pods()).as("the delay service is no target instance").containsOnlyKeys("target-0");
        assertThat(outcome.summary())
                .as("the target's three scrapes, none of the delay service's")
                .hasValueSatisfying(summary -> assertThat(summary.getSamples()).isEqualTo(3));
        assertThat(scrapes.backendJournal().lines().toList())
                .as("only the machine's ticks are kept of a delay-service page: no threads")
                .hasSize(3)
                .allSatisfy(line -> assertThat(line.split("\t")).satisfies(fields -> {
                    assertThat(fields[1]).isEqualTo("delay-0");
                    assertThat(fields[2]).isEqualTo("NaN");
                }));

        TargetScrapes restarted = new TargetScrapes();
        restarted.load(scrapes.journal(null, null));
        restarted.loadBackend(scrapes.backendJournal());
        assertThat(restarted.outcome(run, startedAt).hostSteal())
                .as("an operator that took up the journal")
                .hasValue(0.08);

        TargetScrapes olderJournal = new TargetScrapes();
        olderJournal.load(scrapes.journal(null, null));
        olderJournal.loadBackend("");
        assertThat(olderJournal.outcome(run, startedAt).hostSteal())
                .as("a journal written before the backend's scrapes were kept")
                .hasValue(0.01);
    }

    private static String ticks(long[] stealAndAll) {
        return "stackbench_host_cpu_ticks_total{mode=\"steal\"} " + stealAndAll[0] + "\n"
                + "stackbench_host_cpu_ticks_total{mode=\"all\"} " + stealAndAll[1] + "\n";
    }

    private static BenchmarkRun runWithoutWarmup(String duration) {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        run.getSpec().getWorkload().setWarmup("0s");
        run.getSpec().getWorkload().setDuration(duration);
        return run;
    }

    @Test
    void theServerSideCheckReadsThePodsScrapesAroundTheMeasuredWindow() throws Exception {
        // Scrapes recorded around the measured window of a real mvc-jdbc run, 00:03:37 to 00:03:57.
        BenchmarkRun run = recordedRun("2026-11-23T00:03:27Z");
        MeasuredWindow window =
                MeasuredWindow.of(run, run.getStatus().getStartedAt()).orElseThrow();
        RunSummary summary = new RunSummary()
                .withRps(31.2)
                .withLatencyMs(new LatencySummary().withP50(9423.8).withP95(9672.0));

        recordedScrapes().checkServerSide(summary, Optional.of(window));

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
        // load seen started 2 s earlier than in the recording: the window starts before the first scrape
        BenchmarkRun run = recordedRun("2026-11-23T00:03:25Z");
        RunSummary summary = new RunSummary().withRps(31.2);

        recordedScrapes()
                .checkServerSide(summary, MeasuredWindow.of(run, run.getStatus().getStartedAt()));

        assertThat(summary.getServer().getUnavailableReason())
                .contains("no scrape of the target at or before the measured window's start 2026-11-23T00:03:35Z");
        assertThat(summary.getServer().getRps()).isNull();
        assertThat(summary.getWarnings()).isNull();
    }

    private static BenchmarkRun recordedRun(String startedAt) {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        run.getSpec().getWorkload().setWarmup("10s");
        run.getSpec().getWorkload().setDuration("20s");
        run.setStatus(new BenchmarkRunStatus());
        run.getStatus().setStartedAt(startedAt);
        return run;
    }

    private static TargetScrapes recordedScrapes() throws Exception {
        TargetScrapes scrapes = new TargetScrapes();
        for (TimedScrape scrape : ScrapeLog.read(RESOURCES.resolve("prometheus/mvc-jdbc-overloaded-scrapes.txt"))) {
            scrapes.add("run-target-0", scrape.prometheusText(), scrape.at());
        }
        return scrapes;
    }
}
