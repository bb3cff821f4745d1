package dev.stackbench.results;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.k6.K6Binary;
import dev.stackbench.k6.K6Env;
import dev.stackbench.k6.K6ScriptGenerator;
import dev.stackbench.k6.K6SummaryParser;
import dev.stackbench.k6.LatencyBuckets;
import dev.stackbench.k6.RunnerSummary;
import dev.stackbench.k6.TinyTargetServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real k6 processes share one run through execution segments, as k6-operator's runners do, and their summaries
 * are combined: counts add up to the planned load and the merged percentiles stay within the runners' figures.
 */
class TwoRunnerAggregationIT {

    @Test
    void twoSegmentsAddUpToThePlannedLoad(@TempDir Path dir) throws Exception {
        try (TinyTargetServer server = new TinyTargetServer("mvc-jdbc")) {
            BenchmarkRunSpec spec = BenchmarkRuns.read("""
                    apiVersion: stackbench.dev/v1alpha1
                    kind: BenchmarkRun
                    metadata: {name: two-runners}
                    spec:
                      target: {variant: mvc-jdbc}
                      workload:
                        scenario: upstream
                        upstreamDelay: 3ms
                        load: {rate: 30}
                        warmup: 1s
                        duration: 3s
                        parallelism: 2
                        thresholds:
                          http_req_duration: ["p(95)<5000"]
                          http_req_failed: ["rate<0.01"]
                    """, "two.yaml").get(0).getSpec();
            Files.writeString(
                    dir.resolve("script.js"),
                    new K6ScriptGenerator().generate(spec).text());

            List<String> segments = List.of("0:1/2", "1/2:1");
            List<CompletableFuture<K6Binary.Result>> runs = segments.stream()
                    .map(segment -> CompletableFuture.supplyAsync(
                            () -> runSegment(dir, server, segment, segments.indexOf(segment))))
                    .toList();
            List<RunnerSummary> runners = runs.stream()
                    .map(CompletableFuture::join)
                    .map(result -> {
                        assertThat(result.exitCode())
                                .as("k6: %s", result.stderr())
                                .isZero();
                        return K6SummaryParser.parse(result.stdout());
                    })
                    .toList();

            RunSummary summary = ResultAggregator.aggregate(runners, spec, null, null);

            assertThat(runners).extracting(RunnerSummary::runnerId).containsExactly("0", "1");
            assertThat(runners)
                    .allSatisfy(runner -> assertThat(runner.requests()).isBetween(40L, 50L));
            // 30 requests/s for 3 s in total, whatever the split.
            assertThat(summary.getRequests()).isBetween(88L, 93L);
            // RPS counts responses completed inside the window, from either scenario: a warmup request may complete
            // just inside it, a measured one started at its last instant just after it.
            long completedInWindow =
                    runners.stream().mapToLong(RunnerSummary::windowCompletions).sum();
            assertThat(completedInWindow).isBetween(summary.getRequests() - 2, summary.getRequests() + 2);
            assertThat(summary.getRps()).isEqualTo(TargetMetrics.round(completedInWindow / 3.0, 2));
            assertThat(server.served() - summary.getRequests()).isBetween(25L, 35L);
            assertThat(summary.getRunners()).isEqualTo(2);
            assertThat(summary.getPercentilesExact()).isFalse();
            assertThat(summary.getErrorRate()).isZero();
            assertThat(summary.getThresholdsPassed()).isTrue();
            assertThat(summary.getWarnings()).isNull();

            double lowestP95 = runners.stream()
                    .mapToDouble(runner -> runner.latencyMs().getP95())
                    .min()
                    .orElseThrow();
            double highestP95 = runners.stream()
                    .mapToDouble(runner -> runner.latencyMs().getP95())
                    .max()
                    .orElseThrow();
            double highestMax = runners.stream()
                    .mapToDouble(runner -> runner.latencyMs().getMax())
                    .max()
                    .orElseThrow();
            assertThat(summary.getLatencyMs().getMax()).isEqualTo(highestMax);
            // The merged p95 lies between the runners' p95s and is an upper bound at most one bucket wide.
            assertThat(summary.getLatencyMs().getP95())
                    .isGreaterThanOrEqualTo(lowestP95)
                    .isLessThanOrEqualTo(Math.min(highestMax, highestP95 * LatencyBuckets.GROWTH * 1.05));
        }
    }

    private static K6Binary.Result runSegment(Path dir, TinyTargetServer server, String segment, int index) {
        try {
            Path runnerDir = Files.createDirectories(dir.resolve("runner-" + index));
            Files.copy(dir.resolve("script.js"), runnerDir.resolve("script.js"));
            return K6Binary.run(
                    runnerDir,
                    Map.of(K6Env.BASE_URL, server.baseUrl(), K6Env.RUNNER_ID, String.valueOf(index)),
                    120,
                    "run",
                    "--quiet",
                    "--execution-segment",
                    segment,
                    "--execution-segment-sequence",
                    "0,1/2,1",
                    "script.js");
        } catch (Exception e) {
            throw new IllegalStateException("k6 runner " + index + " failed to run", e);
        }
    }
}
