package dev.stackbench.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.status.LimitedBy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HtmlReportTest {

    @Test
    void isOneSelfContainedPageWithRenderedPlotsTableAndWarnings() {
        System.setProperty("java.awt.headless", "true");
        List<RequestTimeline.Point> points = new ArrayList<>();
        List<GaugePoint> threads = new ArrayList<>();
        for (int second = 0; second < 10; second++) {
            points.add(new RequestTimeline.Point(second, 60 + second, 0, 0, 300, 305, 320));
            threads.add(new GaugePoint(second, 220 + second));
        }
        points.add(new RequestTimeline.Point(10, 0, 0, 0, Double.NaN, Double.NaN, Double.NaN));
        RunRow saturated = new RunRow(
                "mvc-jdbc <a>",
                "mvc-jdbc",
                "Succeeded",
                640,
                64.0,
                300.0,
                305.0,
                320.0,
                330.0,
                0.0,
                17,
                229,
                0.7,
                0.99,
                66.7,
                false,
                "k6 used all its CPU: this result measures k6, not the target",
                List.of("k6 dropped iterations"),
                List.of("burst: 40 of 40 requests answered, makespan 1270 ms <first to last>"));
        ReportRun run = new ReportRun(
                saturated.withLimitedBy(new LimitedBy("load-generator", List.of("k6 used all its CPU"))),
                points,
                threads,
                threads,
                List.of(),
                List.of("target on CPU 1"),
                Map.of("cpuModel", "Test CPU"),
                "apiVersion: stackbench.dev/v1alpha1\n",
                8.0);

        String html = HtmlReport.render("Comparison", Instant.parse("2026-11-22T12:00:00Z"), List.of(run));

        assertThat(html)
                .startsWith("<!DOCTYPE html>")
                .endsWith("</html>\n")
                .contains("data:image/png;base64,iVBORw0KGgo")
                .contains("mvc-jdbc &lt;a&gt;")
                .contains("k6 used all its CPU: this result measures k6, not the target")
                .contains("target on CPU 1")
                .contains("Test CPU")
                .contains("burst: 40 of 40 requests answered, makespan 1270 ms &lt;first to last&gt;")
                .contains("FAILED")
                .contains("<th>limited by</th>")
                .contains("<td title=\"load-generator: k6 used all its CPU\">load-generator</td>")
                .doesNotContain("<svg")
                .doesNotContain("src=\"http");
        assertThat(html.split("data:image/png").length - 1).isGreaterThanOrEqualTo(4);
    }

    @Test
    void sweepsGetTheirStepsTheCapacityAndChartsAgainstOfferedLoadPerUnit() {
        System.setProperty("java.awt.headless", "true");
        List<ReportRun> runs = List.of(StepChartsTest.sweep(), StepChartsTest.search(), StepChartsTest.users());

        String html = HtmlReport.render("Sweeps", Instant.parse("2026-11-22T12:00:00Z"), runs);

        assertThat(html)
                .contains("<h2>Steps</h2>")
                .contains("<h2>Against offered load</h2>")
                .contains("<th>capacity (iterations/s)</th>")
                // The kept step in bold; the step without a throughput says '-'.
                .contains("<tr class=\"kept\"><td class=\"n\">2</td><td class=\"n\">200/s</td><td>Passed</td>"
                        + "<td class=\"n\">199.8</td>")
                .contains("<tr><td class=\"n\">3</td><td class=\"n\">300/s</td><td>Failed</td>"
                        + "<td class=\"n\">-</td>")
                .contains("<td class=\"n\">266.7</td><td class=\"n\">94%</td>")
                .contains("<tr class=\"kept\"><td class=\"n\">3</td><td class=\"n\">340/s</td>")
                .contains("<td class=\"n\">2</td><td class=\"n\">50 VUs</td><td>Failed</td>")
                .contains("<p><b>capacity 340/s  in [340/s, 400/s)  limited by Target: p95 &lt;= 50ms held at 340/s"
                        + " and broke at 400/s</b></p>")
                .doesNotContain("<svg");
        String againstLoad =
                html.substring(html.indexOf("<h2>Against offered load</h2>"), html.indexOf("<h2>Over time"));
        // Throughput and p95 for iterations/s, then for VUs.
        assertThat(againstLoad.split("data:image/png;base64,iVBORw0KGgo").length - 1)
                .isEqualTo(4);
    }

    @Test
    void runsWithoutStepsHaveNoStepsSection() {
        ReportRun plain = new ReportRun(
                SummaryTableTest.row("plain", "mvc-jdbc", 10.0, null, 0, null),
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                Map.of(),
                "",
                10.0);

        String html = HtmlReport.render("Plain", Instant.parse("2026-11-22T12:00:00Z"), List.of(plain));

        assertThat(html)
                .doesNotContain("<h2>Steps</h2>")
                .doesNotContain("Against offered load")
                .doesNotContain("capacity");
    }
}
