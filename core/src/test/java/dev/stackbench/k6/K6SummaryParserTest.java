package dev.stackbench.k6;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Parses stdout captured from a real k6 run of a generated script (K6ScriptGeneratorIT, in the local module, writes a
 * fresh capture to local/target/k6-tiny-run.stdout). tiny-run-with-end.stdout is such a capture; tiny-run.stdout is the same with its
 * endedAtMs field taken out, as a script from before that field printed it.
 */
class K6SummaryParserTest {

    private static String capturedStdout() throws IOException {
        return Files.readString(Path.of("src", "test", "resources", "k6", "tiny-run.stdout"));
    }

    @Test
    void readsTheMeasuredFiguresOfARealRun() throws IOException {
        RunnerSummary summary = K6SummaryParser.parse(capturedStdout());

        assertThat(summary.scenario()).isEqualTo("upstream");
        assertThat(summary.measuredSeconds()).isEqualTo(3.0);
        assertThat(summary.warmupSeconds()).isEqualTo(2.0);
        assertThat(summary.requests()).isPositive();
        // Completions inside the window, which may be fewer than the measured requests.
        assertThat(summary.requestsPerSecond()).isEqualTo(summary.windowCompletions() / 3.0);
        assertThat(summary.bucketedRequests()).isEqualTo(summary.requests());
        assertThat(summary.latencyMs().getP50())
                .isLessThanOrEqualTo(summary.latencyMs().getP95());
        assertThat(summary.latencyMs().getP95())
                .isLessThanOrEqualTo(summary.latencyMs().getMax());
        assertThat(summary.thresholds()).containsKey("http_req_duration{scenario:measure}");
    }

    @Test
    void saysWhenTheLoadStartedByK6sOwnClock() throws IOException {
        // Recorded from a real run whose script reports when its summary was written (endedAtMs 1795508573917)
        // next to k6's testRunDurationMs (5009.52): the scenarios started 5010 ms before.
        RunnerSummary summary = K6SummaryParser.parse(
                Files.readString(Path.of("src", "test", "resources", "k6", "tiny-run-with-end.stdout")));

        assertThat(summary.loadStartedAt()).isEqualTo(java.time.Instant.ofEpochMilli(1795508568907L));
        assertThat(summary.measuredWindowStart())
                .contains(java.time.Instant.ofEpochMilli(1795508568907L).plusSeconds(2));
    }

    @Test
    void aSummaryThatDoesNotSayWhenItEndedHasNoStartTime() throws IOException {
        RunnerSummary summary = K6SummaryParser.parse(capturedStdout());

        assertThat(summary.loadStartedAt()).isNull();
        assertThat(summary.measuredWindowStart()).isEmpty();
    }

    @Test
    void theWindowIsTheMeasuredResponsesLessTheLateOnesPlusTheWarmupsAnsweredInsideIt() throws IOException {
        // A real run (K6ScriptGeneratorIT writes local/target/k6-window-edges.stdout): 10 requests/s answered after
        // 1.5 s, 3 s of warmup then 3 s measured. 31 measured responses, 16 of them after the window closed, and
        // 16 of the warmup's inside it.
        RunnerSummary summary = K6SummaryParser.parse(
                Files.readString(Path.of("src", "test", "resources", "k6", "window-edges.stdout")));

        assertThat(summary.requests()).isEqualTo(31);
        assertThat(summary.bucketedRequests()).isEqualTo(31);
        assertThat(summary.windowCompletions()).isEqualTo(31 - 16 + 16);
        assertThat(summary.windowFromWarmup()).isEqualTo(16);
        assertThat(summary.requestsPerSecond()).isEqualTo(31 / 3.0);
    }

    @Test
    void aScriptThatRecordedNothingLetsTheMeasuredRequestsStandInForTheWindow() throws IOException {
        // As if a custom module never called record: none of the script's own counters got a sample.
        String stdout = capturedStdout()
                .replaceAll("stackbench_window_", "stackbench_other_window_")
                .replaceAll("stackbench_latency_bucket", "stackbench_other_bucket");
        RunnerSummary summary = K6SummaryParser.parse(stdout);

        assertThat(summary.windowCompletions()).isEqualTo(-1);
        assertThat(summary.requestsPerSecond()).isEqualTo(summary.requests() / 3.0);
    }

    @Test
    void bucketsCountedByTheStackbenchOutputAreReadFromTheSummarysOwnField() throws IOException {
        // A script generated for the k6 with stackbench's output has no bucket sub-metrics: handleSummary writes the
        // output's counts as latencyBuckets, bucket index to count. Built here from the captured run's own buckets.
        String stdout = capturedStdout();
        long[] counted = K6SummaryParser.parse(stdout).latencyBuckets();
        StringBuilder field = new StringBuilder(",\"latencyBuckets\":{");
        String separator = "";
        for (int i = 0; i < counted.length; i++) {
            if (counted[i] > 0) {
                field.append(separator).append('"').append(i).append("\":").append(counted[i]);
                separator = ",";
            }
        }
        String format = "\"format\":\"" + K6Env.SUMMARY_FORMAT + "\"";
        String fromOutput = stdout.replaceAll("stackbench_latency_bucket", "stackbench_other_bucket")
                .replace(format, format + field + "}");

        RunnerSummary summary = K6SummaryParser.parse(fromOutput);

        assertThat(summary.latencyBuckets()).containsExactly(counted);
        assertThat(summary.bucketedRequests()).isEqualTo(summary.requests());
        assertThat(summary.windowCompletions())
                .isEqualTo(K6SummaryParser.parse(stdout).windowCompletions());
        assertThatThrownBy(() -> K6SummaryParser.parse(fromOutput.replace(
                        format + ",\"latencyBuckets\":{", format + ",\"latencyBuckets\":{\"9999\":1,")))
                .isInstanceOf(K6SummaryException.class)
                .hasMessageContaining("bucket \"9999\"")
                .hasMessageContaining("regenerate the script");
    }

    @Test
    void bucketsHoldTheK6Latencies() throws IOException {
        RunnerSummary summary = K6SummaryParser.parse(capturedStdout());
        int lowest = -1;
        int highest = -1;
        for (int i = 0; i < summary.latencyBuckets().length; i++) {
            if (summary.latencyBuckets()[i] > 0) {
                highest = i;
                lowest = lowest < 0 ? i : lowest;
            }
        }

        assertThat(LatencyBuckets.lowerBoundMs(lowest))
                .isLessThanOrEqualTo(summary.latencyMs().getMin());
        assertThat(LatencyBuckets.upperBoundMs(highest))
                .isGreaterThan(summary.latencyMs().getMax());
    }

    @Test
    void takesTheLastBlockAndIgnoresSurroundingLogLines() throws IOException {
        String block = capturedStdout();
        String log = "time=\"...\" level=info msg=\"starting\"\n" + block + "\nsome later line\n" + block;

        assertThat(K6SummaryParser.parseAll(log)).hasSize(2);
        assertThat(K6SummaryParser.parse(log).requests())
                .isEqualTo(K6SummaryParser.parse(block).requests());
    }

    @Test
    void aStrayMarkerDoesNotHideTheValidSummary() throws IOException {
        String block = capturedStdout();
        long expected = K6SummaryParser.parse(block).requests();
        // A script's console.log of the marker: k6 prints it inside a log line of its own.
        String consoleLog =
                "time=\"2026-01-01T00:00:00Z\" level=info msg=\"" + K6Env.SUMMARY_BEGIN + "\" source=console\n";
        // A block cut off before its end marker (an earlier, interrupted handleSummary), then the complete one.
        String cutOff = "\n" + K6Env.SUMMARY_BEGIN + "\n{\"format\":\"stackb\n";
        // A complete summary, then a block that was cut off by the end of the log.
        String cutAtTheEnd = block + "\n" + K6Env.SUMMARY_BEGIN + "\n{\"format\":";

        assertThat(K6SummaryParser.parse(consoleLog + block).requests()).isEqualTo(expected);
        assertThat(K6SummaryParser.parse(cutOff + block).requests()).isEqualTo(expected);
        assertThat(K6SummaryParser.parse(cutAtTheEnd).requests()).isEqualTo(expected);
        assertThat(K6SummaryParser.parseAll(consoleLog + cutOff + cutAtTheEnd)).hasSize(1);
        assertThat(K6SummaryParser.lastValidBlock(consoleLog + cutOff + cutAtTheEnd))
                .hasValueSatisfying(kept ->
                        assertThat(K6SummaryParser.parse(kept).requests()).isEqualTo(expected))
                .hasValueSatisfying(kept -> assertThat(kept).hasSizeLessThan(block.length()));
        assertThat(K6SummaryParser.lastValidBlock(consoleLog + cutOff)).isEmpty();
    }

    @Test
    void aBrokenBlockAloneStillSaysWhatWasWrong() {
        String broken = "\n" + K6Env.SUMMARY_BEGIN + "\n{\"format\":\"other\"}\n" + K6Env.SUMMARY_END + "\n";

        assertThatThrownBy(() -> K6SummaryParser.parse(broken)).hasMessageContaining("not a stackbench k6 summary");
    }

    @Test
    void missingOrCutOffBlocksSayWhatHappened() throws IOException {
        String stdout = capturedStdout();

        assertThatThrownBy(() -> K6SummaryParser.parse("level=error msg=\"GoError: boom\"\n"))
                .isInstanceOf(K6SummaryException.class)
                .hasMessageContaining("k6 stopped before handleSummary ran");
        assertThatThrownBy(() -> K6SummaryParser.parse(stdout.substring(0, stdout.indexOf(K6Env.SUMMARY_END))))
                .hasMessageContaining("the output was cut off");
        assertThatThrownBy(() -> K6SummaryParser.parseJson("{\"format\":\"other\"}"))
                .hasMessageContaining("not a stackbench k6 summary");
    }

    @Test
    void bucketFormulaMatchesTheBounds() {
        for (double ms : new double[] {0.05, 0.1, 0.2, 1, 7.37, 300, 1_000, 60_000, 119_999, 500_000}) {
            int index = LatencyBuckets.bucketOf(ms);
            assertThat(LatencyBuckets.lowerBoundMs(index)).isLessThanOrEqualTo(ms);
            assertThat(LatencyBuckets.upperBoundMs(index)).isGreaterThan(ms);
        }
        for (int index = 0; index < LatencyBuckets.COUNT; index++) {
            assertThat(LatencyBuckets.indexOf(LatencyBuckets.metricName(index))).isEqualTo(index);
        }
        assertThat(LatencyBuckets.indexOf("http_reqs")).isEqualTo(-1);
        assertThat(LatencyBuckets.indexOf("stackbench_latency_bucket_00{bucket:0123}"))
                .isEqualTo(-1);
        assertThat(LatencyBuckets.indexOf("stackbench_latency_bucket_18{bucket:0999}"))
                .isEqualTo(-1);
    }
}
