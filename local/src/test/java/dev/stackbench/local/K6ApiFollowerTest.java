package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.k6.K6ApiCounts;
import dev.stackbench.k6.LatencyBuckets;
import dev.stackbench.report.RequestTimeline;
import java.util.List;
import org.junit.jupiter.api.Test;

class K6ApiFollowerTest {

    /** A GET /v1/metrics answer in k6 v1.8's shape (JSON:API, one entry per metric and sub-metric). */
    private static String metrics(
            long requests,
            double failedRate,
            long dropped,
            long measureRequests,
            double measureFailedRate,
            long measureDropped,
            int bucket,
            long bucketCount) {
        return "{\"data\":["
                + counter("http_reqs", requests)
                + "," + rate("http_req_failed", failedRate)
                + "," + counter("dropped_iterations", dropped)
                + "," + counter("http_reqs{scenario:measure}", measureRequests)
                + "," + rate("http_req_failed{scenario:measure}", measureFailedRate)
                + "," + counter("dropped_iterations{scenario:measure}", measureDropped)
                + "," + counter("http_reqs{scenario:measure,status:200}", measureRequests)
                + "," + counter(LatencyBuckets.groupMetric(bucket / LatencyBuckets.GROUP_SIZE), bucketCount)
                + "," + counter(LatencyBuckets.metricName(bucket), bucketCount)
                + "]}";
    }

    private static String counter(String id, long count) {
        return "{\"type\":\"metrics\",\"id\":\"" + id + "\",\"attributes\":{\"type\":\"counter\",\"contains\":"
                + "\"default\",\"tainted\":null,\"sample\":{\"count\":" + count + ",\"rate\":1.5}}}";
    }

    private static String rate(String id, double rate) {
        return "{\"type\":\"metrics\",\"id\":\"" + id + "\",\"attributes\":{\"type\":\"rate\",\"contains\":"
                + "\"default\",\"tainted\":null,\"sample\":{\"rate\":" + rate + "}}}";
    }

    @Test
    void readsTheCumulativeCountsOfBothScenarios() throws Exception {
        K6ApiCounts counts = K6ApiCounts.parse(metrics(120, 0.25, 3, 40, 0.5, 1, 57, 40));

        assertThat(counts.requests()).isEqualTo(120);
        assertThat(counts.failed()).isEqualTo(30);
        assertThat(counts.dropped()).isEqualTo(3);
        assertThat(counts.measureRequests()).isEqualTo(40);
        assertThat(counts.measureFailed()).isEqualTo(20);
        assertThat(counts.measureDropped()).isEqualTo(1);
        assertThat(counts.measureBuckets()[57]).isEqualTo(40);
        assertThat(counts.measureBuckets()).hasSize(LatencyBuckets.COUNT);
    }

    @Test
    void eachPollAddsWhatGrewToItsSecondAndSplitsTheWarmupFromTheMeasureScenario() throws Exception {
        K6ApiFollower follower = new K6ApiFollower(null);
        int fiftyMs = LatencyBuckets.bucketOf(50);

        // Warmup only: nothing measured yet, so the measure timeline stays empty (its first second starts the clock).
        follower.accept(100, K6ApiCounts.parse(metrics(30, 0, 0, 0, 0, 0, fiftyMs, 0)));
        follower.accept(101, K6ApiCounts.parse(metrics(60, 0.5, 2, 0, 0, 0, fiftyMs, 0)));
        assertThat(follower.timeline("measure").isEmpty()).isTrue();
        RequestTimeline warmup = follower.timeline("warmup");
        assertThat(warmup.requestsAt(100)).isEqualTo(30);
        assertThat(warmup.requestsAt(101)).isEqualTo(30);
        assertThat(warmup.totalFailed()).isEqualTo(30);
        assertThat(warmup.totalDropped()).isEqualTo(2);

        // The measure scenario's requests all took about 50 ms.
        follower.accept(102, K6ApiCounts.parse(metrics(100, 0.3, 2, 40, 0, 0, fiftyMs, 40)));
        follower.accept(103, K6ApiCounts.parse(metrics(100, 0.3, 2, 40, 0, 0, fiftyMs, 40)));
        RequestTimeline measure = follower.timeline("measure");
        assertThat(measure.firstEpochSecond()).isEqualTo(102);
        assertThat(measure.totalRequests()).isEqualTo(40);
        assertThat(warmup.totalRequests()).isEqualTo(60);
        List<RequestTimeline.Point> points = measure.points();
        // A second in which nothing completed is a point of zero requests: a stall shows.
        assertThat(points).hasSize(2);
        assertThat(points.get(0).requests()).isEqualTo(40);
        assertThat(points.get(0).p95Ms())
                .isBetween(LatencyBuckets.lowerBoundMs(fiftyMs), LatencyBuckets.upperBoundMs(fiftyMs));
        assertThat(points.get(1).requests()).isZero();
        assertThat(points.get(1).p95Ms()).isNaN();
    }

    @Test
    void aK6ThatDoesNotAnswerChangesNothing() {
        K6ApiFollower follower = new K6ApiFollower("127.0.0.1:" + new FreePorts().next());

        follower.poll();

        assertThat(follower.timeline("measure").isEmpty()).isTrue();
        assertThat(follower.timeline("warmup").isEmpty()).isTrue();
    }

    @Test
    void aBucketIsRepresentedByAValueInsideIt() {
        for (int index : new int[] {0, 1, 57, LatencyBuckets.COUNT - 2, LatencyBuckets.COUNT - 1}) {
            double ms = K6ApiFollower.representativeMs(index);
            assertThat(LatencyBuckets.bucketOf(ms)).isEqualTo(index);
        }
    }
}
