package dev.stackbench.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The scrape log local mode writes beside a run's results, read back by the same class. */
class ScrapeLogTest {

    @Test
    void whatIsWrittenReadsBackAsTheSameScrapesInOrder() {
        List<TimedScrape> written = List.of(
                new TimedScrape(Instant.parse("2026-01-01T10:00:00.123456Z"), "a_total 1.0\n"),
                new TimedScrape(Instant.parse("2026-01-01T10:00:01.120001Z"), "# HELP a\na_total 2.0"));

        List<TimedScrape> read = ScrapeLog.parse(ScrapeLog.format(written));

        assertThat(read)
                .extracting(TimedScrape::at)
                .containsExactly(written.get(0).at(), written.get(1).at());
        assertThat(read)
                .extracting(entry -> PrometheusTextParser.parse(entry.prometheusText())
                        .sum("a_total")
                        .getAsDouble())
                .containsExactly(1.0, 2.0);
    }

    @Test
    void aFileThatIsNotAScrapeLogIsRefusedNamingTheLine() {
        assertThatThrownBy(() -> ScrapeLog.parse("a_total 1.0\n"))
                .hasMessageContaining("line 1")
                .hasMessageContaining("# scraped at");
        assertThatThrownBy(() -> ScrapeLog.parse("# scraped at yesterday\na_total 1.0\n"))
                .hasMessageContaining("line 1")
                .hasMessageContaining("ISO-8601");
    }
}
