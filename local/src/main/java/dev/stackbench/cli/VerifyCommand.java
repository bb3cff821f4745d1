package dev.stackbench.cli;

import dev.stackbench.api.status.VerificationResult;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.local.BenchmarkFiles;
import dev.stackbench.local.InvalidInputException;
import dev.stackbench.local.LocalRunner;
import dev.stackbench.local.PlannedRun;
import dev.stackbench.local.ProcessSupervisor;
import dev.stackbench.local.ProgressPrinter;
import dev.stackbench.local.RepositoryCatalogue;
import dev.stackbench.local.ResultsBeforeExit;
import dev.stackbench.local.ResultsLayout;
import dev.stackbench.local.RunLock;
import dev.stackbench.local.VerificationTable;
import dev.stackbench.verification.VerificationLoad;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code stackbench verify FILE...}: checks, without measuring, that every variant does the work its scenario asks
 * for per request, as {@code stackbench run} does before each load.
 */
@Command(
        name = "verify",
        mixinStandardHelpOptions = true,
        description = {
            "Starts each BenchmarkRun's stack as 'stackbench run' does (PostgreSQL, the delay service and the target"
                    + " on this machine), sends its scenario's requests from " + VerificationLoad.CALLERS
                    + " callers (a few uncounted iterations, then " + VerificationLoad.COUNTED_ITERATIONS
                    + " shared by them) with the load's own response checks, and counts the work on the real parts:"
                    + " SQL statements and rows per request from PostgreSQL's pg_stat_statements, upstream calls"
                    + " per request from the delay service. Compares them with what the scenario asks for and prints"
                    + " a table; each run's counts go to verification.json in the results directory.",
            "A custom scenario's counts are recorded, not judged: only its module knows what it sends."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every variant did its scenario's work (or was recorded without a verdict)",
            "1:a variant did different work, failed the response checks or could not be started (see the message)",
            "2:a file is not a valid BenchmarkRun or the command line is wrong; nothing was started",
            "4:another local run is under way on this machine; nothing was started"
        })
public final class VerifyCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "BenchmarkRun YAML files, one variant each")
    List<Path> files;

    @Option(
            names = "--results-dir",
            paramLabel = "DIR",
            description = "where to write the counts (default: results/<timestamp> under the repository root)")
    Path resultsDir;

    @CommandLine.Mixin
    LocalMachineOptions machine;

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter out = spec.commandLine().getOut();
        Path repoRoot = machine.repoRoot();
        VariantCatalogue catalogue = RepositoryCatalogue.load(repoRoot);
        List<PlannedRun> runs;
        try {
            runs = new BenchmarkFiles(catalogue).readRuns(files);
        } catch (InvalidInputException e) {
            e.problems().forEach(problem -> err.println("invalid: " + problem));
            err.println("nothing was started: fix " + e.whatToFix() + " and run again");
            err.flush();
            return ExitCodes.INVALID_INPUT;
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
            ResultsLayout layout = resultsDir != null
                    ? new ResultsLayout(Files.createDirectories(resultsDir.toAbsolutePath()))
                    : ResultsLayout.createUnderDefaultDirectory(repoRoot, ZonedDateTime.now());
            lock.describe(layout.root());
            return verifyAll(new LocalRunner(settings, progress, catalogue), runs, layout, out, err);
        }
    }

    private int verifyAll(
            LocalRunner runner, List<PlannedRun> runs, ResultsLayout layout, PrintWriter out, PrintWriter err) {
        List<VerificationTable.Row> rows = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < runs.size() && !ProcessSupervisor.interrupted(); i++) {
            PlannedRun planned = runs.get(i);
            String name = planned.run().getMetadata().getName();
            ResultsLayout.RunFiles runFiles = new ResultsLayout.RunFiles(layout.run(i + 1, name));
            try {
                VerificationResult result = runner.verify(planned.run(), runFiles, planned.customModule());
                rows.add(new VerificationTable.Row(name, result));
                if (VerificationResult.DIFFERS.equals(result.getVerdict())) {
                    failures.add(name + " did different work: " + result.getMessage());
                }
            } catch (IOException | RuntimeException e) {
                failures.add(name + " could not be verified: " + e.getMessage());
            }
        }
        out.println();
        out.println(VerificationTable.render(rows));
        out.flush();
        err.println("counts: " + layout.root() + " (verification.json per run)");
        failures.forEach(failure -> err.println("stackbench: " + failure));
        err.flush();
        return failures.isEmpty() && !ProcessSupervisor.interrupted() ? ExitCodes.OK : ExitCodes.RUN_FAILED;
    }
}
