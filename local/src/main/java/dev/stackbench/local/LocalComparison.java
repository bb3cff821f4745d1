package dev.stackbench.local;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.stackbench.api.comparison.BenchmarkComparisonStatus;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.BenchmarkRunStatus;
import dev.stackbench.comparison.ComparisonResults;
import dev.stackbench.comparison.ComparisonTable;
import dev.stackbench.report.HtmlReport;
import dev.stackbench.report.ReportRun;
import dev.stackbench.report.RunRow;
import dev.stackbench.report.SummaryTable;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Runs on this machine one after the other, each with fresh processes, compared in one table and one HTML report
 * under the results directory. The repetitions of a comparison share one PostgreSQL and delay service when they can,
 * and are concluded with statistics.
 */
public final class LocalComparison {

    /**
     * What the runs gave, once every file is written.
     *
     * @param table the summary table, one row per run
     * @param statuses every run's status, in the order they ran
     * @param comparison for repetitions, the concluded comparison's status; null for plain runs
     * @param statistics for repetitions, the table of each variant's statistics; null for plain runs
     */
    public record Outcome(
            String table, List<BenchmarkRunStatus> statuses, BenchmarkComparisonStatus comparison, String statistics) {}

    private static final ObjectMapper JSON =
            new ObjectMapper().findAndRegisterModules().enable(SerializationFeature.INDENT_OUTPUT);

    private final LocalRunner runner;
    private final ResultsLayout layout;
    private final ProgressPrinter progress;

    /** @param layout an existing results directory */
    public LocalComparison(LocalRunner runner, ResultsLayout layout, ProgressPrinter progress) {
        this.runner = runner;
        this.layout = layout;
        this.progress = progress;
    }

    /** Runs each run once. */
    public Outcome runEach(List<PlannedRun> runs) throws IOException {
        return run(runs, null);
    }

    /** Runs every repetition of a comparison in its order and concludes it. */
    public Outcome repeat(RepetitionPlan plan) throws IOException {
        return run(plan.runs(), plan);
    }

    private Outcome run(List<PlannedRun> planned, RepetitionPlan repetitions) throws IOException {
        List<LocalRunner.Result> results = new ArrayList<>();
        Instant started = Instant.now();
        // Ctrl-C: each run's supervisor stops its processes from its own hook; this one tells the user.
        Thread interrupted = new Thread(
                () -> progress.message("stackbench: interrupted; stopping every process "
                        + "it started (partial results in " + layout.root() + ")"),
                "stackbench-interrupted");
        Runtime.getRuntime().addShutdownHook(interrupted);
        LocalBackend backend = null;
        try {
            if (repetitions != null && repetitions.sharesBackend()) {
                progress.message("== starting the PostgreSQL and delay service the repetitions share");
                backend = runner.startBackend(
                        planned.getFirst().run(), layout.root().resolve("shared"));
                repetitions = repetitions.sharing(backend.describe());
                progress.message("shared between repetitions: " + repetitions.shared());
            }
            for (int i = 0; i < planned.size() && !ProcessSupervisor.interrupted(); i++) {
                BenchmarkRun run = planned.get(i).run();
                progress.message("== run " + (i + 1) + "/" + planned.size() + ": "
                        + run.getMetadata().getName() + " ("
                        + run.getSpec().getTarget().getVariant() + ")");
                results.add(runner.run(
                        run,
                        new ResultsLayout.RunFiles(
                                layout.run(i + 1, run.getMetadata().getName())),
                        planned.get(i).customModule(),
                        backend));
                if (repetitions != null) {
                    // Written after every run, so an interrupted comparison keeps what it measured.
                    JSON.writeValue(layout.comparisonStatus().toFile(), repetitions.status(ended(results), started));
                }
            }
        } finally {
            if (backend != null) {
                backend.close();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(interrupted);
            } catch (IllegalStateException shuttingDown) {
                // The hook runs; nothing else to do.
            }
        }
        return writeResults(planned, results, repetitions, started, Instant.now());
    }

    private Outcome writeResults(
            List<PlannedRun> planned,
            List<LocalRunner.Result> results,
            RepetitionPlan repetitions,
            Instant started,
            Instant finished)
            throws IOException {
        List<ReportRun> reportRuns =
                results.stream().map(LocalRunner.Result::report).toList();
        List<RunRow> rows = reportRuns.stream().map(ReportRun::row).toList();
        String table = SummaryTable.render(rows);
        Files.writeString(layout.comparisonTable(), table);
        List<BenchmarkRunStatus> statuses =
                results.stream().map(result -> result.run().getStatus()).toList();
        JSON.writeValue(layout.comparisonStatuses().toFile(), statuses);
        String title = "stackbench: "
                + planned.stream().map(run -> run.run().getMetadata().getName()).collect(Collectors.joining(" vs "));
        BenchmarkComparisonStatus comparison = null;
        String statistics = null;
        if (repetitions != null) {
            comparison = repetitions.status(ended(results), started);
            ComparisonResults.conclude(repetitions.spec(), comparison);
            comparison.setFinishedAt(finished.toString());
            title = "stackbench: comparison " + repetitions.name() + " (" + comparison.getVariantNames() + ")";
            JSON.writeValue(layout.comparisonStatus().toFile(), comparison);
            statistics = ComparisonTable.render(
                    comparison,
                    ComparisonResults.metrics(repetitions.spec()),
                    repetitions.spec().getConfidence());
            Files.writeString(layout.repetitionStatistics(), statistics);
        }
        Files.writeString(layout.report(), report(planned, reportRuns, comparison, statistics, title, finished));
        return new Outcome(table, statuses, comparison, statistics);
    }

    private static List<BenchmarkRun> ended(List<LocalRunner.Result> results) {
        return results.stream().map(LocalRunner.Result::run).toList();
    }

    /**
     * The page, rendered from the files the runs wrote, as `stackbench report` renders it later: what it shows now is
     * what can be shown again. Runs whose files cannot be read (an interrupted run) fall back to what is in memory.
     */
    private String report(
            List<PlannedRun> planned,
            List<ReportRun> inMemory,
            BenchmarkComparisonStatus comparison,
            String statistics,
            String title,
            Instant finished) {
        List<ReportRun> runs = new ArrayList<>();
        for (int i = 0; i < inMemory.size(); i++) {
            java.nio.file.Path dir =
                    layout.run(i + 1, planned.get(i).run().getMetadata().getName());
            try {
                runs.add(RunResults.read(dir).report());
            } catch (RuntimeException unreadable) {
                runs.add(inMemory.get(i));
            }
        }
        return HtmlReport.render(title, finished, runs, comparison, statistics, layout.root());
    }
}
