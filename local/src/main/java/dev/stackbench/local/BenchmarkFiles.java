package dev.stackbench.local;

import dev.stackbench.api.BenchmarkRunFileException;
import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.comparison.BenchmarkComparison;
import dev.stackbench.api.comparison.BenchmarkComparisons;
import dev.stackbench.api.comparison.ComparisonDefaults;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.BenchmarkRunDefaults;
import dev.stackbench.api.run.Scenario;
import dev.stackbench.api.run.ScriptSpec;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.comparison.ComparisonRuns;
import dev.stackbench.validation.SpecValidator;
import dev.stackbench.validation.Violation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The BenchmarkRun and BenchmarkComparison files given to local mode, read and checked with the rules the CRD
 * enforces before anything starts, so a mistake costs no minutes of starting processes.
 */
public final class BenchmarkFiles {

    private static final String FIX_THE_FIELDS = "the field(s) above";

    private final VariantCatalogue catalogue;

    public BenchmarkFiles(VariantCatalogue catalogue) {
        this.catalogue = catalogue;
    }

    /** The files that hold a BenchmarkComparison; a file that cannot be read is reported when its runs are read. */
    public static List<Path> comparisons(List<Path> files) {
        List<Path> comparisons = new ArrayList<>();
        for (Path file : files) {
            try {
                if (BenchmarkComparison.KIND.equals(BenchmarkRuns.kind(file))) {
                    comparisons.add(file);
                }
            } catch (BenchmarkRunFileException e) {
                // Not a comparison as far as anyone can tell; reading it as runs says what is wrong with it.
            }
        }
        return comparisons;
    }

    /** Every run of every file (several per file, separated by ---), in order, each valid and with its defaults. */
    public List<PlannedRun> readRuns(List<Path> files) throws InvalidInputException {
        List<PlannedRun> runs = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (Path file : files) {
            List<BenchmarkRun> inFile;
            try {
                inFile = BenchmarkRuns.read(file);
            } catch (BenchmarkRunFileException e) {
                problems.add(e.getMessage());
                continue;
            }
            for (BenchmarkRun run : inFile) {
                String name = run.getMetadata() == null || run.getMetadata().getName() == null
                        ? "(no name)"
                        : run.getMetadata().getName();
                List<Violation> violations = new ArrayList<>(new SpecValidator(catalogue).validate(run));
                if (run.getSpec() != null
                        && run.getSpec().getChecks() != null
                        && !run.getSpec().getChecks().isEmpty()) {
                    violations.add(new Violation(
                            "spec.checks",
                            "PromQL checks are evaluated by the operator against a cluster's Prometheus, and local"
                                    + " mode has none: remove spec.checks to run it here, or run it on a cluster"));
                }
                violations.forEach(violation -> problems.add(file + ": BenchmarkRun " + name + ": " + violation));
                if (!violations.isEmpty()) {
                    continue;
                }
                BenchmarkRun defaulted = BenchmarkRunDefaults.apply(run);
                String module = null;
                if (defaulted.getSpec().getWorkload().getScenario() == Scenario.CUSTOM) {
                    try {
                        module = customModule(
                                file, defaulted.getSpec().getWorkload().getScript());
                    } catch (IllegalArgumentException e) {
                        problems.add(file + ": BenchmarkRun " + name + ": " + e.getMessage());
                        continue;
                    }
                }
                runs.add(new PlannedRun(defaulted, module));
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidInputException(problems, FIX_THE_FIELDS);
        }
        return runs;
    }

    /** The one BenchmarkComparison of a file, valid and with its defaults. */
    public BenchmarkComparison readComparison(Path file) throws InvalidInputException {
        List<String> problems = new ArrayList<>();
        BenchmarkComparison comparison = null;
        try {
            List<BenchmarkComparison> inFile = BenchmarkComparisons.read(file);
            if (inFile.size() > 1) {
                problems.add(file + ": holds " + inFile.size() + " BenchmarkComparisons: run them one at a time");
            }
            comparison = inFile.getFirst();
        } catch (BenchmarkRunFileException e) {
            problems.add(e.getMessage());
        }
        if (comparison != null) {
            String name = comparison.getMetadata() == null
                    ? "(no name)"
                    : comparison.getMetadata().getName();
            ComparisonDefaults.apply(comparison.getSpec());
            for (Violation violation : ComparisonRuns.validate(comparison, new SpecValidator(catalogue))) {
                problems.add(file + ": BenchmarkComparison " + name + ": " + violation);
            }
        }
        if (problems.isEmpty()
                && comparison.getSpec().getTemplate().getWorkload().getScenario() == Scenario.CUSTOM) {
            problems.add(file + ": scenario custom is not supported in comparisons yet: compare custom scripts"
                    + " with --repetitions and plain BenchmarkRun files");
        }
        if (!problems.isEmpty()) {
            throw new InvalidInputException(problems, FIX_THE_FIELDS);
        }
        return comparison;
    }

    /**
     * The module of a custom scenario, read from spec.workload.script.file relative to the BenchmarkRun file. A
     * configMapRef alone names a ConfigMap, which only exists on a cluster.
     */
    static String customModule(Path runFile, ScriptSpec script) {
        if (script == null || script.getFile() == null || script.getFile().isBlank()) {
            throw new IllegalArgumentException("spec.workload.script.file is not set: local mode reads the custom"
                    + " module from that file, a path relative to the BenchmarkRun file (configMapRef is read on a"
                    + " cluster only); add e.g. file: custom.js");
        }
        Path base = runFile.toAbsolutePath().getParent();
        Path module = base.resolve(script.getFile()).normalize();
        try {
            return Files.readString(module);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(
                    "spec.workload.script.file: " + module + " does not exist: give the"
                            + " path of your k6 module, relative to the BenchmarkRun file",
                    e);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "spec.workload.script.file: " + module + " cannot be read (" + e.getMessage() + ")", e);
        }
    }
}
