package dev.stackbench.report;

import java.util.List;
import java.util.Map;

/**
 * Where requests went wrong: responses by HTTP status, k6's checks by name with their failures, and latency and errors
 * per request name (from k6's own samples, requests-by-name.csv, else where k6's summary has them). Left out for runs whose results directory holds none of these.
 */
final class ErrorsSection {

    private ErrorsSection() {}

    static void append(StringBuilder html, List<ReportRun> runs) {
        if (runs.stream()
                .allMatch(run -> run.details().statusCodes().isEmpty()
                        && run.details().checks().isEmpty()
                        && run.details().requestNames().isEmpty())) {
            return;
        }
        html.append("<h2>Errors by status and check</h2>\n");
        for (ReportRun run : runs) {
            RunDetails details = run.details();
            if (details.statusCodes().isEmpty()
                    && details.checks().isEmpty()
                    && details.requestNames().isEmpty()) {
                continue;
            }
            html.append("<h3>").append(HtmlReport.escape(run.row().name())).append("</h3>\n");
            if (!details.statusCodes().isEmpty()) {
                html.append("<table><tr><th>HTTP status (measured window)</th><th>responses</th></tr>\n");
                for (Map.Entry<String, Long> code : details.statusCodes().entrySet()) {
                    html.append("<tr><td>")
                            .append(HtmlReport.escape("0".equals(code.getKey()) ? "no response" : code.getKey()))
                            .append("</td><td class=\"n\">")
                            .append(code.getValue())
                            .append("</td></tr>\n");
                }
                html.append("</table>\n");
            }
            if (!details.checks().isEmpty()) {
                html.append("<table><tr><th>check (whole run)</th><th>passed</th><th>failed</th></tr>\n");
                for (RunDetails.CheckCount check : details.checks()) {
                    html.append(check.fails() > 0 ? "<tr class=\"kept\"><td>" : "<tr><td>")
                            .append(HtmlReport.escape(check.name()))
                            .append("</td><td class=\"n\">")
                            .append(check.passes())
                            .append("</td><td class=\"n\">")
                            .append(check.fails())
                            .append("</td></tr>\n");
                }
                html.append("</table>\n");
            }
            if (!details.requestNames().isEmpty()) {
                html.append(
                        "<table><tr><th>request name (measured window)</th><th>requests</th><th>p50 ms</th><th>p95 ms</th>"
                                + "<th>p99 ms</th><th>max ms</th><th>errors</th></tr>\n");
                for (RunDetails.RequestNameFigures name : details.requestNames()) {
                    html.append("<tr><td>")
                            .append(HtmlReport.escape(name.name()))
                            .append("</td><td class=\"n\">")
                            .append(
                                    name.requests() == null
                                            ? "-"
                                            : name.requests().toString())
                            .append("</td><td class=\"n\">")
                            .append(SummaryTable.number(name.p50Ms(), 1))
                            .append("</td><td class=\"n\">")
                            .append(SummaryTable.number(name.p95Ms(), 1))
                            .append("</td><td class=\"n\">")
                            .append(SummaryTable.number(name.p99Ms(), 1))
                            .append("</td><td class=\"n\">")
                            .append(SummaryTable.number(name.maxMs(), 1))
                            .append("</td><td class=\"n\">")
                            .append(SummaryTable.percent(name.errorRate()))
                            .append("</td></tr>\n");
                }
                html.append("</table>\n");
            }
        }
    }
}
