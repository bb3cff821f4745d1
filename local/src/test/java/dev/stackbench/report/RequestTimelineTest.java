package dev.stackbench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class RequestTimelineTest {

    @Test
    void bucketsPerSecondFromTheFirstSampleAndShowsStallsAsZero() {
        RequestTimeline timeline = new RequestTimeline();
        for (int i = 1; i <= 100; i++) {
            timeline.recordRequest(1000, i);
        }
        timeline.recordRequest(1003, 50);
        timeline.recordFailed(1003, true);
        timeline.recordFailed(1003, false);

        List<RequestTimeline.Point> points = timeline.points();

        assertThat(points).extracting(RequestTimeline.Point::second).containsExactly(0L, 1L, 2L, 3L);
        assertThat(points).extracting(RequestTimeline.Point::requests).containsExactly(100L, 0L, 0L, 1L);
        assertThat(points.get(1).p95Ms()).isNaN();
        assertThat(points.get(0).p50Ms()).isBetween(49.9, 50.1);
        assertThat(points.get(0).p95Ms()).isBetween(94.9, 95.1);
        assertThat(points.get(3).failed()).isEqualTo(1);
        assertThat(timeline.totalFailed()).isEqualTo(1);
    }

    @Test
    void overallPercentilesAreOrdered() {
        RequestTimeline timeline = new RequestTimeline();
        for (int i = 0; i < 1000; i++) {
            timeline.recordRequest(2000 + i / 100, 1 + (i * 7919 % 1000));
        }

        var percentiles = timeline.overallPercentilesMs();

        assertThat(percentiles.get("p50")).isLessThanOrEqualTo(percentiles.get("p95"));
        assertThat(percentiles.get("p95")).isLessThanOrEqualTo(percentiles.get("p99"));
        assertThat(percentiles.get("p99")).isLessThanOrEqualTo(percentiles.get("max"));
    }
}
