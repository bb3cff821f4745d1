package dev.stackbench.results;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.status.LatencySummary;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.api.status.TargetSummary;
import dev.stackbench.catalogue.VariantCatalogue;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The verdict from a summary, the demo's spec and the real catalogue: the pool size comes from the spec's environment,
 * the cap from the workload, the pool shares from the target's scrapes.
 */
class LimitEvidenceTest {

    private static BenchmarkRunSpec example(String file) {
        return BenchmarkRuns.read(Path.of("..", "examples", file)).get(0).getSpec();
    }

    /** Scrapes of a target with {@code busy} Tomcat threads and {@code pending} connection waits, one a second. */
    private static TargetSummary scraped(int[] busy, int[] pending) {
        TargetMetrics metrics = new TargetMetrics();
        Instant start = Instant.parse("2026-01-01T10:00:00Z");
        for (int i = 0; i < busy.length; i++) {
            metrics.add(
                    start.plusSeconds(i),
                    "tomcat_threads_busy_threads{name=\"http-nio-8080\"} " + busy[i] + "\n"
                            + "hikaricp_connections_pending{pool=\"HikariPool-1\"} " + pending[i] + "\n"
                            + "process_cpu_time_ns_total " + (i * 0.2e9) + "\n");
        }
        return metrics.summary();
    }

    private static RunSummary summary(double rps, long dropped, double p50, TargetSummary target) {
        RunSummary summary =
                new RunSummary().withRequests(Math.round(rps * 20)).withRps(rps).withTarget(target);
        summary.setIterations(Math.round(rps * 20));
        summary.setDroppedIterations(dropped);
        summary.setMeasuredSeconds(20.0);
        LatencySummary latency = new LatencySummary();
        latency.setP50(p50);
        summary.setLatencyMs(latency);
        return summary;
    }

    @Test
    void theScrapesSayHowLongThePoolWasFullAndConnectionsAwaited() {
        TargetSummary target = scraped(new int[] {4, 10, 10, 10, 9}, new int[] {0, 0, 2, 0, 0});

        assertThat(target.getPeakPoolThreads()).isEqualTo(10);
        assertThat(target.getPoolAtPeakShare()).isEqualTo(0.6);
        assertThat(target.getDbPoolPendingShare()).isEqualTo(0.2);
    }

    @Test
    void theDemosMvcJdbcIsLimitedByItsTenTomcatThreads() {
        RunSummary summary =
                summary(31.8, 350, 2900, scraped(new int[] {10, 10, 10, 10, 10}, new int[] {0, 0, 0, 0, 0}));

        LimitEvidence.judge(
                summary,
                example("demo/1-mvc-jdbc.yaml"),
                VariantCatalogue.load(),
                new GeneratorCheck.Judgement(
                        Optional.of(new GeneratorCheck.Finding(GeneratorCheck.ITERATIONS_DROPPED, "350 dropped")),
                        null));

        assertThat(summary.getLimitedBy().getResource()).isEqualTo(LimitingResource.REQUEST_POOL);
        assertThat(summary.getLimitedBy().getEvidence())
                .containsExactly(
                        "10/10 tomcat threads in use in 100% of samples",
                        "31.8 req/s, 95% of the Little's-law cap 33.3 (10 threads / 0.300 s per request; measured"
                                + " 0.314 s per request), 60.0 req/s offered");
    }

    @Test
    void theDemosWebfluxR2dbcKeptUp() {
        RunSummary summary = summary(59.6, 0, 304, new TargetSummary());

        LimitEvidence.judge(
                summary,
                example("demo/2-webflux-r2dbc.yaml"),
                VariantCatalogue.load(),
                new GeneratorCheck.Judgement(Optional.empty(), "k6 kept up"));

        assertThat(summary.getLimitedBy().getResource()).isEqualTo(LimitingResource.NONE);
    }

    @Test
    void experimentBsBlockingVariantBlocksItsEventLoop() {
        RunSummary summary = summary(3.9, 0, 25000, new TargetSummary());

        LimitEvidence.judge(
                summary,
                example("experiments/b-db-sleep-1s/1-webflux-jdbc-blocking.yaml"),
                VariantCatalogue.load(),
                new GeneratorCheck.Judgement(Optional.empty(), "k6 kept up"));

        assertThat(summary.getLimitedBy().getResource()).isEqualTo(LimitingResource.EVENT_LOOP_BLOCKED);
        assertThat(summary.getLimitedBy().getEvidence())
                .first()
                .isEqualTo("3.9 req/s, 98% of the Little's-law cap 4.0 (4 threads / 1.000 s per request; measured"
                        + " 1.026 s per request), 100 requests in flight (VUs)");
    }

    @Test
    void aSaturatedGeneratorIsTheVerdictWhateverTheTargetDid() {
        RunSummary summary = summary(31.8, 0, 2900, scraped(new int[] {10, 10}, new int[] {0, 0}));

        LimitEvidence.judge(
                summary,
                example("demo/1-mvc-jdbc.yaml"),
                VariantCatalogue.load(),
                new GeneratorCheck.Judgement(
                        Optional.of(new GeneratorCheck.Finding(
                                GeneratorCheck.RUNNER_CPU_SATURATED, "k6 could not generate the requested load")),
                        null));

        assertThat(summary.getLimitedBy().getResource()).isEqualTo(LimitingResource.LOAD_GENERATOR);
        assertThat(List.copyOf(summary.getLimitedBy().getEvidence()))
                .containsExactly("k6 could not generate the requested load");
    }

    @Test
    void aMachineBusyAroundAnIdleGeneratorIsACaveatNotTheVerdict() {
        RunSummary summary = summary(31.8, 87, 2900, scraped(new int[] {10, 10}, new int[] {0, 0}));
        GeneratorCheck.Judgement contended = GeneratorCheck.judge(
                List.of(GeneratorCheck.Generator.localProcess(0.06, 1, 0.99, "the delay service and PostgreSQL (0)")),
                87,
                List.of());
        GeneratorCheck.Judgement saturated = GeneratorCheck.judge(
                List.of(GeneratorCheck.Generator.localProcess(0.95, 1, 0.99, "the delay service and PostgreSQL (0)")),
                87,
                List.of());

        LimitEvidence.judge(summary, example("demo/1-mvc-jdbc.yaml"), VariantCatalogue.load(), contended);
        assertThat(summary.getLimitedBy().getResource()).isEqualTo(LimitingResource.REQUEST_POOL);
        assertThat(summary.getLimitedBy().getEvidence()).last().asString().contains("were 99% busy");

        LimitEvidence.judge(summary, example("demo/1-mvc-jdbc.yaml"), VariantCatalogue.load(), saturated);
        assertThat(summary.getLimitedBy().getResource()).isEqualTo(LimitingResource.LOAD_GENERATOR);
    }
}
