package dev.stackbench.local;

import dev.stackbench.api.comparison.BenchmarkComparisonStatus;
import dev.stackbench.report.HtmlReport;
import dev.stackbench.report.ReportRun;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The HTML report of runs read back from their results directories: the page `./stackbench run` writes at its end, and
 * `stackbench report` renders again later, of one directory or of runs from several invocations side by side.
 */
public final class ResultsReport {

    private ResultsReport() {}

    /**
     * The page.
     *
     * @param reportDir where the page will be written, so its links to raw files are relative
     */
    public static String render(List<ResultsDirectories.Invocation> invocations, Instant generatedAt, Path reportDir) {
        boolean several = invocations.size() > 1;
        List<ReportRun> runs = new ArrayList<>();
        for (ResultsDirectories.Invocation invocation : invocations) {
            for (RunResults run : invocation.runs()) {
                ReportRun report = run.report();
                // Runs of different invocations often share a name: the directory tells them apart.
                runs.add(
                        several
                                ? report.withRow(report.row()
                                        .withName(invocation.name() + "/"
                                                + report.row().name()))
                                : report);
            }
        }
        // A comparison's statistics belong to its own directory: shown when that is the only one.
        BenchmarkComparisonStatus comparison =
                several ? null : invocations.getFirst().comparison();
        String statistics = several ? null : invocations.getFirst().statistics();
        String title = comparison != null
                ? "stackbench: comparison " + comparison.getVariantNames()
                : "stackbench: " + runs.stream().map(run -> run.row().name()).collect(Collectors.joining(" vs "));
        return HtmlReport.render(title, generatedAt, runs, comparison, statistics, reportDir);
    }
}
