package dev.stackbench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.comparison.ComparisonPhase;
import dev.stackbench.api.status.BenchmarkRunStatus;
import dev.stackbench.api.status.Phase;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.comparison.ComparisonRuns;
import dev.stackbench.local.BenchmarkFiles;
import dev.stackbench.local.InvalidInputException;
import dev.stackbench.local.LocalComparison;
import dev.stackbench.local.LocalRunner;
import dev.stackbench.local.PlannedRun;
import dev.stackbench.local.ProcessSupervisor;
import dev.stackbench.local.ProgressPrinter;
import dev.stackbench.local.RepetitionPlan;
import dev.stackbench.local.RepositoryCatalogue;
import dev.stackbench.local.ResultsBeforeExit;
import dev.stackbench.local.ResultsLayout;
import dev.stackbench.local.RunLock;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code stackbench run FILE...}: runs BenchmarkRuns on this machine, one after the other, and compares them. */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        description = {
            "Runs each BenchmarkRun on this machine with no cluster: PostgreSQL, the delay service and the target "
                    + "variant as local processes on 127.0.0.1, the target pinned to its own CPUs, k6 as the load "
                    + "generator. Several files run one after the other, each with fresh processes, and are "
                    + "compared in one table and one HTML report.",
            "Every file is validated with the rules the CRD enforces before anything starts."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every run succeeded and its thresholds passed",
            "1:a run failed (see its message and the logs in the results directory)",
            "2:a file is not a valid BenchmarkRun or the command line is wrong; nothing was started",
            "3:every run completed but a threshold failed",
            "4:another local run is under way on this machine (its pid and results directory are named); nothing was"
                    + " started",
            "130/143:stopped by SIGINT / SIGTERM (./stackbench passes Ctrl-C on as SIGTERM): every process was stopped, the runs that finished are in"
                    + " the table, summary.txt and report.html, the one under way is marked Interrupted"
        })
public final class RunCommand implements Callable<Integer> {

    /** How the final result is printed. */
    enum Output {
        table,
        json,
        yaml
    }

    private static final ObjectMapper JSON =
            new ObjectMapper().findAndRegisterModules().enable(SerializationFeature.INDENT_OUTPUT);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(
            arity = "1..*",
            paramLabel = "FILE",
            description = "BenchmarkRun YAML files (several runs per file " + "are allowed, separated by ---)")
    List<Path> files;

    @Option(
            names = {"-o", "--output"},
            defaultValue = "table",
            paramLabel = "FORMAT",
            description = "table (default), or json / yaml: print the status block the operator would write "
                    + "(the table then goes to stderr)")
    Output output;

    @Option(
            names = "--results-dir",
            paramLabel = "DIR",
            description = "where to write results (default: results/<timestamp> under the repository root)")
    Path resultsDir;

    @Option(
            names = "--repetitions",
            paramLabel = "N",
            description = "run every file N times (at least 3) and compare them with statistics: the first file is"
                    + " the baseline; each run's median with its confidence interval and CV, and for every other file"
                    + " the Mann-Whitney U test, the Hodges-Lehmann shift with its interval and a verdict (better,"
                    + " worse, no significant difference). Fewer than 6 repetitions give no 95%% interval of a median")
    Integer repetitions;

    @Option(
            names = "--order",
            defaultValue = "interleaved",
            paramLabel = "ORDER",
            description = "with --repetitions: interleaved (default: rounds of one run per file, shuffled with the"
                    + " seed, so drift of the machine hits every file alike) or sequential")
    String order;

    @Option(
            names = "--seed",
            paramLabel = "SEED",
            description = "with --repetitions: seed of the interleaved order (default: the time; printed)")
    Long seed;

    @Option(
            names = "--confidence",
            defaultValue = "0.95",
            paramLabel = "LEVEL",
            description = "with --repetitions: confidence of the intervals and tests (default: ${DEFAULT-VALUE})")
    double confidence;

    @Option(
            names = "--include-flagged-runs",
            description = "with --repetitions: count runs whose load generator could not keep up (dropped"
                    + " iterations, saturated runner); by default they are left out, with a warning naming them")
    boolean includeFlaggedRuns;

    @CommandLine.Mixin
    LocalMachineOptions machine;

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter out = spec.commandLine().getOut();
        Path repoRoot = machine.repoRoot();
        VariantCatalogue catalogue = RepositoryCatalogue.load(repoRoot);
        List<PlannedRun> plainRuns = null;
        RepetitionPlan repetitionPlan = null;
        try {
            BenchmarkFiles benchmarkFiles = new BenchmarkFiles(catalogue);
            Optional<Path> comparisonFile = comparisonFile();
            if (comparisonFile.isPresent()) {
                repetitionPlan = RepetitionPlan.of(benchmarkFiles.readComparison(comparisonFile.get()));
                ComparisonRuns.warnings(repetitionPlan.spec()).forEach(warning -> err.println("warning: " + warning));
            } else if (repetitions != null) {
                repetitionPlan = RepetitionPlan.of(
                        benchmarkFiles.readRuns(files),
                        new RepetitionPlan.Options(repetitions, order, seed, confidence, includeFlaggedRuns));
            } else {
                plainRuns = benchmarkFiles.readRuns(files);
            }
        } catch (InvalidInputException e) {
            e.problems().forEach(problem -> err.println("invalid: " + problem));
            err.println("nothing was started: fix " + e.whatToFix() + " and run again");
            err.flush();
            return ExitCodes.INVALID_INPUT;
        }
        if (repetitionPlan != null) {
            err.println(repetitionPlan.announcement());
            err.flush();
        }
        LocalRunner.Settings settings = machine.settingsOrExplain(repoRoot, err);
        if (settings == null) {
            return ExitCodes.INVALID_INPUT;
        }
        RunLock lock = LocalMachineOptions.lockOrExplain(err);
        if (lock == null) {
            return ExitCodes.ANOTHER_RUN;
        }
        ProgressPrinter progress = ProgressPrinter.forStderr();
        try (lock;
                ResultsBeforeExit resultsBeforeExit = new ResultsBeforeExit(progress::message)) {
            ResultsLayout layout;
            if (resultsDir != null) {
                layout = new ResultsLayout(resultsDir.toAbsolutePath());
                Files.createDirectories(layout.root());
            } else {
                layout = ResultsLayout.createUnderDefaultDirectory(repoRoot, ZonedDateTime.now());
            }
            lock.describe(layout.root());
            return runAll(settings, catalogue, plainRuns, repetitionPlan, layout, progress, out, err);
        }
    }

    /** Runs every planned run under the lock, then prints and writes what they gave; returns the exit code. */
    private int runAll(
            LocalRunner.Settings settings,
            VariantCatalogue catalogue,
            List<PlannedRun> plainRuns,
            RepetitionPlan repetitionPlan,
            ResultsLayout layout,
            ProgressPrinter progress,
            PrintWriter out,
            PrintWriter err)
            throws IOException {
        LocalComparison comparison =
                new LocalComparison(new LocalRunner(settings, progress, catalogue), layout, progress);
        LocalComparison.Outcome outcome =
                repetitionPlan != null ? comparison.repeat(repetitionPlan) : comparison.runEach(plainRuns);
        print(outcome, out, err);
        err.println("results: " + layout.root() + "  (report: " + layout.report() + ")");
        if (ProcessSupervisor.interrupted()) {
            err.println("stackbench: stopped by a signal: the runs that finished are in the table and the results"
                    + " directory, the one under way is marked Interrupted, later ones did not start; exit code 143"
                    + " after SIGTERM, 130 after SIGINT");
        }
        err.flush();
        int exit = exitCode(outcome.statuses());
        if (outcome.comparison() != null && outcome.comparison().getPhase() == ComparisonPhase.Failed) {
            err.println(
                    "stackbench: the comparison failed: " + outcome.comparison().getMessage());
            err.flush();
            return ExitCodes.RUN_FAILED;
        }
        return exit;
    }

    /** The table, with the statistics of repetitions, then for json or yaml the status the operator would write. */
    private void print(LocalComparison.Outcome outcome, PrintWriter out, PrintWriter err) throws IOException {
        PrintWriter tableOut = output == Output.table ? out : err;
        tableOut.println();
        tableOut.print(outcome.table());
        if (outcome.statistics() != null) {
            tableOut.println();
            tableOut.print(outcome.statistics());
        }
        tableOut.flush();
        if (output != Output.table) {
            List<BenchmarkRunStatus> statuses = outcome.statuses();
            Object document = outcome.comparison() != null
                    ? outcome.comparison()
                    : statuses.size() == 1 ? statuses.get(0) : statuses;
            out.print(
                    output == Output.json ? JSON.writeValueAsString(document) + "\n" : BenchmarkRuns.toYaml(document));
            out.flush();
        }
    }

    /**
     * The BenchmarkComparison file among the arguments, if one is given.
     *
     * @throws InvalidInputException when the arguments mix a comparison with other files or with the options that
     *     build a comparison from plain runs
     */
    private Optional<Path> comparisonFile() throws InvalidInputException {
        List<Path> comparisons = BenchmarkFiles.comparisons(files);
        if (comparisons.isEmpty()) {
            return Optional.empty();
        }
        List<String> problems = new ArrayList<>();
        if (files.size() > 1) {
            problems.add(comparisons.getFirst() + " is a BenchmarkComparison: run it alone (its spec.variants says"
                    + " what is compared), or compare plain BenchmarkRun files with --repetitions");
        }
        if (repetitions != null || seed != null || includeFlaggedRuns || !"interleaved".equals(order)) {
            problems.add("--repetitions, --order, --seed and --include-flagged-runs build a comparison from plain"
                    + " runs; a BenchmarkComparison sets them in its spec (repetitions, order, seed,"
                    + " includeFlaggedRuns)");
        }
        if (!problems.isEmpty()) {
            throw new InvalidInputException(problems, "the command line");
        }
        return Optional.of(comparisons.getFirst());
    }

    private static int exitCode(List<BenchmarkRunStatus> statuses) {
        if (statuses.stream().anyMatch(status -> status.getPhase() != Phase.Succeeded)) {
            return ExitCodes.RUN_FAILED;
        }
        boolean thresholdFailed = statuses.stream()
                .anyMatch(status -> status.getSummary() != null
                        && Boolean.FALSE.equals(status.getSummary().getThresholdsPassed()));
        return thresholdFailed ? ExitCodes.THRESHOLDS_FAILED : ExitCodes.OK;
    }
}
