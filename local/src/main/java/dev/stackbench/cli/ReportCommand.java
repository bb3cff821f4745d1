package dev.stackbench.cli;

import dev.stackbench.local.ClusterResults;
import dev.stackbench.local.ResultsDirectories;
import dev.stackbench.local.ResultsReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code stackbench report DIR...}: the HTML report of results written earlier, of one invocation or several. */
@Command(
        name = "report",
        mixinStandardHelpOptions = true,
        description = {
            "Renders the single-file HTML report again from results directories alone: one directory gives the"
                    + " report ./stackbench run wrote for it, several put their runs side by side (each named"
                    + " <directory>/<run>). Charts are interactive (uPlot, inline: the file opens offline).",
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the report was written",
            "2:a directory is not a results directory (the message says what is missing)"
        })
public final class ReportCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(
            arity = "1..*",
            paramLabel = "DIR|KIND/NAME",
            description = "results directories ./stackbench run wrote: an invocation's (results/<time>) or one run's"
                    + " (results/<time>/01-NAME); or a cluster's benchmarkrun/NAME or benchmarkcomparison/NAME"
                    + " (br/, bc/), fetched with kubectl into results/cluster/NAMESPACE/")
    List<String> sources;

    @CommandLine.Mixin
    ClusterOption cluster = new ClusterOption();

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FILE",
            description = "where to write the report (default: DIR/report.html for one directory, replacing the one"
                    + " the run wrote; stackbench-report.html in the current directory for several)")
    Path output;

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        List<ResultsDirectories.Invocation> invocations;
        try {
            invocations = ResultsDirectories.read(ResultsArguments.directories(
                    sources,
                    cluster.namespace,
                    ClusterResults.kubectl(),
                    spec.commandLine().getErr()));
        } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
            err.println("stackbench report: " + e.getMessage());
            err.flush();
            return ExitCodes.INVALID_INPUT;
        }
        Path file = output != null
                ? output
                : invocations.size() == 1
                        ? invocations.getFirst().root().resolve("report.html")
                        : Path.of("stackbench-report.html");
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Files.writeString(file, ResultsReport.render(invocations, Instant.now(), dir));
        int runs = invocations.stream()
                .mapToInt(invocation -> invocation.runs().size())
                .sum();
        err.println("report of " + runs + " run(s) from " + invocations.size() + " director"
                + (invocations.size() == 1 ? "y" : "ies") + ": " + file);
        err.flush();
        return ExitCodes.OK;
    }
}
