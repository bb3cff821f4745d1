package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.stackbench.k6.OutputBuckets;
import dev.stackbench.report.RequestTimeline;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading the lines k6's stackbench output writes (hack/k6/persecond; SteadyLoadSeriesIT reads a real k6's): seconds
 * and scenarios apart, a second's later line added to its first, a line cut short skipped, latency buckets decoded as
 * the Go side encodes them.
 */
class K6PerSecondFileTest {

    @TempDir
    Path dir;

    @Test
    void linesAddUpPerSecondAndScenario() throws IOException {
        // Bucket 526 holds 9984-10111 µs (the Go side puts 10 ms there); bucket 100 is 100 µs exactly.
        Path file = dir.resolve("k6-per-second.ndjson");
        Files.writeString(file, """
                {"second":100,"scenarios":{"warmup":{"requests":5,"failed":0,"dropped":0,"latency":{"100":5}}}}
                {"second":101,"scenarios":{"measure":{"requests":60,"failed":2,"dropped":1,"latency":{"526":60}}}}
                {"second":103,"scenarios":{"measure":{"requests":59,"failed":0,"dropped":0,"latency":{"526":59}}}}
                {"second":101,"scenarios":{"measure":{"requests":1,"failed":0,"dropped":0,"latency":{"526":1}}}}
                {"second":104,"scenarios":{"measure":{"requ""");

        Map<String, RequestTimeline> timelines = K6PerSecondFile.read(file);

        assertThat(timelines).containsOnlyKeys("warmup", "measure");
        RequestTimeline measure = timelines.get("measure");
        assertThat(measure.points())
                .extracting(RequestTimeline.Point::second, RequestTimeline.Point::requests)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(0L, 61L),
                        org.assertj.core.groups.Tuple.tuple(1L, 0L),
                        org.assertj.core.groups.Tuple.tuple(2L, 59L));
        RequestTimeline.Point first = measure.points().getFirst();
        assertThat(first.failed()).isEqualTo(2);
        assertThat(first.dropped()).isEqualTo(1);
        assertThat(first.p50Ms()).isCloseTo(10.0, within(10.0 / OutputBuckets.SUB_BUCKETS));
        assertThat(timelines.get("warmup").points().getFirst().p99Ms()).isCloseTo(0.1, within(0.001));
    }

    @Test
    void bucketsAreContiguousAndAtMostOneSixtyFourthWide() {
        for (int bucket = 0; bucket < 2000; bucket++) {
            long lower = OutputBuckets.lowerMicros(bucket);
            long upper = OutputBuckets.lowerMicros(bucket + 1);
            assertThat(upper).as("bucket %d's upper bound", bucket).isGreaterThan(lower);
            if (lower >= OutputBuckets.EXACT_MICROS) {
                assertThat(upper - lower).isLessThanOrEqualTo(lower / OutputBuckets.SUB_BUCKETS);
            }
        }
        assertThat(OutputBuckets.lowerMicros(526)).isEqualTo(9984);
    }

    @Test
    void aMissingFileHasNoTimelines() {
        assertThat(K6PerSecondFile.read(dir.resolve("absent.ndjson"))).isEmpty();
    }
}
