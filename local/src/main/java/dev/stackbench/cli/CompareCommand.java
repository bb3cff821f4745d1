package dev.stackbench.cli;

import dev.stackbench.api.comparison.ComparisonPhase;
import dev.stackbench.local.ClusterResults;
import dev.stackbench.local.ResultsDirectories;
import dev.stackbench.local.SeparateRunsComparison;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code stackbench compare DIR...}: the comparison statistics of runs made separately. */
@Command(
        name = "compare",
        mixinStandardHelpOptions = true,
        description = {
            "Compares runs made separately, read from their results directories: runs of one variant with the same"
                    + " parameters are repetitions of one side, the first side is the baseline, and the table is the"
                    + " one ./stackbench run --repetitions prints (medians, intervals, shifts, verdicts).",
            "Runs made apart may not have had the same conditions: every difference in what made them (stackbench"
                    + " commit, machine, CPU, kernel, JDK, k6, jar and image digests) is printed."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the runs were compared",
            "1:too few valid runs of a side to compare (at least 3 each)",
            "2:a directory is not a results directory, or the runs are all of one side"
        })
public final class CompareCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(
            arity = "1..*",
            paramLabel = "DIR|KIND/NAME",
            description = "results directories ./stackbench run wrote: invocations' (results/<time>) or runs'; or a"
                    + " cluster's benchmarkrun/NAME or benchmarkcomparison/NAME (br/, bc/), fetched with kubectl")
    List<String> sources;

    @CommandLine.Mixin
    ClusterOption cluster = new ClusterOption();

    @Option(
            names = "--confidence",
            defaultValue = "0.95",
            paramLabel = "LEVEL",
            description = "confidence of the intervals and tests (default: ${DEFAULT-VALUE})")
    double confidence;

    @Option(
            names = "--baseline",
            paramLabel = "VARIANT",
            description = "the variant the others are compared with (default: the variant of the first run)")
    String baseline;

    @Option(
            names = "--include-flagged-runs",
            description = "count runs whose load generator could not keep up (dropped iterations, saturated"
                    + " runner); by default they are left out, with a warning naming them")
    boolean includeFlaggedRuns;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!(confidence > 0.5 && confidence < 1)) {
            err.println("stackbench compare: --confidence " + confidence + ": give a level between 0.5 and 1, e.g."
                    + " 0.95");
            err.flush();
            return ExitCodes.INVALID_INPUT;
        }
        SeparateRunsComparison comparison;
        try {
            comparison = SeparateRunsComparison.of(
                    ResultsDirectories.read(ResultsArguments.directories(
                            sources,
                            cluster.namespace,
                            ClusterResults.kubectl(),
                            spec.commandLine().getErr())),
                    new SeparateRunsComparison.Options(confidence, baseline, includeFlaggedRuns));
        } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
            err.println("stackbench compare: " + e.getMessage());
            err.flush();
            return ExitCodes.INVALID_INPUT;
        }
        for (Map.Entry<String, List<String>> group : comparison.groups().entrySet()) {
            out.println(group.getKey() + ": " + String.join(", ", group.getValue()));
        }
        if (comparison.groups().size() < 2) {
            out.flush();
            err.println("stackbench compare: every run is of one variant with the same parameters, so there is"
                    + " nothing to compare it with; add the results of another variant (or of other parameters)");
            err.flush();
            return ExitCodes.INVALID_INPUT;
        }
        out.println();
        out.print(comparison.table());
        if (!comparison.differences().isEmpty()) {
            out.println();
            out.println("warning: these runs were not made in the same conditions, so the comparison may not be fair:");
            comparison.differences().forEach(line -> out.println("  " + line));
        }
        out.flush();
        if (comparison.status().getPhase() == ComparisonPhase.Failed) {
            err.println("stackbench compare: " + comparison.status().getMessage());
            err.flush();
            return ExitCodes.RUN_FAILED;
        }
        return ExitCodes.OK;
    }
}
