package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
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
}
