package dev.stackbench.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.stackbench.api.status.TargetSummary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusAndTargetMetricsTest {

    private static final Instant START = Instant.parse("2026-01-01T10:00:00Z");

    private static String scrape(Map<String, Object> values) throws IOException {
        String text = Files.readString(Path.of("src", "test", "resources", "prometheus", "scrape-template.txt"));
        for (Map.Entry<String, Object> value : values.entrySet()) {
            text = text.replace("${" + value.getKey() + "}", String.valueOf(value.getValue()));
        }
        return text;
    }

    private static String scrape(
            int threads, double edenBytes, double cpuSeconds, int gcCount, double gcSeconds, int pending)
            throws IOException {
        return scrape(Map.of(
                "threads",
                threads,
                "eden",
                edenBytes,
                "cpuUsage",
                0.25,
                "cpuNs",
                cpuSeconds * 1e9,
                "gcCount",
                gcCount,
                "gcSum",
                gcSeconds,
                "active",
                10,
                "pending",
                pending));
    }

    @Test
    void parsesSamplesLabelsEscapesAndTimestamps() throws IOException {
        PrometheusScrape parsed = PrometheusTextParser.parse(scrape(30, 2_097_152, 1, 1, 0.01, 0));

        assertThat(parsed.sum("jvm_threads_live_threads")).hasValue(30);
        assertThat(parsed.sum("jvm_memory_used_bytes", labels -> "heap".equals(labels.get("area"))))
                .hasValue(2_097_152 + 10_485_760);
        PrometheusScrape.Sample escaped = parsed.samples().stream()
                .filter(sample -> sample.name().equals("http_server_requests_seconds_count"))
                .findFirst()
                .orElseThrow();
        assertThat(escaped.label("note")).isEqualTo("say \"hi\", ok");
        assertThat(escaped.label("uri")).isEqualTo("/api/upstream");
        assertThat(escaped.value()).isEqualTo(42.0);
        assertThat(parsed.sum("not_there")).isEmpty();
    }

    @Test
    void brokenLineIsReportedWithItsNumber() {
        assertThatThrownBy(() -> PrometheusTextParser.parse("# ok\nmetric{a=\"b\" 1\n"))
                .hasMessageContaining("line 2");
    }

    @Test
    void oneScrapeGivesThePlotFigures() throws IOException {
        TargetSample sample = TargetSample.of(START, scrape(30, 2_097_152, 1.5, 3, 0.02, 4));

        assertThat(sample.liveThreads()).isEqualTo(30);
        assertThat(sample.heapUsedMiB()).isCloseTo(12.0, within(1e-9));
        assertThat(sample.cpuSecondsTotal()).isCloseTo(1.5, within(1e-9));
        assertThat(sample.dbPoolActive()).isEqualTo(10);
        assertThat(sample.dbPoolPending()).isEqualTo(4);
    }

    @Test
    void summarisesTheMeasuredWindowOnly() throws IOException {
        TargetMetrics metrics = new TargetMetrics();
        // Before the window: a peak that must not count.
        metrics.add(START.minusSeconds(5), scrape(500, 900 * 1_048_576.0, 0, 0, 0, 99));
        metrics.add(START, scrape(200, 100 * 1_048_576.0, 10, 5, 0.050, 0));
        metrics.add(START.plusSeconds(5), scrape(230, 300 * 1_048_576.0, 18, 9, 0.090, 7));
        metrics.add(START.plusSeconds(10), scrape(210, 200 * 1_048_576.0, 20, 12, 0.125, 2));
        metrics.addThrottling(START, 1_000, 100);
        metrics.addThrottling(START.plusSeconds(10), 1_100, 150);

        TargetSummary summary = metrics.summary(START, START.plusSeconds(10));

        assertThat(summary.getSamples()).isEqualTo(3);
        assertThat(summary.getPeakThreads()).isEqualTo(230);
        assertThat(summary.getPeakHeapMiB()).isEqualTo(310.0);
        assertThat(summary.getAvgCpuCores()).isEqualTo(1.0);
        assertThat(summary.getGcPauseMs()).isEqualTo(75.0);
        assertThat(summary.getGcPauses()).isEqualTo(7);
        assertThat(summary.getPeakDbPoolPending()).isEqualTo(7.0);
        assertThat(summary.getPeakDbPoolActive()).isEqualTo(10.0);
        assertThat(summary.getCpuThrottledRatio()).isEqualTo(0.5);
    }

    @Test
    void twoReplicasAreSummarisedPerPodAndCombinedAsOneTarget() throws IOException {
        TargetMetrics metrics = new TargetMetrics();
        // Two pods scraped at the same moments; their counters start far apart (pod b started later), so a
        // difference taken between pods (b's last minus a's first) would be meaningless.
        metrics.add(START, "pod-a", scrape(100, 100 * 1_048_576.0, 50, 10, 0.100, 1));
        metrics.add(START, "pod-b", scrape(40, 50 * 1_048_576.0, 5, 2, 0.010, 0));
        metrics.add(START.plusSeconds(10), "pod-a", scrape(120, 200 * 1_048_576.0, 58, 14, 0.140, 3));
        metrics.add(START.plusSeconds(10), "pod-b", scrape(90, 60 * 1_048_576.0, 11, 3, 0.030, 2));
        metrics.add(START.plusSeconds(20), "pod-a", scrape(110, 150 * 1_048_576.0, 66, 16, 0.160, 0));
        metrics.add(START.plusSeconds(20), "pod-b", scrape(60, 70 * 1_048_576.0, 17, 4, 0.040, 4));

        Map<String, TargetSummary> pods = metrics.perInstance(START, START.plusSeconds(20));
        TargetSummary target = metrics.summary(START, START.plusSeconds(20));

        assertThat(pods).containsOnlyKeys("pod-a", "pod-b");
        assertThat(pods.get("pod-a").getPeakThreads()).isEqualTo(120);
        assertThat(pods.get("pod-b").getPeakThreads()).isEqualTo(90);
        assertThat(pods.get("pod-a").getAvgCpuCores()).isEqualTo(0.8); // (66 - 50) s / 20 s
        assertThat(pods.get("pod-b").getAvgCpuCores()).isEqualTo(0.6); // (17 - 5) s / 20 s
        assertThat(pods.get("pod-a").getGcPauseMs()).isEqualTo(60.0);
        assertThat(pods.get("pod-b").getGcPauseMs()).isEqualTo(30.0);
        // Rates and totals add up; peaks are the highest simultaneous sum (120 + 90 at 10 s), not the sum of peaks
        // taken at different moments, nor one pod's peak.
        assertThat(target.getAvgCpuCores()).isEqualTo(1.4);
        assertThat(target.getGcPauseMs()).isEqualTo(90.0);
        assertThat(target.getGcPauses()).isEqualTo(8);
        assertThat(target.getPeakThreads()).isEqualTo(210);
        // Heap: 200 + 70 MiB of eden at 10 s, plus the 10 MiB the template's other pools hold in each pod.
        assertThat(target.getPeakHeapMiB()).isEqualTo(280.0);
        assertThat(target.getPeakDbPoolPending()).isEqualTo(5.0); // 3 + 2 at 10 s; 0 + 4 at 20 s
        assertThat(target.getSamples()).isEqualTo(6);
        assertThat(metrics.covered(START, START.plusSeconds(20))).isEqualTo(java.time.Duration.ofSeconds(20));
        assertThat(metrics.covered(START.plusSeconds(5), START.plusSeconds(20)))
                .isEqualTo(java.time.Duration.ofSeconds(10));
    }

    @Test
    void scrapesSurviveAJournalWithHistogramsKeptAtTheWindowsStart() throws IOException {
        TargetMetrics metrics = new TargetMetrics();
        for (int second = -10; second <= 40; second += 5) {
            for (String pod : List.of("pod-a", "pod-b")) {
                String histogram = String.format(
                        java.util.Locale.ROOT,
                        "http_server_requests_seconds_bucket{uri=\"/api/upstream\",le=\"0.1\"} %d%n"
                                + "http_server_requests_seconds_bucket{uri=\"/api/upstream\",le=\"+Inf\"} %d%n",
                        2 * (second + 10),
                        3 * (second + 10));
                metrics.add(
                        START.plusSeconds(second),
                        pod,
                        scrape(100 + second, (100 + second) * 1_048_576.0, 10 + second * 0.5, 5 + second, 0.05, 0)
                                + histogram);
            }
        }

        // Histograms only around the window's start (0 s) and at each pod's latest scrape.
        String journal = metrics.journal(START.minusSeconds(5), START.plusSeconds(5));
        TargetMetrics restored = new TargetMetrics();
        int loaded = restored.load(journal + "not a scrape\n");

        assertThat(loaded).isEqualTo(22);
        assertThat(restored.summary(START, START.plusSeconds(30)))
                .usingRecursiveComparison()
                .isEqualTo(metrics.summary(START, START.plusSeconds(30)));
        assertThat(restored.perInstance(START, START.plusSeconds(30)))
                .usingRecursiveComparison()
                .isEqualTo(metrics.perInstance(START, START.plusSeconds(30)));
        // The server-side check gets the scrapes with histograms: three per pod at the start, the last one of each.
        assertThat(restored.serverRequests())
                .extracting(ServerRequests::at)
                .containsOnly(START.minusSeconds(5), START, START.plusSeconds(5), START.plusSeconds(40));
        assertThat(restored.serverRequests())
                .allSatisfy(r -> assertThat(r.buckets()).hasSize(2));
        assertThat(restored.serverRequests())
                .usingRecursiveFieldByFieldElementComparator()
                .isSubsetOf(metrics.serverRequests());
        assertThat(journal.length())
                .as("a journal without most histograms")
                .isLessThan(metrics.journal(null, null).length());
    }

    private static String hostTicks(long steal, long all) {
        return "stackbench_host_cpu_ticks_total{mode=\"steal\"} " + steal + "\n"
                + "stackbench_host_cpu_ticks_total{mode=\"all\"} " + all + "\n";
    }

    @Test
    void theHostsStealIsTheWindowsShareOfTheWorstNodeAndSurvivesTheJournal() throws IOException {
        TargetMetrics metrics = new TargetMetrics();
        String page = scrape(100, 1_048_576.0, 10, 1, 0.01, 0);
        // Before the window the host took a lot (not counted); inside it pod-a's node lost 20 of 1000 ticks, pod-b's
        // 80 of 1000 (its machine has two CPUs: 200 ticks a second).
        metrics.add(START.minusSeconds(5), "pod-a", page + hostTicks(0, 0));
        metrics.add(START, "pod-a", page + hostTicks(500, 1_000));
        metrics.add(START.plusSeconds(5), "pod-a", page + hostTicks(510, 1_500));
        metrics.add(START.plusSeconds(10), "pod-a", page + hostTicks(520, 2_000));
        metrics.add(START, "pod-b", page + hostTicks(7_000, 90_000));
        metrics.add(START.plusSeconds(10), "pod-b", page + hostTicks(7_080, 91_000));

        assertThat(metrics.hostSteal(START, START.plusSeconds(10))).hasValue(0.08);
        assertThat(metrics.perInstance(START, START.plusSeconds(10))).containsOnlyKeys("pod-a", "pod-b");

        TargetMetrics restored = new TargetMetrics();
        assertThat(restored.load(metrics.journal(null, null))).isEqualTo(6);
        assertThat(restored.hostSteal(START, START.plusSeconds(10))).hasValue(0.08);
        assertThat(restored.hostSteal(START, START.plusSeconds(5)))
                .as("only pod-a has two scrapes in the first half")
                .hasValue(0.02);
    }

    @Test
    void aTargetWithoutTheHostsTicksOrAnOlderJournalGivesNoSteal() throws IOException {
        TargetMetrics metrics = new TargetMetrics();
        metrics.add(START, "pod-a", scrape(100, 1_048_576.0, 10, 1, 0.01, 0));
        metrics.add(START.plusSeconds(10), "pod-a", scrape(100, 1_048_576.0, 12, 1, 0.01, 0));
        assertThat(metrics.hostSteal(START, START.plusSeconds(10))).isEmpty();

        // A journal line written before the machine's ticks were kept: 15 columns, the pool threads last.
        String journal = metrics.journal(null, null);
        String older = journal.lines()
                .map(line -> line.substring(0, line.lastIndexOf('\t', line.lastIndexOf('\t') - 1)))
                .collect(java.util.stream.Collectors.joining("\n"));
        TargetMetrics restored = new TargetMetrics();
        assertThat(restored.load(older)).isEqualTo(2);
        assertThat(restored.summary(START, START.plusSeconds(10)).getAvgCpuCores())
                .isEqualTo(0.2);
        assertThat(restored.hostSteal(START, START.plusSeconds(10))).isEmpty();
    }

    @Test
    void cpuFallsBackToUsageTimesCpusWithoutACpuTimeCounter() throws IOException {
        TargetMetrics metrics = new TargetMetrics();
        String withoutCpuTime =
                scrape(20, 1_048_576, 1, 1, 0.01, 0).replaceAll("(?m)^process_cpu_time_ns_total.*$", "");
        metrics.add(START, withoutCpuTime);
        metrics.add(START.plusSeconds(1), withoutCpuTime);

        assertThat(metrics.summary().getAvgCpuCores()).isEqualTo(0.5);
    }

    @Test
    void readsRealScrapesOfBothPoolKinds() throws IOException {
        Path resources = Path.of("src", "test", "resources", "prometheus");
        TargetSample jdbc = TargetSample.of(START, Files.readString(resources.resolve("mvc-jdbc-actuator.txt")));
        TargetSample r2dbc = TargetSample.of(START, Files.readString(resources.resolve("webflux-r2dbc-actuator.txt")));

        for (TargetSample sample : new TargetSample[] {jdbc, r2dbc}) {
            assertThat(sample.liveThreads()).isPositive();
            assertThat(sample.heapUsedMiB()).isPositive();
            assertThat(sample.cpuSecondsTotal()).isPositive();
            assertThat(sample.availableCpus()).isGreaterThanOrEqualTo(1);
            // Live pool gauges, never the configured limits (r2dbc_pool_max_pending_connections is 2^31-1).
            assertThat(sample.dbPoolActive()).isBetween(0.0, 100.0);
            assertThat(sample.dbPoolPending()).isBetween(0.0, 10_000.0);
        }
        assertThat(r2dbc.liveThreads()).isLessThan(jdbc.liveThreads());
    }
}
