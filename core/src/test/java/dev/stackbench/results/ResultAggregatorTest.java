package dev.stackbench.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.status.LatencySummary;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.api.status.TargetSummary;
import dev.stackbench.api.status.ThresholdResult;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.k6.K6SummaryParser;
import dev.stackbench.k6.LatencyBuckets;
import dev.stackbench.k6.RunnerSummary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResultAggregatorTest {

    private static BenchmarkRunSpec spec(String variant, String cpu, int rate, String thresholds) {
        return BenchmarkRuns.read("""
                apiVersion: stackbench.dev/v1alpha1
                kind: BenchmarkRun
                metadata: {name: test}
                spec:
                  target: {variant: %s, resources: {cpu: "%s"}}
                  workload:
                    scenario: upstream
                    upstreamDelay: 300ms
                    load: {rate: %d}
                    duration: 10s
                    thresholds: %s
                """.formatted(variant, cpu, rate, thresholds), "test.yaml")
                .get(0)
                .getSpec();
    }

    /** A runner that answered {@code fast} requests in 10 ms and {@code slow} in 1000 ms. */
    private static RunnerSummary runner(String id, long fast, long slow, long failed, long dropped) {
        return runner(id, fast, slow, failed, dropped, fast + slow);
    }

    private static RunnerSummary runner(
            String id, long fast, long slow, long failed, long dropped, long completedInWindow) {
        return runner(id, fast, slow, failed, dropped, completedInWindow, 0);
    }

    private static RunnerSummary runner(
            String id,
            long fast,
            long slow,
            long failed,
            long dropped,
            long completedInWindow,
            long completedFromWarmup) {
        long[] buckets = new long[LatencyBuckets.COUNT];
        buckets[LatencyBuckets.bucketOf(10)] = fast;
        buckets[LatencyBuckets.bucketOf(1000)] = slow;
        long requests = fast + slow;
        LatencySummary latency =
                new LatencySummary().withMin(10.0).withMax(1000.0).withMean((10.0 * fast + 1000.0 * slow) / requests);
        return new RunnerSummary(
                id,
                "mvc-jdbc",
                "upstream",
                2,
                10,
                1,
                requests,
                failed,
                requests,
                dropped,
                completedInWindow,
                completedFromWarmup,
                2 * requests,
                0,
                latency,
                buckets,
                Map.of(),
                JsonNodeFactory.instance.objectNode(),
                null,
                Map.of(),
                null,
                null);
    }

    @Test
    void oneRealRunnerKeepsK6sExactPercentilesAndReChecksThresholds() throws IOException {
        RunnerSummary real =
                K6SummaryParser.parse(Files.readString(Path.of("src", "test", "resources", "k6", "tiny-run.stdout")));
        BenchmarkRunSpec spec = spec(
                "webflux-r2dbc",
                "2",
                20,
                "{http_req_duration: [\"p(95)<5000\", \"max<0.001\"], http_req_failed: [\"rate<0.01\"]}");

        RunSummary summary = ResultAggregator.aggregate(List.of(real), spec, null, new TargetSummary());

        assertThat(summary.getPercentilesExact()).isTrue();
        // k6's own percentile, to the microsecond.
        assertThat(summary.getLatencyMs().getP95())
                .isCloseTo(real.latencyMs().getP95(), org.assertj.core.data.Offset.offset(0.0005));
        assertThat(summary.getRequests()).isEqualTo(real.requests());
        assertThat(summary.getRps()).isCloseTo(real.windowCompletions() / 3.0, within(0.01));
        assertThat(summary.getThresholdResults())
                .extracting(ThresholdResult::getExpression, ThresholdResult::getPassed)
                .containsExactly(tuple("p(95)<5000", true), tuple("max<0.001", false), tuple("rate<0.01", true));
        assertThat(summary.getThresholdsPassed()).isFalse();
        assertThat(summary.getTarget()).isNotNull();
    }

    @Test
    void severalRunnersMergeBucketsIntoUpperBoundPercentiles() {
        List<RunnerSummary> runners = List.of(runner("0", 90, 0, 0, 0), runner("1", 0, 10, 0, 0));

        RunSummary summary = ResultAggregator.aggregate(
                runners, spec("mvc-jdbc", "2", 10, "{http_req_duration: [\"p(50)<11\", \"p(95)<900\"]}"), null, null);

        assertThat(summary.getRequests()).isEqualTo(100);
        assertThat(summary.getRps()).isEqualTo(10.0);
        assertThat(summary.getPercentilesExact()).isFalse();
        assertThat(summary.getPercentilesNote()).contains("upper bound").contains("2 runners");
        // p50 lies among the 10 ms requests, p95 among the 1000 ms ones; each bound is within one bucket.
        assertThat(summary.getLatencyMs().getP50()).isBetween(10.0, 10.0 * LatencyBuckets.GROWTH);
        assertThat(summary.getLatencyMs().getP95()).isEqualTo(1000.0);
        assertThat(summary.getLatencyMs().getMean()).isCloseTo(109.0, within(1e-9));
        assertThat(summary.getThresholdResults())
                .extracting(ThresholdResult::getPassed)
                .containsExactly(true, false);
        assertThat(summary.getWarnings()).isNull();
    }

    @Test
    void rpsCountsOnlyWhatCompletedInsideTheMeasuredWindow() {
        // An overloaded target: 100 measured requests, of which 30 finished during k6's graceful stop.
        List<RunnerSummary> runners = List.of(runner("0", 50, 0, 0, 0, 40), runner("1", 0, 50, 0, 0, 30));

        RunSummary summary = ResultAggregator.aggregate(runners, spec("mvc-jdbc", "2", 10, "{}"), null, null);

        assertThat(summary.getRequests()).isEqualTo(100);
        assertThat(summary.getRps()).isEqualTo(7.0);
    }

    @Test
    void aCustomModuleThatRecordsNothingGetsRunnerBoundsAndAWarningNotEmptyPercentiles() {
        // Two runners whose custom module never called verify/record: no buckets, no window counter (-1).
        List<RunnerSummary> runners = List.of(unrecorded("0", 20.0, 80.0), unrecorded("1", 30.0, 120.0));

        RunSummary summary = ResultAggregator.aggregate(
                runners, spec("mvc-jdbc", "2", 10, "{http_req_duration: [\"p(95)<100\"]}"), null, null);

        assertThat(summary.getRps()).as("falls back to measured requests").isEqualTo(20.0);
        assertThat(summary.getLatencyMs().getP50()).isEqualTo(30.0);
        assertThat(summary.getLatencyMs().getP95()).isEqualTo(120.0);
        assertThat(summary.getPercentilesNote()).contains("largest of the runners' own");
        assertThat(summary.getWarnings()).anyMatch(warning -> warning.contains("counted no response"));
        assertThat(summary.getThresholdResults()).singleElement().satisfies(result -> {
            assertThat(result.getSource()).isEqualTo("k6");
            assertThat(result.getPassed())
                    .as("runner 1 failed its own p(95)<100")
                    .isFalse();
        });
    }

    private static RunnerSummary unrecorded(String id, double p50, double p95) {
        LatencySummary latency = new LatencySummary()
                .withMin(1.0)
                .withMax(p95 * 2)
                .withMean(p50)
                .withP50(p50)
                .withP90(p95)
                .withP95(p95)
                .withP99(p95 * 2);
        Map<String, Map<String, Boolean>> k6Verdicts =
                Map.of(dev.stackbench.k6.K6Env.measureMetric("http_req_duration"), Map.of("p(95)<100", p95 < 100));
        return new RunnerSummary(
                id,
                "mvc-jdbc",
                "custom",
                2,
                10,
                1,
                100,
                0,
                100,
                0,
                -1,
                0,
                0,
                0,
                latency,
                new long[LatencyBuckets.COUNT],
                k6Verdicts,
                JsonNodeFactory.instance.objectNode(),
                null,
                Map.of(),
                null,
                null);
    }

    @Test
    void droppedIterationsFailuresAndAShortfallAreWarnedAbout() {
        List<RunnerSummary> runners = List.of(runner("0", 40, 0, 3, 55));

        RunSummary summary = ResultAggregator.aggregate(runners, spec("mvc-jdbc", "2", 10, "{}"), null, null);

        assertThat(summary.getDroppedIterations()).isEqualTo(55);
        assertThat(summary.getErrorRate()).isEqualTo(0.075);
        assertThat(summary.getWarnings())
                .anyMatch(warning -> warning.contains("dropped 55 of 95"))
                .anyMatch(warning -> warning.contains("3 of 40 requests failed"))
                .anyMatch(warning -> warning.contains("below the requested 10.0"));
    }

    @Test
    void aWarmupBacklogAnsweredInsideTheWindowIsWarnedAboutWhenItLiftsThroughputAboveTheOfferedRate() {
        // 10 requests/s offered for 10 s; 120 answered inside the window, 20 of them sent during the warmup.
        RunnerSummary withBacklog = runner("0", 100, 0, 0, 0, 120, 20);

        RunSummary summary =
                ResultAggregator.aggregate(List.of(withBacklog), spec("mvc-jdbc", "2", 10, "{}"), null, null);

        assertThat(summary.getRps()).isEqualTo(12.0);
        assertThat(summary.getWarnings())
                .anyMatch(warning -> warning.contains("measured 12.0 requests/s, above the offered 10.0: 20 requests"
                        + " of the warmup were answered inside the measured window"));
        // Without answers from the warmup the window's own count stands: no such warning.
        RunSummary steady = ResultAggregator.aggregate(
                List.of(runner("0", 104, 0, 0, 0)), spec("mvc-jdbc", "2", 10, "{}"), null, null);
        assertThat(steady.getRps()).isEqualTo(10.4);
        assertThat(java.util.Optional.ofNullable(steady.getWarnings()).orElse(List.of()))
                .noneMatch(warning -> warning.contains("above the offered"));
    }

    @Test
    void littleLawCapComesFromTheCatalogue() {
        VariantCatalogue catalogue = VariantCatalogue.load();
        int tomcatThreads = catalogue.poolThreads("mvc-jdbc", 2, Map.of());

        RunSummary summary = ResultAggregator.aggregate(
                List.of(runner("0", 100, 0, 0, 0)), spec("mvc-jdbc", "2", 1000, "{}"), catalogue, null);

        assertThat(summary.getLittleLawRps()).isCloseTo(tomcatThreads / 0.3, within(0.1));
        assertThat(summary.getWarnings()).anyMatch(warning -> warning.contains("Little's-law cap"));
    }

    @Test
    void nonBlockingVariantsGetNoThreadPrediction() {
        RunSummary summary = ResultAggregator.aggregate(
                List.of(runner("0", 100, 0, 0, 0)),
                spec("webflux-r2dbc", "2", 10, "{}"),
                VariantCatalogue.load(),
                null);

        assertThat(summary.getLittleLawRps()).isNull();
    }

    @Test
    void statusCodesAddUpOverRunnersAndTheRestIsOther() {
        RunnerSummary one = withStatuses(runner("0", 40, 0, 3, 55), Map.of("200", 30L, "409", 5L));
        RunnerSummary two = withStatuses(runner("1", 40, 0, 3, 55), Map.of("200", 38L, "0", 1L));

        assertThat(ResultAggregator.statusCodes(List.of(one, two), 80))
                .containsExactly(
                        Map.entry("0", 1L), Map.entry("200", 68L), Map.entry("409", 5L), Map.entry("other", 6L));
    }

    private static RunnerSummary withStatuses(RunnerSummary runner, Map<String, Long> statuses) {
        return new RunnerSummary(
                runner.runnerId(),
                runner.variant(),
                runner.scenario(),
                runner.warmupSeconds(),
                runner.measuredSeconds(),
                runner.requestsPerIteration(),
                runner.requests(),
                runner.failedRequests(),
                runner.iterations(),
                runner.droppedIterations(),
                runner.windowCompletions(),
                runner.windowFromWarmup(),
                runner.checksPassed(),
                runner.checksFailed(),
                runner.latencyMs(),
                runner.latencyBuckets(),
                runner.thresholds(),
                runner.k6Summary(),
                runner.loadStartedAt(),
                statuses,
                null,
                null);
    }
}
