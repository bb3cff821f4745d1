package dev.stackbench.cli;

import dev.stackbench.api.BenchmarkRunFileException;
import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.BenchmarkRunDefaults;
import dev.stackbench.api.run.Scenario;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.k6.K6ScriptGenerator;
import dev.stackbench.local.K6Process;
import dev.stackbench.validation.SpecValidator;
import dev.stackbench.validation.Violation;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code stackbench script FILE}: prints the k6 script a run would use, or the arguments local mode runs k6 with. */
@Command(
        name = "script",
        mixinStandardHelpOptions = true,
        description = {
            "Prints the k6 script stackbench generates for a BenchmarkRun (the same local mode and the operator run),"
                    + " without starting anything. k6 reads the target's URL from STACKBENCH_BASE_URL.",
            "The script is for the k6 hack/setup.sh builds, with stackbench's output (run with --out stackbench=FILE),"
                    + " which counts the latency buckets; --any-k6 prints one that counts them itself.",
            "With --k6-args, prints instead the arguments local mode passes to k6 after the binary, one per line."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:printed", "2:the file is not one valid BenchmarkRun or the command line is wrong"})
public final class ScriptCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "a file holding one BenchmarkRun")
    Path file;

    @Option(
            names = "--k6-args",
            description = "print local mode's k6 arguments instead of the script, with these placeholders: ADDRESS"
                    + " (k6's REST API, host:port), PER_SECOND_FILE (where the stackbench output of k6 built by"
                    + " hack/setup.sh writes per-second figures) and SCRIPT (the script file)")
    boolean k6Args;

    @Option(
            names = "--any-k6",
            description = "print the script for a k6 without stackbench's output (e.g. a k6 release): it counts each"
                    + " measured response in its latency bucket itself, which costs k6 more CPU per request")
    boolean anyK6;

    private final VariantCatalogue catalogue = VariantCatalogue.load();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (k6Args) {
            K6Process.k6RunArguments("ADDRESS", "SCRIPT", "PER_SECOND_FILE").forEach(out::println);
            out.flush();
            return ExitCodes.OK;
        }
        List<BenchmarkRun> runs;
        try {
            runs = BenchmarkRuns.read(file);
        } catch (BenchmarkRunFileException e) {
            err.println("invalid: " + e.getMessage());
            err.flush();
            return ExitCodes.INVALID_INPUT;
        }
        if (runs.size() != 1) {
            err.println("invalid: " + file + " holds " + runs.size() + " BenchmarkRuns: put the one to print in a"
                    + " file of its own");
            err.flush();
            return ExitCodes.INVALID_INPUT;
        }
        BenchmarkRun run = runs.get(0);
        List<Violation> violations = new SpecValidator(catalogue).validate(run);
        if (!violations.isEmpty()) {
            violations.forEach(violation -> err.println("invalid: " + file + ": " + violation));
            err.flush();
            return ExitCodes.INVALID_INPUT;
        }
        BenchmarkRun defaulted = BenchmarkRunDefaults.apply(run);
        String customImport = null;
        if (defaulted.getSpec().getWorkload().getScenario() == Scenario.CUSTOM) {
            // Local mode writes the module as custom.js beside the script.
            customImport = "./custom.js";
        }
        out.print(K6ScriptGenerator.forK6(!anyK6)
                .generate(defaulted.getSpec(), customImport)
                .text());
        out.flush();
        return ExitCodes.OK;
    }
}
