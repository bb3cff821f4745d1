package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stackbench.api.PodResources;
import dev.stackbench.api.TargetSummary;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScrapeJournalTest {

    @Test
    void textSurvivesCompressionAndADamagedJournalSaysSo() {
        String text = "1763890000000\tpod-a\t120.0\n".repeat(500);

        String stored = ScrapeJournal.gzip(text);

        assertThat(ScrapeJournal.gunzip(stored)).isEqualTo(text);
        assertThat(stored.length()).isLessThan(text.length() / 10);
        assertThat(ScrapeJournal.gunzip(null)).isEmpty();
        assertThatThrownBy(() -> ScrapeJournal.gunzip("bm90IGd6aXA="))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("scrape journal is damaged");
    }

    @Test
    void eachTargetPodGetsItsOwnJvmFiguresBesideItsCpu() {
        List<PodResources> cpu = List.of(
                new PodResources().withRole("target").withPod("t-1").withAvgCpuCores(0.4),
                new PodResources().withRole("database").withPod("db-1").withAvgCpuCores(0.1));
        Map<String, TargetSummary> jvm = new java.util.LinkedHashMap<>();
        jvm.put("t-1", new TargetSummary().withPeakThreads(30));
        jvm.put("t-2", new TargetSummary().withPeakThreads(28)); // no kubelet reading for this one

        List<PodResources> pods = BenchmarkRunReconciler.withTargetFigures(cpu, jvm);

        assertThat(pods).extracting(PodResources::getPod).containsExactly("t-1", "t-2", "db-1");
        assertThat(pods.get(0).getPeakThreads()).isEqualTo(30);
        assertThat(pods.get(0).getAvgCpuCores()).isEqualTo(0.4);
        assertThat(pods.get(1).getPeakThreads()).isEqualTo(28);
        assertThat(pods.get(1).getRole()).isEqualTo("target");
        assertThat(pods.get(2).getPeakThreads()).isNull();
    }
}
