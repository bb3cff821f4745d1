package dev.stackbench.k6;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.status.LockSummary;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.api.status.ThresholdResult;
import dev.stackbench.lifecycle.SteppedLoad;
import dev.stackbench.results.ResultAggregator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Generated scripts against the real k6 binary: k6 accepts them and a short real run yields a parsable summary. It
 * lives with local mode's tests, which run with nothing else on the machine, because it judges request counts.
 */
class K6ScriptGeneratorIT {

    private static final String CUSTOM_MODULE = """
            import http from 'k6/http';
            export default function (context) {
              context.verify(http.get(context.baseUrl + '/api/rows?count=1'), 200, 'rows');
            }
            """;

    static Stream<Path> validSpecs() throws IOException {
        // The core module's fixtures (the tests run in the local module's directory).
        return Files.list(Path.of("..", "core", "src", "test", "resources", "valid-specs"))
                .sorted();
    }

    @ParameterizedTest
    @MethodSource("validSpecs")
    void k6AcceptsTheScriptOfEveryValidSpec(Path specFile, @TempDir Path dir) throws Exception {
        BenchmarkRun run = BenchmarkRuns.readOne(specFile);
        String customModule = null;
        if (run.getSpec().getWorkload().getScript() != null) {
            customModule = "./" + run.getSpec().getWorkload().getScript().getFile();
            Files.writeString(dir.resolve(customModule), CUSTOM_MODULE);
        }
        BenchmarkRunSpec spec = run.getSpec();
        if (spec.getWorkload().isStepped()) {
            // A sweep or a capacity search runs one script per step: each is an ordinary run at its level.
            SteppedLoad.Next first = SteppedLoad.next(spec.getWorkload(), List.of());
            spec = SteppedLoad.specFor(spec, ((SteppedLoad.Step) first).level());
        }
        // For any k6, and for the k6 with stackbench's output, whose module counts the latency buckets.
        for (K6ScriptGenerator generator :
                List.of(new K6ScriptGenerator(), new K6ScriptGenerator().withLatencyCountedByTheOutput())) {
            K6Script script = generator.generate(spec, customModule);
            Files.writeString(dir.resolve("script.js"), script.text());

            K6Binary.Result inspect = K6Binary.run(dir, Map.of(), 60, "inspect", "script.js");

            assertThat(inspect.exitCode())
                    .as("k6 inspect: %s", inspect.stderr())
                    .isZero();
            assertThat(inspect.stdout()).contains("\"measure\"");
        }
    }

    /**
     * The stackbench output counts each measured request in the bucket the script's own formula gives: a script that
     * counts both ways (the script's counters and the output's counts, side by side in one summary) gets the same
     * count in every bucket, over latencies spread by a target that stalls; and the script generated for the output
     * gives a summary whose buckets hold every measured request.
     */
    @Test
    void theStackbenchOutputCountsTheBucketsTheScriptWould(@TempDir Path dir) throws Exception {
        try (TinyTargetServer server =
                new TinyTargetServer("webflux-r2dbc").stallEvery(Duration.ofMillis(700), Duration.ofMillis(150))) {
            BenchmarkRunSpec spec =
                    BenchmarkRuns.read("""
                    apiVersion: stackbench.dev/v1alpha1
                    kind: BenchmarkRun
                    metadata: {name: buckets}
                    spec:
                      target: {variant: webflux-r2dbc}
                      workload:
                        scenario: upstream
                        upstreamDelay: 1ms
                        load: {executor: constant-arrival-rate, rate: 200, preAllocatedVUs: 40}
                        warmup: 1s
                        duration: 3s
                    """, "buckets.yaml").get(0).getSpec();
            String counters = new K6ScriptGenerator().generate(spec).text();
            String both = replaceOnce(
                    counters,
                    "import exec from 'k6/execution';",
                    "import exec from 'k6/execution';\nimport { countLatencies, latencyBuckets } from '"
                            + K6ScriptGenerator.OUTPUT_MODULE + "';");
            both = replaceOnce(
                    both,
                    "const LAST_BUCKET = BUCKETS.count - 1;",
                    "const LAST_BUCKET = BUCKETS.count - 1;\n"
                            + "countLatencies(MEASURE, BUCKETS.minMs, BUCKETS.growth, BUCKETS.count);");
            both = replaceOnce(
                    both,
                    "verifyEvery: SUMMARY.verifyEvery,",
                    "verifyEvery: SUMMARY.verifyEvery, latencyBuckets: latencyBuckets(),");
            Files.writeString(dir.resolve("both.js"), both);
            Files.writeString(
                    dir.resolve("output.js"),
                    new K6ScriptGenerator()
                            .withLatencyCountedByTheOutput()
                            .generate(spec)
                            .text());

            for (String script : List.of("both", "output")) {
                K6Binary.Result result = K6Binary.run(
                        dir,
                        Map.of(
                                K6Env.BASE_URL, server.baseUrl(),
                                K6Env.SUMMARY_FILE,
                                        dir.resolve(script + "-summary.json").toString()),
                        120,
                        "run",
                        "--quiet",
                        "--out",
                        "stackbench=" + dir.resolve(script + "-per-second.ndjson"),
                        script + ".js");
                assertThat(result.exitCode())
                        .as("k6 run %s: %s", script, result.stderr())
                        .isZero();
            }

            JsonNode both1 =
                    new ObjectMapper().readTree(dir.resolve("both-summary.json").toFile());
            long[] fromCounters = new long[LatencyBuckets.COUNT];
            both1.path("k6").path("metrics").properties().forEach(metric -> {
                int bucket = LatencyBuckets.indexOf(metric.getKey());
                if (bucket >= 0) {
                    fromCounters[bucket] =
                            metric.getValue().path("values").path("count").asLong();
                }
            });
            long[] fromOutput = new long[LatencyBuckets.COUNT];
            both1.path("latencyBuckets")
                    .properties()
                    .forEach(bucket -> fromOutput[Integer.parseInt(bucket.getKey())] =
                            bucket.getValue().asLong());
            long measured = both1.path("k6")
                    .path("metrics")
                    .path("http_reqs{scenario:measure}")
                    .path("values")
                    .path("count")
                    .asLong();
            long spread = java.util.Arrays.stream(fromOutput).filter(n -> n > 0).count();
            assertThat(measured).isGreaterThan(500);
            assertThat(spread).as("buckets holding requests").isGreaterThan(10);
            assertThat(fromOutput)
                    .as("the output's counts against the script's")
                    .containsExactly(fromCounters);
            assertThat(java.util.Arrays.stream(fromOutput).sum()).isEqualTo(measured);

            RunnerSummary output = K6SummaryParser.parseFile(dir.resolve("output-summary.json"));
            assertThat(output.k6Summary().path("metrics").has(LatencyBuckets.metricName(0)))
                    .as("no bucket sub-metrics in the output's script")
                    .isFalse();
            assertThat(output.bucketedRequests()).isEqualTo(output.requests()).isGreaterThan(500);
            assertThat(output.latencyMs().getP50()).isPositive();

            // Without the output, the script says what to do instead of reporting no latency.
            K6Binary.Result without = K6Binary.run(
                    dir,
                    Map.of(
                            K6Env.BASE_URL, server.baseUrl(),
                            K6Env.SUMMARY_FILE,
                                    dir.resolve("without-summary.json").toString()),
                    120,
                    "run",
                    "--quiet",
                    "output.js");
            assertThat(without.stdout() + without.stderr()).contains("--out stackbench=");
            assertThat(dir.resolve("without-summary.json")).doesNotExist();
        }
    }

    private static String replaceOnce(String text, String what, String with) {
        assertThat(text).as("the generated script has %s", what).containsOnlyOnce(what);
        return text.replace(what, with);
    }

    @Test
    void k6AcceptsACustomModuleWrappedInTheScript(@TempDir Path dir) throws Exception {
        BenchmarkRun run = BenchmarkRuns.read("""
                apiVersion: stackbench.dev/v1alpha1
                kind: BenchmarkRun
                metadata: {name: custom}
                spec:
                  target: {variant: mvc-jdbc}
                  workload:
                    scenario: custom
                    script: {file: custom.js}
                    load: {executor: constant-vus, vus: 2}
                    warmup: 1s
                    duration: 2s
                """, "custom.yaml").get(0);
        Files.writeString(dir.resolve("custom.js"), CUSTOM_MODULE);
        Files.writeString(
                dir.resolve("script.js"),
                new K6ScriptGenerator().generate(run.getSpec(), "./custom.js").text());

        K6Binary.Result archive = K6Binary.run(dir, Map.of(), 60, "archive", "-O", "archive.tar", "script.js");

        assertThat(archive.exitCode()).as("k6 archive: %s", archive.stderr()).isZero();
        assertThat(dir.resolve("archive.tar")).isNotEmptyFile();
    }

    @Test
    void realRunCountsOnlyMeasuredRequestsAndPrintsAParsableSummary(@TempDir Path dir) throws Exception {
        try (TinyTargetServer server = new TinyTargetServer("webflux-r2dbc")) {
            BenchmarkRunSpec spec = BenchmarkRuns.read("""
                    apiVersion: stackbench.dev/v1alpha1
                    kind: BenchmarkRun
                    metadata: {name: tiny}
                    spec:
                      target: {variant: webflux-r2dbc}
                      workload:
                        scenario: upstream
                        upstreamDelay: 5ms
                        load: {executor: constant-arrival-rate, rate: 20}
                        warmup: 2s
                        duration: 3s
                        thresholds:
                          http_req_duration: ["p(95)<5000"]
                          "http_req_duration{name:upstream}": ["p(95)<5000"]
                    """, "tiny.yaml").get(0).getSpec();
            Files.writeString(
                    dir.resolve("script.js"),
                    new K6ScriptGenerator().generate(spec).text());
            Path summaryFile = dir.resolve("summary.json");

            java.time.Instant beforeK6 = java.time.Instant.now();
            K6Binary.Result result = K6Binary.run(
                    dir,
                    Map.of(
                            K6Env.BASE_URL, server.baseUrl(),
                            K6Env.SUMMARY_FILE, summaryFile.toString(),
                            K6Env.RUNNER_ID, "0"),
                    120,
                    "run",
                    "--quiet",
                    "script.js");

            assertThat(result.exitCode()).as("k6 run: %s", result.stderr()).isZero();
            RunnerSummary fromStdout = K6SummaryParser.parse(result.stdout());
            RunnerSummary fromFile = K6SummaryParser.parseFile(summaryFile);
            Files.writeString(Path.of("target", "k6-tiny-run.stdout"), result.stdout());

            java.time.Instant afterK6 = java.time.Instant.now();
            assertThat(fromFile.requests()).isEqualTo(fromStdout.requests());
            // The summary says when the scenarios started: after k6 was launched, and at least the planned 5 s
            // before it exited. The measured window, which local mode and the server-side check use, follows.
            assertThat(fromStdout.loadStartedAt())
                    .isAfterOrEqualTo(beforeK6)
                    .isBeforeOrEqualTo(afterK6.minusSeconds(5));
            assertThat(fromStdout.measuredWindowStart())
                    .contains(fromStdout.loadStartedAt().plusSeconds(2));
            assertThat(fromStdout.runnerId()).isEqualTo("0");
            assertThat(fromStdout.variant()).isEqualTo("webflux-r2dbc");
            assertThat(fromStdout.measuredSeconds()).isEqualTo(3.0);
            // 20 iterations/s for 3 s measured; k6 may start one more at the edge.
            assertThat(fromStdout.requests()).isBetween(55L, 62L);
            assertThat(fromStdout.iterations()).isEqualTo(fromStdout.requests());
            // The server also answered the 2 s warmup, which no figure may include.
            assertThat(server.served() - fromStdout.requests()).isBetween(35L, 45L);
            assertThat(fromStdout.bucketedRequests()).isEqualTo(fromStdout.requests());
            // Completions inside the window come from both scenarios; none can exceed what the server answered.
            assertThat(fromStdout.windowCompletions()).isPositive().isLessThanOrEqualTo(server.served());
            assertThat(fromStdout.failedRequests()).isZero();
            assertThat(fromStdout.droppedIterations()).isZero();
            assertThat(fromStdout.checksFailed()).isZero();
            // Status, variant and protocol of the sampled responses only: one in VERIFY_EVERY per VU.
            assertThat(fromStdout.checksPassed() % 3).isZero();
            assertThat(fromStdout.checksPassed()).isPositive().isLessThan(3 * fromStdout.requests());
            assertThat(fromStdout.latencyMs().getP95()).isGreaterThanOrEqualTo(5.0);
            assertThat(fromStdout.latencyMs().getMax())
                    .isGreaterThanOrEqualTo(fromStdout.latencyMs().getP50());
            assertThat(fromStdout.thresholds().get("http_req_duration{scenario:measure}"))
                    .containsEntry("p(95)<5000", true);
            // The request's name comes from the scenario's tags, not from parameters of every request.
            assertThat(fromStdout.thresholds().get("http_req_duration{name:upstream,scenario:measure}"))
                    .containsEntry("p(95)<5000", true);
            assertThat(fromStdout
                            .k6Summary()
                            .path("metrics")
                            .path("http_req_duration{name:upstream,scenario:measure}")
                            .path("values")
                            .path("count")
                            .asLong())
                    .isEqualTo(fromStdout.requests());
        }
    }

    @Test
    void theWindowGainsTheWarmupsLateAnswersAndLosesTheMeasuredOnesAnsweredAfterIt(@TempDir Path dir) throws Exception {
        try (TinyTargetServer server = new TinyTargetServer("webflux-r2dbc")) {
            // Every answer takes 1.5 s. At 10 requests/s the warmup's last 1.5 s (about 15 requests) are answered
            // inside the 3 s window and the measured requests of its last 1.5 s (about 15) after it: the window
            // sees what flowed out of the target while it was open, about 10/s x 3 s.
            BenchmarkRunSpec spec = BenchmarkRuns.read("""
                    apiVersion: stackbench.dev/v1alpha1
                    kind: BenchmarkRun
                    metadata: {name: edges}
                    spec:
                      target: {variant: webflux-r2dbc}
                      workload:
                        scenario: upstream
                        upstreamDelay: 1500ms
                        load: {executor: constant-arrival-rate, rate: 10}
                        warmup: 3s
                        duration: 3s
                    """, "edges.yaml").get(0).getSpec();
            Files.writeString(
                    dir.resolve("script.js"),
                    new K6ScriptGenerator().generate(spec).text());

            K6Binary.Result result = K6Binary.run(
                    dir,
                    Map.of(K6Env.BASE_URL, server.baseUrl(), K6Env.RUNNER_ID, "0"),
                    120,
                    "run",
                    "--quiet",
                    "script.js");

            assertThat(result.exitCode()).as("k6 run: %s", result.stderr()).isZero();
            Files.writeString(Path.of("target", "k6-window-edges.stdout"), result.stdout());
            RunnerSummary summary = K6SummaryParser.parse(result.stdout());
            JsonNode metrics = summary.k6Summary().path("metrics");
            long late = metrics.path(K6Env.WINDOW_LATE_METRIC)
                    .path("values")
                    .path("count")
                    .asLong();
            long fromWarmup = metrics.path(K6Env.WINDOW_FROM_WARMUP_METRIC)
                    .path("values")
                    .path("count")
                    .asLong();
            assertThat(summary.requests()).isBetween(29L, 32L);
            assertThat(late).isBetween(12L, 18L);
            assertThat(fromWarmup).isBetween(12L, 18L);
            assertThat(summary.windowCompletions()).isEqualTo(summary.bucketedRequests() - late + fromWarmup);
            assertThat(summary.windowCompletions()).isBetween(26L, 34L);
            assertThat(summary.requestsPerSecond()).isEqualTo(summary.windowCompletions() / 3.0);
        }
    }

    @Test
    void burstReportsItsMakespanAndEveryStatus(@TempDir Path dir) throws Exception {
        try (TinyTargetServer server = new TinyTargetServer("webflux-r2dbc")) {
            BenchmarkRunSpec spec = spec("""
                    scenario: upstream
                    upstreamDelay: 300ms
                    load: {executor: per-vu-iterations, vus: 40, iterations: 1}
                    warmup: 2s
                    duration: 20s
                    """);
            RunnerSummary runner = run(dir, server, spec);

            // 40 users, one request each, all at once against 64 server threads: one round of 300 ms.
            assertThat(runner.requests()).isEqualTo(40);
            assertThat(runner.burst()).isNotNull();
            assertThat(runner.burst().plannedIterations()).isEqualTo(40);
            RunSummary summary = ResultAggregator.aggregate(List.of(runner), spec, null, null);
            assertThat(summary.getBurst().getPlannedRequests()).isEqualTo(40);
            assertThat(summary.getBurst().getCompletedRequests()).isEqualTo(40);
            assertThat(summary.getBurst().getMakespanMs())
                    .isGreaterThanOrEqualTo(300.0)
                    .isLessThan(3000.0)
                    .isGreaterThanOrEqualTo(summary.getLatencyMs().getMax() - 1);
            assertThat(summary.getRps()).isCloseTo(40 / (summary.getBurst().getMakespanMs() / 1000), within(0.1));
            assertThat(summary.getStatusCodes()).containsExactly(Map.entry("200", 40L));
            // The warmup burst is a tenth of the users, one request each, and is in no figure.
            assertThat(server.served()).isEqualTo(44);
            assertThat(summary.getWarnings()).isNull();
        }
    }

    @Test
    void lockGroupsEndWithOneWinnerAndTheLosersConflicts(@TempDir Path dir) throws Exception {
        try (TinyTargetServer server = new TinyTargetServer("webflux-r2dbc")) {
            BenchmarkRunSpec spec = lockSpec();
            RunnerSummary runner = run(dir, server, spec);
            RunSummary summary = ResultAggregator.aggregate(List.of(runner), spec, null, null);

            LockSummary lock = summary.getLock();
            assertThat(lock.getGroups()).isBetween(25L, 35L);
            assertThat(lock.getCorrectGroups()).isEqualTo(lock.getGroups());
            assertThat(lock.correctnessErrors()).isZero();
            assertThat(lock.getGroupsWithErrors()).isZero();
            // Each group: the order's creation (201), one winner (200) and two conflicts (409), none a failure.
            assertThat(summary.getStatusCodes())
                    .containsEntry("201", runner.iterations())
                    .containsEntry("200", lock.getGroups())
                    .containsEntry("409", 2 * lock.getGroups());
            assertThat(summary.getErrorRate()).isZero();
            assertThat(summary.getChecksFailed()).isZero();
            // The server holds the lock 5 ms per change, so the second and third of a group wait for it.
            assertThat(lock.getLockWaitMs().getMax()).isGreaterThanOrEqualTo(4.0);
            assertThat(lock.getLockWaitMs().getMin()).isGreaterThanOrEqualTo(0.0);
            assertThat(lock.getLockWaitExact()).isTrue();
            assertThat(summary.getWarnings()).isNull();
            // Thresholds on the scenario's own metrics are k6's verdicts on the measured window.
            assertThat(summary.getThresholdResults())
                    .extracting(ThresholdResult::getMetric, ThresholdResult::getPassed, ThresholdResult::getSource)
                    .containsExactly(
                            tuple("stackbench_lock_wait_ms", true, "k6"),
                            tuple("stackbench_lock_groups_several_winners", true, "k6"));
        }
    }

    @Test
    void lockGroupsWithSeveralWinnersAreReportedAsCorrectnessErrors(@TempDir Path dir) throws Exception {
        try (TinyTargetServer server = new TinyTargetServer("webflux-r2dbc", false)) {
            BenchmarkRunSpec spec = lockSpec();
            RunSummary summary = ResultAggregator.aggregate(List.of(run(dir, server, spec)), spec, null, null);

            LockSummary lock = summary.getLock();
            assertThat(lock.getGroupsWithSeveralSuccesses())
                    .isEqualTo(lock.getGroups())
                    .isPositive();
            assertThat(lock.getCorrectGroups()).isZero();
            assertThat(summary.getThresholdsPassed()).isFalse();
            assertThat(summary.getWarnings()).anySatisfy(warning -> assertThat(warning)
                    .startsWith("correctness error: " + lock.getGroups() + " of " + lock.getGroups()
                            + " lock groups did not end with exactly one success"));
        }
    }

    private static BenchmarkRunSpec lockSpec() {
        return spec("""
                scenario: lock
                lockGroup: 3
                load: {executor: constant-arrival-rate, rate: 10}
                warmup: 1s
                duration: 3s
                thresholds:
                  stackbench_lock_wait_ms: ["p(95)<1000"]
                  stackbench_lock_groups_several_winners: ["count<1"]
                """);
    }

    private static BenchmarkRunSpec spec(String workload) {
        return BenchmarkRuns.read("""
                        apiVersion: stackbench.dev/v1alpha1
                        kind: BenchmarkRun
                        metadata: {name: tiny}
                        spec:
                          target: {variant: webflux-r2dbc}
                          workload:
                        """ + workload.indent(4), "tiny.yaml").get(0).getSpec();
    }

    private static RunnerSummary run(Path dir, TinyTargetServer server, BenchmarkRunSpec spec) throws Exception {
        Files.writeString(
                dir.resolve("script.js"), new K6ScriptGenerator().generate(spec).text());
        K6Binary.Result result = K6Binary.run(
                dir,
                Map.of(K6Env.BASE_URL, server.baseUrl(), K6Env.RUNNER_ID, "0"),
                120,
                "run",
                "--quiet",
                "script.js");
        // 99: the run completed and a threshold failed, which some tests want.
        assertThat(result.exitCode()).as("k6 run: %s", result.stderr()).isIn(0, K6Env.EXIT_THRESHOLDS_FAILED);
        return K6SummaryParser.parse(result.stdout());
    }
}
