package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A port handed to a target can be taken by another process before the target's JVM binds it (k6's REST API answers
 * "ok" to every path): such an answer must neither pass for a healthy target nor for a metrics scrape.
 */
class ForeignAnswersTest {

    @Test
    void onlySpringBootsUpAnswerMakesATargetHealthy() {
        assertThat(ServiceProbe.healthy(200, "{\"status\":\"UP\"}")).isTrue();
        assertThat(ServiceProbe.healthy(200, "{\"groups\":[\"liveness\",\"readiness\"],\"status\":\"UP\"}"))
                .isTrue();
        assertThat(ServiceProbe.healthy(200, "ok"))
                .as("k6's REST API on a reused port")
                .isFalse();
        assertThat(ServiceProbe.healthy(503, "{\"status\":\"DOWN\"}")).isFalse();
        assertThat(ServiceProbe.healthy(200, "{\"status\":\"DOWN\"}")).isFalse();
    }

    @Test
    void anAnswerThatIsNotPrometheusTextIsAMissedScrape() {
        assertThat(MetricsSampler.isPrometheusText("ok")).isFalse();
        assertThat(MetricsSampler.isPrometheusText(
                        "# TYPE jvm_threads_live_threads gauge\njvm_threads_live_threads 42.0\n"))
                .isTrue();
    }
}
