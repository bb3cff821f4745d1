package dev.stackbench.report;

import dev.stackbench.api.status.StepResult;
import java.util.List;
import java.util.Locale;

/** The report's section on sweeps and capacity searches: their steps, what a search found, the curves against load. */
final class StepsSection {

    private StepsSection() {}

    /**
     * Each sweep's or capacity search's steps as a table, the kept step (whose figures the summary shows) in bold,
     * what the capacity search found, and the charts against offered load: one pair per unit of load, so that
     * iterations/s and VUs never share an axis.
     */
    static void append(StringBuilder html, List<ReportRun> runs, InteractiveCharts charts) {
        if (runs.stream()
                .allMatch(run -> run.row().steps().isEmpty() && run.row().capacity() == null)) {
            return;
        }
        html.append("<h2>Steps</h2>\n<p>One row per load level, in the order the steps ran; the bold row is the step"
                + " the summary shows.</p>\n");
        for (ReportRun run : runs) {
            RunRow row = run.row();
            if (row.steps().isEmpty() && row.capacity() == null) {
                continue;
            }
            html.append("<h3>").append(HtmlReport.escape(row.name())).append("</h3>\n");
            if (!row.steps().isEmpty()) {
                appendStepTable(html, row);
            }
            if (row.capacity() != null) {
                html.append("<p><b>")
                        .append(HtmlReport.escape(SummaryTable.capacityLine(row.capacity())))
                        .append("</b></p>\n");
            }
        }
        List<String> units = Charts.stepUnits(runs);
        if (units.isEmpty()) {
            return;
        }
        html.append(
                "<h2>Against offered load</h2>\n<p>One line per run; each step a marker, filled when it"
                        + " passed, hollow when it failed (circle), broke (square) or k6 could not deliver its load (triangle)."
                        + " A dashed line is the Little's-law cap of the run in the same colour, where its steps have one.</p>\n");
        for (String unit : units) {
            charts.add(html, InteractiveCharts.againstLoad(runs, unit, true));
            charts.add(html, InteractiveCharts.againstLoad(runs, unit, false));
            HtmlReport.image(html, Charts.toPng(Charts.throughputAgainstLoad(runs, unit)));
            HtmlReport.image(html, Charts.toPng(Charts.latencyAgainstLoad(runs, unit)));
        }
    }

    private static void appendStepTable(StringBuilder html, RunRow row) {
        html.append("<table><tr>");
        for (String header : List.of(
                "step",
                "offered load",
                "outcome",
                "RPS",
                "p50 ms",
                "p95 ms",
                "p99 ms",
                "p95 from intended start ms",
                "errors",
                "requests",
                "dropped",
                "thresholds",
                "peak threads",
                "target CPU",
                "k6 CPU",
                "Little's-law cap",
                "RPS / cap",
                "why")) {
            html.append("<th>").append(HtmlReport.escape(header)).append("</th>");
        }
        html.append("</tr>\n");
        for (StepResult step : row.steps()) {
            boolean kept = row.keptStep() != null && row.keptStep().equals(step.getStep());
            html.append(kept ? "<tr class=\"kept\">" : "<tr>");
            List<String> numbers =
                    List.of(step.getStep() == null ? "-" : step.getStep().toString(), SummaryTable.level(step));
            for (String number : numbers) {
                html.append("<td class=\"n\">")
                        .append(HtmlReport.escape(number))
                        .append("</td>");
            }
            html.append("<td>")
                    .append(HtmlReport.escape(
                            step.getOutcome() == null ? "-" : step.getOutcome().name()))
                    .append("</td>");
            for (String number : List.of(
                    SummaryTable.number(step.getRps(), 1),
                    SummaryTable.number(step.getP50Ms(), 1),
                    SummaryTable.number(step.getP95Ms(), 1),
                    SummaryTable.number(step.getP99Ms(), 1),
                    (Boolean.TRUE.equals(step.getIntendedLowerBound()) ? ">=" : "")
                            + SummaryTable.number(step.getIntendedP95Ms(), 1),
                    SummaryTable.percent(step.getErrorRate()),
                    step.getRequests() == null ? "-" : step.getRequests().toString(),
                    step.getDroppedIterations() == null
                            ? "-"
                            : step.getDroppedIterations().toString(),
                    step.getThresholdsPassed() == null ? "-" : step.getThresholdsPassed() ? "passed" : "FAILED",
                    step.getPeakThreads() == null ? "-" : step.getPeakThreads().toString(),
                    SummaryTable.number(step.getTargetCpuCores(), 2),
                    SummaryTable.number(step.getGeneratorCpuCores(), 2),
                    SummaryTable.number(step.getLittleLawRps(), 1),
                    step.getLittleLawRps() == null || step.getRps() == null || step.getLittleLawRps() <= 0
                            ? "-"
                            : String.format(Locale.ROOT, "%.0f%%", 100 * step.getRps() / step.getLittleLawRps()))) {
                html.append("<td class=\"n\">")
                        .append(HtmlReport.escape(number))
                        .append("</td>");
            }
            html.append("<td>").append(HtmlReport.escape(step.getReason())).append("</td></tr>\n");
        }
        html.append("</table>\n");
    }
}
