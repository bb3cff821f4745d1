package dev.stackbench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SummaryTableTest {

    static RunRow row(String name, String variant, double rps, Double cap, long dropped, String alarm) {
        return new RunRow(
                name,
                variant,
                "Succeeded",
                6000,
                rps,
                300.4,
                310.25,
                350.0,
                400.0,
                0.0012,
                dropped,
                231,
                0.85,
                0.4,
                cap,
                true,
                alarm,
                List.of());
    }

    @Test
    void startsWithTheKubectlColumnsAndAlignsNumbersRight() {
        String table = SummaryTable.render(List.of(
                row("mvc-jdbc", "mvc-jdbc", 66.6, 66.7, 0, null),
                row("webflux-r2dbc", "webflux-r2dbc", 150.0, null, 0, null)));

        List<String> lines = table.lines().toList();
        assertThat(lines.get(0).split("\\s+"))
                .containsExactly(
                        "NAME",
                        "VARIANT",
                        "PHASE",
                        "RPS",
                        "P95(ms)",
                        "ERRORS",
                        "THREADS",
                        "P50(ms)",
                        "P99(ms)",
                        "REQUESTS",
                        "DROPPED",
                        "CPU",
                        "K6",
                        "CPU",
                        "LITTLE-CAP",
                        "RPS/CAP");
        assertThat(lines.get(1))
                .contains(" 66.6")
                .contains("0.12%")
                .contains("310.3")
                .contains("100%");
        assertThat(lines.get(2)).contains("150.0").endsWith("-");
        assertThat(lines.get(1).indexOf("66.6") + 4).isEqualTo(lines.get(2).indexOf("150.0") + 5);
    }

    @Test
    void aSaturatedLoadGeneratorIsSaidLoudly() {
        String table = SummaryTable.render(List.of(row(
                "fast",
                "webflux-r2dbc",
                900,
                null,
                1234,
                "k6 could not offer the requested rate: this row measures k6, not the target")));

        assertThat(table)
                .contains("1234 !!")
                .contains("!! fast: K6 COULD NOT OFFER THE REQUESTED RATE: THIS ROW MEASURES K6, NOT THE TARGET");
    }
}
