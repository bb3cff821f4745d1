package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.zip.GZIPOutputStream;
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
    void aGzipBombIsRefusedWithoutInflatingItWhole() throws Exception {
        // 128 MiB of zeros compresses to about 128 KiB: a ConfigMap holds it, the operator's heap barely holds it
        // inflated.
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(compressed)) {
            byte[] zeros = new byte[1024 * 1024];
            for (int i = 0; i < 128; i++) {
                out.write(zeros);
            }
        }
        String bomb = Base64.getEncoder().encodeToString(compressed.toByteArray());

        assertThatThrownBy(() -> ScrapeJournal.gunzip(bomb))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("scrape journal is damaged")
                .hasMessageContaining("32 MiB");
    }

    @Test
    void aStoredValueLargerThanAConfigMapIsRefusedBeforeDecoding() {
        String huge = "A".repeat(ScrapeJournal.STORED_LIMIT + 4);

        assertThatThrownBy(() -> ScrapeJournal.gunzip(huge))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("more than a ConfigMap can");
    }
}
