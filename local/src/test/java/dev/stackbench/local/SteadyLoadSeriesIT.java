package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stackbench.api.status.BenchmarkRunStatus;
import dev.stackbench.api.status.Phase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real local run at a steady 60 requests/s, with the k6 hack/setup.sh builds (its stackbench output bins requests
 * by their own time stamps): every whole second of the measured window shows 60 requests, give or take what the
 * requests' timing moves across a second's edges.
 *
 * <p>Why that bound: constant-arrival-rate starts request i at start + i/60 s, so every whole second holds exactly 60
 * starts. k6 stamps a request when its response has arrived, start plus a delay d (latency plus k6's own lag). A
 * second's count differs from 60 only by the requests near its two edges whose d differs from their neighbours' enough
 * to cross an edge: at most 60·(d_max − d_min) per edge, plus one for where the edge falls between two starts. The
 * run's latencies bound d's spread: the test allows 1 + ⌈60 · (largest per-second p99 in s)⌉, at least 3 (a quiet
 * machine answers in milliseconds, so ±3; a busy one's slow seconds widen it by as much as they are slow). Polling
 * k6's REST API instead showed seconds of 0 and 117 at this load.
 */
class SteadyLoadSeriesIT {

    private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules();
    private static final int RATE = 60;

    @TempDir
    Path dir;

    @BeforeAll
    static void requireTheK6WithTheStackbenchOutput() {
        Path k6 = CliInvocation.k6FromEnvironment();
        assertThat(K6Version.hasStackbenchOutput(k6))
                .as(k6 + " has no stackbench output: run hack/setup.sh k6 and source .tools/env.sh")
                .isTrue();
    }

    @Test
    void aSteadyLoadShowsSixtyRequestsInEverySecondOfTheWindow() throws Exception {
        Path spec = dir.resolve("steady.yaml");
        Files.writeString(spec, """
                apiVersion: stackbench.dev/v1alpha1
                kind: BenchmarkRun
                metadata:
                  name: it-steady-60
                spec:
                  target:
                    variant: webflux-r2dbc
                    resources: {cpu: "1", memory: 512Mi}
                  workload:
                    scenario: upstream
                    upstreamDelay: 0ms
                    load: {executor: constant-arrival-rate, rate: %d, vus: 20}
                    warmup: 3s
                    duration: 15s
                """.formatted(RATE));
        Path results = dir.resolve("results");

        CliInvocation cli = CliInvocation.run("--results-dir", results.toString(), "--output", "json", spec.toString());

        assertThat(cli.exitCode()).as("exit code; stderr:\n" + cli.err()).isZero();
        BenchmarkRunStatus status = JSON.readValue(cli.out(), BenchmarkRunStatus.class);
        assertThat(status.getPhase()).isEqualTo(Phase.Succeeded);
        assertThat(cli.err()).doesNotContain("has no stackbench output");
        Path runDir;
        try (Stream<Path> runs = Files.list(results)) {
            runDir = runs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        assertThat(runDir.resolve("k6-per-second.ndjson")).isNotEmptyFile();
        List<long[]> seconds = new ArrayList<>();
        double slowestP99Ms = 0;
        List<String> rows = Files.readAllLines(runDir.resolve("requests-per-second.csv"));
        for (String row : rows.subList(1, rows.size())) {
            // second,requests,failed,dropped,p50_ms,p95_ms,p99_ms
            String[] cells = row.split(",");
            seconds.add(new long[] {Long.parseLong(cells[0]), Long.parseLong(cells[1])});
            if (!cells[6].equals("NaN")) {
                slowestP99Ms = Math.max(slowestP99Ms, Double.parseDouble(cells[6]));
            }
        }
        System.out.println("per-second requests of a steady " + RATE + "/s: "
                + seconds.stream().map(s -> Long.toString(s[1])).toList() + ", slowest p99 " + slowestP99Ms + " ms");

        // The window's seconds add up to the requests k6's summary measured.
        assertThat(seconds.stream().mapToLong(s -> s[1]).sum())
                .isEqualTo(status.getSummary().getRequests());
        // 15 s starting inside one Unix second end inside another: 15 whole seconds and a part at each end, or 16
        // whole ones when the start falls on a second's edge.
        assertThat(seconds).hasSizeBetween(15, 17);
        long allowed = Math.max(3, 1 + (long) Math.ceil(RATE * slowestP99Ms / 1000));
        List<long[]> whole = seconds.subList(1, seconds.size() - 1);
        assertThat(whole)
                .as("seconds inside the window (allowed: %d ± %d)", RATE, allowed)
                .allSatisfy(second -> assertThat(second[1])
                        .as("requests in second %d", second[0])
                        .isBetween(RATE - allowed, RATE + allowed));
    }
}
