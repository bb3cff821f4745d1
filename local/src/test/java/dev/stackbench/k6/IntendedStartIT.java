package dev.stackbench.k6;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.status.IntendedLatency;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Latency from the intended start against a target whose answer is known: it stalls for 1 s at the start of every
 * 5 s, and k6 offers 100 requests a second from one VU, the classic coordinated omission. While a request waits out
 * the stall, the ticks due in that second find no idle VU and are dropped: the requests sent (the service time) hardly
 * see the stall, the callers meant to send them all do.
 *
 * <p>Expected from the stall alone: a fifth of the intended requests fall in a stall and wait the rest of it, uniformly
 * 0-1 s, so from the intended start p90 is about 0.5 s, p95 0.75 s and p99 0.95 s. HdrHistogram's coordinated
 * omission correction on the same samples (each service time recorded with the expected interval of 10 ms) must agree
 * with stackbench's figures within one bucket of either.
 */
class IntendedStartIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void stallsShowInTheLatencyFromTheIntendedStartAsHdrHistogramCorrectsThem(@TempDir Path dir) throws Exception {
        try (TinyTargetServer server =
                new TinyTargetServer("mvc-jdbc").stallEvery(Duration.ofSeconds(5), Duration.ofSeconds(1))) {
            BenchmarkRunSpec spec =
                    BenchmarkRuns.read("""
                    apiVersion: stackbench.dev/v1alpha1
                    kind: BenchmarkRun
                    metadata: {name: stalls}
                    spec:
                      target: {variant: mvc-jdbc}
                      workload:
                        scenario: upstream
                        upstreamDelay: 1ms
                        load: {executor: constant-arrival-rate, rate: 100, vus: 1, preAllocatedVUs: 1}
                        warmup: 1s
                        duration: 20s
                    """, "stalls.yaml").get(0).getSpec();
            Files.writeString(
                    dir.resolve("script.js"),
                    new K6ScriptGenerator().generate(spec).text());
            runWithTheOutput(dir, server, "--out", "json=" + dir.resolve("samples.json"));

            RunnerSummary service = K6SummaryParser.parseFile(dir.resolve("summary.json"));
            IntendedLatency intended = intendedLatency(dir);
            Histogram corrected = hdrCorrected(dir.resolve("samples.json"), 10_000);
            String figures = String.format(
                    Locale.ROOT,
                    "service p50/p99 %.1f/%.1f ms; intended p50/p90/p95/p99 %.1f/%.1f/%.1f/%.1f ms of %d (%d dropped,"
                            + " lag p99 %.2f ms); HdrHistogram corrected p50/p90/p95/p99 %.1f/%.1f/%.1f/%.1f ms of %d",
                    service.latencyMs().getP50(),
                    service.latencyMs().getP99(),
                    intended.getP50(),
                    intended.getP90(),
                    intended.getP95(),
                    intended.getP99(),
                    intended.getIntended(),
                    intended.getDropped(),
                    intended.getScheduleLagP99Ms(),
                    corrected.getValueAtPercentile(50) / 1000.0,
                    corrected.getValueAtPercentile(90) / 1000.0,
                    corrected.getValueAtPercentile(95) / 1000.0,
                    corrected.getValueAtPercentile(99) / 1000.0,
                    corrected.getTotalCount());
            Files.writeString(Path.of("target", "intended-start-stalls.txt"), figures + "\n");

            // The requests sent barely see the stalls: one in about 400 waits one out.
            assertThat(service.latencyMs().getP99()).as(figures).isLessThan(100.0);
            assertThat(service.droppedIterations()).as(figures).isGreaterThan(200);
            // Every tick is an intended request: served plus dropped is the schedule's 2000 (k6 may handle one more).
            assertThat(intended.getIntended()).as(figures).isBetween(1990L, 2002L);
            assertThat(intended.getDropped()).as(figures).isEqualTo(service.droppedIterations());
            // From the intended start the stalls dominate the tail, as the stall's geometry says.
            assertThat(intended.getP90()).as(figures).isBetween(400.0, 600.0);
            assertThat(intended.getP95()).as(figures).isBetween(650.0, 850.0);
            assertThat(intended.getP99()).as(figures).isBetween(880.0, 1020.0);
            assertThat(intended.getLowerBounds()).as(figures).contains("p90", "p95", "p99");
            // HdrHistogram's correction of the same samples: within one bucket (1.6 % here, 1 % there), plus the
            // iteration's own time around its request (a few ms) and the rank shift of the few dropped ticks
            // HdrHistogram has no value for (below), 1-2 % of the value where the stall spreads its callers thin.
            for (double p : new double[] {90, 95, 99}) {
                double hdr = corrected.getValueAtPercentile(p) / 1000.0;
                double ours = p == 90 ? intended.getP90() : p == 95 ? intended.getP95() : intended.getP99();
                assertThat(ours)
                        .as("p%s: %s", p, figures)
                        .isCloseTo(hdr, org.assertj.core.data.Offset.offset(0.04 * hdr + 5));
            }
            // HdrHistogram adds a value for each whole expected interval a request took beyond the first, while k6
            // drops the ticks due while its one VU was busy. Per stretch of dropped ticks (two successive iterations
            // starting more than an interval and a half apart) the two counts differ by the part-intervals at its
            // ends, at most two, whatever kept the VU busy: a long request, or the iteration's own work around a
            // short one outlasting the interval (a late start, a k6 descheduled on a busy machine), which
            // HdrHistogram cannot see at all.
            long longRequests = values(dir.resolve("samples.json"), "http_req_duration").stream()
                    .filter(micros -> micros > 10_000)
                    .count();
            long dropStretches = dropStretches(dir.resolve("samples.json"), 10_000);
            assertThat(corrected.getTotalCount())
                    .as(figures + "; " + longRequests + " requests over 10 ms, " + dropStretches
                            + " stretches of dropped ticks")
                    .isBetween(
                            intended.getIntended() - 2 * dropStretches - 2, intended.getIntended() + 2 * longRequests);
        }
    }

    /**
     * Two k6 instances, each with half of the execution segments as a cluster's two runners have them, under a ramping
     * rate (10 to 80 a second over 5 s, then 80 for 5 s) that a fast target keeps up with. Each instance matches its
     * handled ticks to its own striped share of the schedule: together they intended the schedule's 625 iterations,
     * and the latency from the intended start stays close to the service time. A tick matched to the wrong due time
     * would show as a lag growing by a tick period with every tick: 5 s by the end.
     */
    @Test
    void twoRunnersWithExecutionSegmentsMatchTheirTicksOfARampingRate(@TempDir Path dir) throws Exception {
        try (TinyTargetServer server = new TinyTargetServer("webflux-r2dbc")) {
            BenchmarkRunSpec spec =
                    BenchmarkRuns.read("""
                    apiVersion: stackbench.dev/v1alpha1
                    kind: BenchmarkRun
                    metadata: {name: segments}
                    spec:
                      target: {variant: webflux-r2dbc}
                      workload:
                        scenario: upstream
                        upstreamDelay: 1ms
                        load:
                          executor: ramping-arrival-rate
                          rate: 10
                          vus: 40
                          preAllocatedVUs: 20
                          stages:
                            - {duration: 5s, target: 80}
                            - {duration: 5s, target: 80}
                        warmup: 1s
                        duration: 10s
                    """, "segments.yaml").get(0).getSpec();
            Files.writeString(
                    dir.resolve("script.js"),
                    new K6ScriptGenerator().generate(spec).text());
            List<java.util.concurrent.Future<K6Binary.Result>> runners = new ArrayList<>();
            try (var pool = java.util.concurrent.Executors.newFixedThreadPool(2)) {
                for (String segment : List.of("0:1/2", "1/2:1")) {
                    String runner = segment.startsWith("0") ? "1" : "2";
                    Path runnerDir = Files.createDirectories(dir.resolve("runner-" + runner));
                    Files.copy(dir.resolve("script.js"), runnerDir.resolve("script.js"));
                    runners.add(pool.submit(() -> K6Binary.run(
                            runnerDir,
                            Map.of(
                                    K6Env.BASE_URL, server.baseUrl(),
                                    K6Env.SUMMARY_FILE,
                                            runnerDir.resolve("summary.json").toString(),
                                    K6Env.RUNNER_ID, runner),
                            120,
                            "run",
                            "--quiet",
                            "--execution-segment",
                            segment,
                            "--execution-segment-sequence",
                            "0,1/2,1",
                            "--out",
                            "stackbench=" + runnerDir.resolve("per-second.ndjson"),
                            "script.js")));
                }
                for (var runner : runners) {
                    K6Binary.Result result = runner.get();
                    assertThat(result.exitCode())
                            .as("k6 run: %s", result.stderr())
                            .isZero();
                }
            }
            IntendedStarts starts;
            try (Stream<String> lines = Stream.concat(
                    Files.lines(dir.resolve("runner-1/per-second.ndjson")),
                    Files.lines(dir.resolve("runner-2/per-second.ndjson")))) {
                starts = IntendedStarts.read(lines, K6Env.MEASURE_SCENARIO);
            }
            IntendedLatency intended = starts.summary().orElseThrow();
            RunnerSummary first = K6SummaryParser.parseFile(dir.resolve("runner-1/summary.json"));
            RunnerSummary second = K6SummaryParser.parseFile(dir.resolve("runner-2/summary.json"));
            String figures = String.format(
                    Locale.ROOT,
                    "intended %d (%d dropped), p50/p99/max %.2f/%.2f/%.2f ms, lag p99/max %.2f/%.2f ms; service p50/p99"
                            + " %.2f/%.2f and %.2f/%.2f ms",
                    intended.getIntended(),
                    intended.getDropped(),
                    intended.getP50(),
                    intended.getP99(),
                    intended.getMax(),
                    intended.getScheduleLagP99Ms(),
                    intended.getScheduleLagMaxMs(),
                    first.latencyMs().getP50(),
                    first.latencyMs().getP99(),
                    second.latencyMs().getP50(),
                    second.latencyMs().getP99());
            Files.writeString(Path.of("target", "intended-start-segments.txt"), figures + "\n");

            assertThat(starts.instances()).isEqualTo(2);
            // 5 s from 10 to 80 a second (225) and 5 s at 80 (400); the last tick falls on the scenario's end.
            assertThat(intended.getIntended()).as(figures).isBetween(620L, 625L);
            assertThat(intended.getServed()).as(figures).isEqualTo(first.iterations() + second.iterations());
            assertThat(intended.getDropped()).as(figures).isZero();
            assertThat(intended.getLowerBounds()).as(figures).isNull();
            assertThat(intended.getMax()).as(figures).isLessThan(2500.0);
        }
    }

    /**
     * k6 interrupts the iterations still running when a scenario's graceful stop runs out and emits no sample for
     * them. At 50 requests a second answered after 400 ms, with no graceful stop, about 20 are in flight when the
     * measured scenario ends: they are intended requests whose callers were never answered, counted as cut off with a
     * lower bound, so served plus dropped plus cut off is the schedule's 150.
     */
    @Test
    void iterationsCutOffAtTheScenariosEndCountAmongTheIntended(@TempDir Path dir) throws Exception {
        try (TinyTargetServer server = new TinyTargetServer("webflux-r2dbc")) {
            BenchmarkRunSpec spec = BenchmarkRuns.read("""
                    apiVersion: stackbench.dev/v1alpha1
                    kind: BenchmarkRun
                    metadata: {name: cut}
                    spec:
                      target: {variant: webflux-r2dbc}
                      workload:
                        scenario: upstream
                        upstreamDelay: 400ms
                        load: {executor: constant-arrival-rate, rate: 50, preAllocatedVUs: 40}
                        warmup: 1s
                        duration: 3s
                    """, "cut.yaml").get(0).getSpec();
            String script = new K6ScriptGenerator().generate(spec).text();
            String graceful = "\"gracefulStop\" : \""
                    + dev.stackbench.api.Durations.format(K6ScriptGenerator.GRACEFUL_STOP) + "\"";
            assertThat(script).contains(graceful);
            Files.writeString(dir.resolve("script.js"), script.replace(graceful, "\"gracefulStop\" : \"0s\""));
            runWithTheOutput(dir, server);

            RunnerSummary service = K6SummaryParser.parseFile(dir.resolve("summary.json"));
            IntendedLatency intended = intendedLatency(dir);
            String figures = String.format(
                    Locale.ROOT,
                    "intended %d: served %d (k6 iterations %d), dropped %d, cut off %s; p50/p99/max %.1f/%.1f/%.1f ms,"
                            + " lower bounds %s; %s",
                    intended.getIntended(),
                    intended.getServed(),
                    service.iterations(),
                    intended.getDropped(),
                    intended.getCutOff(),
                    intended.getP50(),
                    intended.getP99(),
                    intended.getMax(),
                    intended.getLowerBounds(),
                    intended.getNote());
            Files.writeString(Path.of("target", "intended-start-cut-off.txt"), figures + "\n");

            assertThat(intended.getServed()).as(figures).isEqualTo(service.iterations());
            assertThat(intended.getDropped()).as(figures).isZero();
            assertThat(intended.getCutOff()).as(figures).isBetween(15L, 25L);
            assertThat(intended.getIntended()).as(figures).isBetween(149L, 151L);
            assertThat(intended.getLowerBounds()).as(figures).contains("max");
            assertThat(intended.getNote()).as(figures).contains("were cut off");
        }
    }

    /**
     * Runs dir/script.js as one runner against the server with the stackbench output writing dir/per-second.ndjson
     * (and the summary to dir/summary.json), plus further k6 arguments; k6 must succeed.
     */
    private static void runWithTheOutput(Path dir, TinyTargetServer server, String... more) throws Exception {
        List<String> arguments =
                new ArrayList<>(List.of("run", "--quiet", "--out", "stackbench=" + dir.resolve("per-second.ndjson")));
        arguments.addAll(List.of(more));
        arguments.add("script.js");
        K6Binary.Result result = K6Binary.run(
                dir,
                Map.of(
                        K6Env.BASE_URL, server.baseUrl(),
                        K6Env.SUMMARY_FILE, dir.resolve("summary.json").toString(),
                        K6Env.RUNNER_ID, "0"),
                120,
                arguments.toArray(String[]::new));
        assertThat(result.exitCode()).as("k6 run: %s", result.stderr()).isZero();
    }

    /** The measured scenario's latency from the intended start, from dir/per-second.ndjson. */
    private static IntendedLatency intendedLatency(Path dir) throws Exception {
        try (Stream<String> lines = Files.lines(dir.resolve("per-second.ndjson"))) {
            return IntendedStarts.read(lines, K6Env.MEASURE_SCENARIO).summary().orElseThrow();
        }
    }

    /** The measured scenario's request durations, corrected for coordinated omission. */
    private static Histogram hdrCorrected(Path samples, long expectedIntervalMicros) throws Exception {
        Histogram histogram = new Histogram(3_600_000_000L, 2);
        List<Long> values = values(samples, "http_req_duration");
        assertThat(values).isNotEmpty();
        values.forEach(micros -> histogram.recordValueWithExpectedInterval(micros, expectedIntervalMicros));
        return histogram;
    }

    /**
     * How many times the measured scenario's one VU let at least one tick pass: successive iterations (each starting
     * at its sample's time, its end, less its duration) more than one and a half intervals apart.
     */
    private static long dropStretches(Path samples, long intervalMicros) throws Exception {
        List<Long> starts = new ArrayList<>();
        forEachMeasuredPoint(samples, "iteration_duration", node -> {
            java.time.Instant end =
                    java.time.Instant.parse(node.path("data").path("time").asText());
            long endMicros = end.getEpochSecond() * 1_000_000 + end.getNano() / 1_000;
            starts.add(endMicros - Math.round(node.path("data").path("value").asDouble() * 1000));
        });
        starts.sort(null);
        long stretches = 0;
        for (int i = 1; i < starts.size(); i++) {
            if (starts.get(i) - starts.get(i - 1) > intervalMicros * 3 / 2) {
                stretches++;
            }
        }
        return stretches;
    }

    /** The measured scenario's samples of a trend metric in microseconds, from k6's JSON output. */
    private static List<Long> values(Path samples, String metric) throws Exception {
        List<Long> values = new ArrayList<>();
        forEachMeasuredPoint(
                samples,
                metric,
                node -> values.add(Math.round(node.path("data").path("value").asDouble() * 1000)));
        return values;
    }

    /** Calls the action with each of the measured scenario's samples of the metric in k6's JSON output. */
    private static void forEachMeasuredPoint(Path samples, String metric, java.util.function.Consumer<JsonNode> action)
            throws Exception {
        try (Stream<String> lines = Files.lines(samples)) {
            lines.forEach(line -> {
                JsonNode node;
                try {
                    node = JSON.readTree(line);
                } catch (Exception e) {
                    throw new IllegalStateException("unreadable k6 JSON sample: " + line, e);
                }
                if (node.path("type").asText().equals("Point")
                        && node.path("metric").asText().equals(metric)
                        && node.path("data")
                                .path("tags")
                                .path("scenario")
                                .asText()
                                .equals(K6Env.MEASURE_SCENARIO)) {
                    action.accept(node);
                }
            });
        }
    }
}
