package dev.stackbench.results;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.status.TargetSummary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A long run's scrapes thinned to a bound, with the measured window's figures as they were. */
class TargetMetricsThinningTest {

    private static final Instant START = Instant.parse("2026-01-01T10:00:00Z");

    /** A scrape after {@code seconds} of a target using half a CPU and pausing 1 ms for GC every 2 s. */
    private static PrometheusScrape scrape(String template, long seconds, int threads, int pending) {
        String text = template.replace("${threads}", Integer.toString(threads))
                .replace("${cpuUsage}", "0.25")
                .replace("${cpuNs}", Double.toString(seconds * 0.5e9))
                .replace("${gcCount}", Long.toString(seconds / 2))
                .replace("${gcSum}", Double.toString(seconds / 2 * 0.001))
                .replace("${eden}", "2097152")
                .replace("${active}", "10")
                .replace("${pending}", Integer.toString(pending));
        return PrometheusTextParser.parse(text);
    }

    @Test
    void aLongRunKeepsABoundedNumberOfScrapesAndTheWindowsFigures() throws IOException {
        String template = Files.readString(Path.of("src", "test", "resources", "prometheus", "scrape-template.txt"));
        TargetMetrics thinned = new TargetMetrics();
        TargetMetrics whole = new TargetMetrics();
        // Two pods scraped every 2 s for 4 hours; the measured window is the second hour.
        Instant from = START.plus(Duration.ofHours(1));
        Instant to = START.plus(Duration.ofHours(2));
        for (int i = 0; i < 7200; i++) {
            Instant at = START.plusSeconds(2L * i);
            // One spike inside the window, on a scrape that thinning leaves out.
            PrometheusScrape taken = i == 2701 ? scrape(template, 2L * i, 99, 7) : scrape(template, 2L * i, 30, 0);
            for (String pod : new String[] {"pod-a", "pod-b"}) {
                thinned.add(at, pod, taken);
                whole.add(at, pod, taken);
                thinned.thin(1000, t -> near(t, from) || near(t, to));
            }
        }

        assertThat(thinned.samples()).hasSizeLessThanOrEqualTo(2 * (1000 + 62));
        TargetSummary expected = whole.summary(from, to);
        TargetSummary actual = thinned.summary(from, to);
        assertThat(actual.getPeakThreads()).isEqualTo(expected.getPeakThreads()).isEqualTo(2 * 99);
        assertThat(actual.getPeakDbPoolPending()).isEqualTo(expected.getPeakDbPoolPending());
        assertThat(actual.getPeakHeapMiB()).isEqualTo(expected.getPeakHeapMiB());
        assertThat(actual.getAvgCpuCores()).isEqualTo(expected.getAvgCpuCores());
        assertThat(actual.getGcPauseMs()).isEqualTo(expected.getGcPauseMs());
        assertThat(thinned.covered(from, to)).isEqualTo(whole.covered(from, to));
        assertThat(thinned.serverRequests().stream().filter(r -> r.at().equals(from)))
                .as("the request counters at the window's edges, which the server-side check reads")
                .hasSize(2);
        assertThat(thinned.samples().getFirst().at()).isEqualTo(START);
        assertThat(thinned.samples().getLast().at()).isEqualTo(START.plusSeconds(2L * 7199));
    }

    private static boolean near(Instant at, Instant edge) {
        return Duration.between(edge, at).abs().compareTo(Duration.ofSeconds(30)) <= 0;
    }
}
