package dev.stackbench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.stackbench.api.BenchmarkComparison;
import dev.stackbench.api.BenchmarkComparisonSpec;
import dev.stackbench.api.BenchmarkComparisonStatus;
import dev.stackbench.api.BenchmarkComparisons;
import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.BenchmarkRunFileException;
import dev.stackbench.api.BenchmarkRunStatus;
import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.ComparisonDefaults;
import dev.stackbench.api.ComparisonOrder;
import dev.stackbench.api.ComparisonPhase;
import dev.stackbench.api.ComparisonVariant;
import dev.stackbench.api.Phase;
import dev.stackbench.api.Scenario;
import dev.stackbench.api.ScriptSpec;
import dev.stackbench.comparison.ComparisonResults;
import dev.stackbench.comparison.ComparisonRuns;
import dev.stackbench.comparison.ComparisonTable;
import dev.stackbench.local.CoreBindings;
import dev.stackbench.local.CpuSet;
import dev.stackbench.local.LocalRunner;
import dev.stackbench.local.ProgressPrinter;
import dev.stackbench.local.ResultsLayout;
import dev.stackbench.local.StandardCoreBindings;
import dev.stackbench.report.HtmlReport;
import dev.stackbench.report.ReportRun;
import dev.stackbench.report.RunRow;
import dev.stackbench.report.SummaryTable;
import dev.stackbench.stats.ComparisonAnalysis;
import dev.stackbench.stats.ComparisonPlan;
import dev.stackbench.validation.SpecValidator;
import dev.stackbench.validation.Violation;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
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
            "3:every run completed but a threshold failed"
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

    @Option(names = "--keep", description = "keep PostgreSQL's data directory after the run, for inspection")
    boolean keep;

    @Option(
            names = "--root",
            paramLabel = "DIR",
            description =
                    "repository root holding the jars " + "(default: $STACKBENCH_ROOT, else the current directory)")
    Path root;

    @Option(names = "--k6", paramLabel = "PATH", description = "k6 binary (default: $STACKBENCH_K6, else k6 on PATH)")
    Path k6;

    @Option(
            names = "--start-timeout",
            paramLabel = "SECONDS",
            defaultValue = "180",
            description = "how long each service may take to become healthy (default: ${DEFAULT-VALUE})")
    long startTimeoutSeconds;

    private CoreBindings core;

    public RunCommand() {}

    RunCommand(CoreBindings core) {
        this.core = core;
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter out = spec.commandLine().getOut();
        Path repoRoot = repoRoot();
        if (core == null) {
            core = StandardCoreBindings.forRepository(repoRoot);
        }
        Repeated repeated;
        List<PlannedRun> planned;
        Optional<Path> comparisonFile = comparisonFile(err);
        if (comparisonFile == null) {
            return ExitCodes.INVALID_INPUT;
        }
        if (comparisonFile.isPresent()) {
            repeated = planComparison(comparisonFile.get(), err);
            if (repeated == null) {
                return ExitCodes.INVALID_INPUT;
            }
            planned = repeated.runs();
        } else {
            planned = readAndValidate(err);
            if (planned == null) {
                return ExitCodes.INVALID_INPUT;
            }
            repeated = null;
            if (repetitions != null) {
                repeated = plan(planned, err);
                if (repeated == null) {
                    return ExitCodes.INVALID_INPUT;
                }
                planned = repeated.runs();
            }
        }
        List<BenchmarkRun> runs = planned.stream().map(PlannedRun::run).toList();
        LocalRunner.Settings settings;
        try {
            settings = new LocalRunner.Settings(
                    repoRoot,
                    javaBinary(),
                    k6Binary(),
                    CpuSet.ofThisProcess(),
                    keep,
                    Duration.ofSeconds(startTimeoutSeconds));
        } catch (IllegalStateException e) {
            err.println("stackbench: " + e.getMessage());
            return ExitCodes.INVALID_INPUT;
        }
        ResultsLayout layout = resultsDir != null
                ? new ResultsLayout(resultsDir.toAbsolutePath())
                : ResultsLayout.underDefaultDirectory(repoRoot, ZonedDateTime.now());
        Files.createDirectories(layout.root());
        ProgressPrinter progress = ProgressPrinter.forStderr();
        LocalRunner runner = new LocalRunner(settings, progress, core);
        List<LocalRunner.Result> results = new ArrayList<>();
        Instant started = Instant.now();
        // Ctrl-C: each run's supervisor stops its processes from its own hook; this one tells the user.
        Thread interrupted = new Thread(
                () -> progress.message("stackbench: interrupted; stopping every process "
                        + "it started (partial results in " + layout.root() + ")"),
                "stackbench-interrupted");
        Runtime.getRuntime().addShutdownHook(interrupted);
        LocalRunner.Backend backend = null;
        try {
            if (repeated != null && sameBackend(runs)) {
                progress.message("== starting the PostgreSQL and delay service the repetitions share");
                backend = runner.startBackend(runs.getFirst(), layout.root().resolve("shared"));
                repeated = repeated.sharing(backend.describe());
                progress.message("shared between repetitions: " + repeated.shared());
            }
            for (int i = 0; i < runs.size(); i++) {
                BenchmarkRun run = runs.get(i);
                progress.message("== run " + (i + 1) + "/" + runs.size() + ": "
                        + run.getMetadata().getName() + " ("
                        + run.getSpec().getTarget().getVariant() + ")");
                results.add(runner.run(
                        run,
                        new ResultsLayout.RunFiles(
                                layout.run(i + 1, run.getMetadata().getName())),
                        planned.get(i).customModule(),
                        backend));
                if (repeated != null) {
                    // Written after every run, so an interrupted comparison keeps what it measured.
                    JSON.writeValue(layout.comparisonStatus().toFile(), recorded(repeated, results, started));
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
        Instant finished = Instant.now();
        List<ReportRun> reportRuns =
                results.stream().map(LocalRunner.Result::report).toList();
        List<RunRow> rows = reportRuns.stream().map(ReportRun::row).toList();
        String table = SummaryTable.render(rows);
        Files.writeString(layout.comparisonTable(), table);
        List<BenchmarkRunStatus> statuses =
                results.stream().map(result -> result.run().getStatus()).toList();
        JSON.writeValue(layout.comparisonStatuses().toFile(), statuses);
        String title = "stackbench: "
                + runs.stream().map(run -> run.getMetadata().getName()).collect(Collectors.joining(" vs "));
        BenchmarkComparisonStatus comparison = null;
        String statistics = null;
        if (repeated != null) {
            comparison = recorded(repeated, results, started);
            ComparisonResults.conclude(repeated.spec(), comparison);
            comparison.setFinishedAt(finished.toString());
            title = "stackbench: comparison " + repeated.name() + " (" + comparison.getVariantNames() + ")";
            JSON.writeValue(layout.comparisonStatus().toFile(), comparison);
            statistics = ComparisonTable.render(
                    comparison,
                    ComparisonResults.metrics(repeated.spec()),
                    repeated.spec().getConfidence());
            Files.writeString(layout.repetitionStatistics(), statistics);
        }
        Files.writeString(layout.report(), HtmlReport.render(title, finished, reportRuns, comparison, statistics));

        PrintWriter tableOut = output == Output.table ? out : err;
        tableOut.println();
        tableOut.print(table);
        if (statistics != null) {
            tableOut.println();
            tableOut.print(statistics);
        }
        tableOut.flush();
        if (output != Output.table) {
            Object document = comparison != null ? comparison : statuses.size() == 1 ? statuses.get(0) : statuses;
            out.print(
                    output == Output.json ? JSON.writeValueAsString(document) + "\n" : BenchmarkRuns.toYaml(document));
            out.flush();
        }
        err.println("results: " + layout.root() + "  (report: " + layout.report() + ")");
        err.flush();
        int exit = exitCode(statuses);
        if (comparison != null && comparison.getPhase() == ComparisonPhase.Failed) {
            err.println("stackbench: the comparison failed: " + comparison.getMessage());
            err.flush();
            return ExitCodes.RUN_FAILED;
        }
        return exit;
    }

    /** A valid run with defaults applied, and for scenario custom the text of its module. */
    private record PlannedRun(BenchmarkRun run, String customModule) {}

    /**
     * A comparison to run: its name, its spec with defaults (for the shortcut, one built from the options), the seed
     * of its order, and its runs in the order they run with their place in the comparison.
     */
    private record Repeated(
            String name,
            BenchmarkComparisonSpec spec,
            long seed,
            List<PlannedRun> runs,
            List<ComparisonRuns.Child> children,
            String shared) {

        Repeated sharing(String what) {
            return new Repeated(name, spec, seed, runs, children, what);
        }
    }

    /**
     * Whether the runs of a comparison can share one PostgreSQL and delay service: their backends and target CPUs
     * (which decide the CPUs the backend runs on) are the same. A comparison's runs always are; plain files given
     * to --repetitions may differ.
     */
    private static boolean sameBackend(List<BenchmarkRun> runs) {
        BenchmarkRun first = runs.getFirst();
        return runs.stream()
                .allMatch(run -> java.util.Objects.equals(
                                BenchmarkRuns.yamlMapper()
                                        .valueToTree(run.getSpec().getBackend()),
                                BenchmarkRuns.yamlMapper()
                                        .valueToTree(first.getSpec().getBackend()))
                        && java.util.Objects.equals(
                                run.getSpec().getTarget().getResources().getCpu(),
                                first.getSpec().getTarget().getResources().getCpu()));
    }

    /**
     * The BenchmarkComparison file among the arguments, if one is given; null (after saying why) when the arguments
     * mix a comparison with other files or options that only apply to plain runs.
     */
    private Optional<Path> comparisonFile(PrintWriter err) {
        List<Path> comparisons = new ArrayList<>();
        for (Path file : files) {
            try {
                if (BenchmarkComparison.KIND.equals(BenchmarkRuns.kind(file))) {
                    comparisons.add(file);
                }
            } catch (BenchmarkRunFileException e) {
                // Reported with every other problem of the file when it is read.
            }
        }
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
            problems.forEach(problem -> err.println("invalid: " + problem));
            err.println("nothing was started: fix the command line and run again");
            err.flush();
            return null;
        }
        return Optional.of(comparisons.getFirst());
    }

    /** A BenchmarkComparison file checked and planned; null (after saying why) when it is not valid. */
    private Repeated planComparison(Path file, PrintWriter err) {
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
            for (Violation violation : ComparisonRuns.validate(comparison, new SpecValidator(core.catalogue()))) {
                problems.add(file + ": BenchmarkComparison " + name + ": " + violation);
            }
        }
        if (problems.isEmpty()
                && comparison.getSpec().getTemplate().getWorkload().getScenario() == Scenario.CUSTOM) {
            problems.add(file + ": scenario custom is not supported in comparisons yet: compare custom scripts"
                    + " with --repetitions and plain BenchmarkRun files");
        }
        if (!problems.isEmpty()) {
            problems.forEach(problem -> err.println("invalid: " + problem));
            err.println("nothing was started: fix the field(s) above and run again");
            err.flush();
            return null;
        }
        BenchmarkComparisonSpec spec = comparison.getSpec();
        long planSeed = spec.getSeed() != null ? spec.getSeed() : System.currentTimeMillis();
        List<ComparisonRuns.Child> children = ComparisonRuns.plan(comparison, planSeed);
        List<PlannedRun> runs = children.stream()
                .map(child -> new PlannedRun(child.run(), null))
                .toList();
        ComparisonRuns.warnings(spec).forEach(warning -> err.println("warning: " + warning));
        return announce(
                new Repeated(comparison.getMetadata().getName(), spec, planSeed, runs, children, SHARED_BACKEND), err);
    }
    /** Each file's run repeated in rounds; null (after saying why) when the command line cannot be a comparison. */
    private Repeated plan(List<PlannedRun> planned, PrintWriter err) {
        List<String> problems = new ArrayList<>();
        if (repetitions < ComparisonAnalysis.MIN_RUNS) {
            problems.add("--repetitions " + repetitions + ": at least " + ComparisonAnalysis.MIN_RUNS
                    + " are needed for a rank test; 6 or more give a 95% interval of each median, 10 is a good"
                    + " default");
        }
        if (planned.size() < 2) {
            problems.add("--repetitions compares two or more runs (the first is the baseline): give two or more"
                    + " files, or one file with several runs separated by ---");
        }
        List<String> variants =
                planned.stream().map(run -> run.run().getMetadata().getName()).toList();
        variants.stream()
                .filter(name -> variants.indexOf(name) != variants.lastIndexOf(name))
                .distinct()
                .forEach(name -> problems.add("two runs are named " + name + ": with --repetitions each run is one"
                        + " side of the comparison and needs a name of its own (metadata.name)"));
        ComparisonPlan.Order planOrder = null;
        try {
            planOrder = ComparisonPlan.Order.valueOf(order.toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            problems.add("--order " + order + ": use interleaved or sequential");
        }
        if (!(confidence > 0.5 && confidence < 1)) {
            problems.add("--confidence " + confidence + ": give a level between 0.5 and 1, e.g. 0.95");
        }
        if (!problems.isEmpty()) {
            problems.forEach(problem -> err.println("invalid: " + problem));
            err.println("nothing was started: fix the option(s) above and run again");
            err.flush();
            return null;
        }
        long planSeed = seed != null ? seed : System.currentTimeMillis();
        List<ComparisonPlan.Slot> slots = ComparisonPlan.of(planned.size(), repetitions, planOrder, planSeed);
        BenchmarkComparisonSpec spec = new BenchmarkComparisonSpec()
                .withVariants(planned.stream()
                        .map(run -> new ComparisonVariant()
                                .withVariant(run.run().getSpec().getTarget().getVariant())
                                .withName(run.run().getMetadata().getName()))
                        .toList())
                .withRepetitions(repetitions)
                .withOrder(
                        planOrder == ComparisonPlan.Order.SEQUENTIAL
                                ? ComparisonOrder.SEQUENTIAL
                                : ComparisonOrder.INTERLEAVED)
                .withSeed(planSeed)
                .withConfidence(confidence)
                .withIncludeFlaggedRuns(includeFlaggedRuns);
        ComparisonDefaults.apply(spec);
        List<PlannedRun> runs = new ArrayList<>();
        List<ComparisonRuns.Child> children = new ArrayList<>();
        for (ComparisonPlan.Slot slot : slots) {
            PlannedRun original = planned.get(slot.variant());
            BenchmarkRun copy = BenchmarkRuns.yamlMapper().convertValue(original.run(), BenchmarkRun.class);
            copy.getMetadata().setName(variants.get(slot.variant()) + "-r" + (slot.round() + 1));
            runs.add(new PlannedRun(copy, original.customModule()));
            children.add(new ComparisonRuns.Child(
                    children.size(), slot.variant(), variants.get(slot.variant()), slot.round(), copy));
        }
        String name = String.join("-vs-", variants);
        boolean shareable = sameBackend(runs.stream().map(PlannedRun::run).toList());
        return announce(
                new Repeated(name, spec, planSeed, runs, children, shareable ? SHARED_BACKEND : SHARED_NOTHING), err);
    }

    /** What local mode shares between the repetitions of a comparison, until the shared processes are up. */
    private static final String SHARED_NOTHING =
            "nothing: every repetition starts its own PostgreSQL, delay service" + " and target";

    private static final String SHARED_BACKEND = "PostgreSQL (reset by each target at start) and the delay service;"
            + " every repetition starts its own target and k6";

    private static Repeated announce(Repeated repeated, PrintWriter err) {
        List<String> labels = ComparisonRuns.labels(repeated.spec());
        err.println("stackbench: comparison " + repeated.name() + ": " + labels.size() + " variants x "
                + repeated.spec().getRepetitions() + " repetitions, "
                + repeated.spec().getOrder() + " (seed "
                + repeated.seed() + "); baseline " + labels.getFirst() + "; shared between repetitions: "
                + repeated.shared());
        err.flush();
        return repeated;
    }

    /**
     * The comparison's status as the operator writes it while it runs: every run that ended recorded, nothing
     * concluded yet.
     */
    private static BenchmarkComparisonStatus recorded(
            Repeated repeated, List<LocalRunner.Result> results, Instant started) {
        BenchmarkComparisonStatus status =
                ComparisonResults.start(repeated.spec(), repeated.seed(), repeated.shared(), started);
        for (int i = 0; i < results.size(); i++) {
            ComparisonRuns.Child child = repeated.children().get(i);
            BenchmarkRun run = results.get(i).run();
            ComparisonResults.put(
                    status,
                    ComparisonResults.record(
                            run.getMetadata().getName(), child.label(), child.round(), run.getStatus()));
        }
        status.setMessage(
                results.size() == repeated.children().size()
                        ? "every run ended"
                        : "ran " + results.size() + " of " + repeated.children().size() + " runs");
        return status;
    }

    /** Reads every file and checks every run before anything starts; prints every problem, not just the first. */
    private List<PlannedRun> readAndValidate(PrintWriter err) {
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
                List<String> violations = core.validate(run);
                violations.forEach(violation -> problems.add(file + ": BenchmarkRun " + name + ": " + violation));
                if (!violations.isEmpty()) {
                    continue;
                }
                BenchmarkRun defaulted = core.withDefaults(run);
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
            problems.forEach(problem -> err.println("invalid: " + problem));
            err.println("nothing was started: fix the field(s) above and run again");
            err.flush();
            return null;
        }
        return runs;
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
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IllegalArgumentException(
                    "spec.workload.script.file: " + module + " does not exist: give the"
                            + " path of your k6 module, relative to the BenchmarkRun file",
                    e);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "spec.workload.script.file: " + module + " cannot be read (" + e.getMessage() + ")", e);
        }
    }

    private Path repoRoot() {
        if (root != null) {
            return root.toAbsolutePath();
        }
        String fromLauncher = System.getenv("STACKBENCH_ROOT");
        return fromLauncher != null && !fromLauncher.isBlank()
                ? Path.of(fromLauncher)
                : Path.of("").toAbsolutePath();
    }

    private Path k6Binary() {
        if (k6 != null) {
            return requireExecutable(k6, "--k6");
        }
        String fromSetup = System.getenv("STACKBENCH_K6");
        if (fromSetup != null && !fromSetup.isBlank()) {
            return requireExecutable(Path.of(fromSetup), "STACKBENCH_K6");
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(dir, "k6");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("k6 not found: run hack/setup.sh k6 (./stackbench does this for you), or "
                + "pass --k6 PATH or set STACKBENCH_K6");
    }

    private static Path requireExecutable(Path path, String source) {
        if (!Files.isExecutable(path)) {
            throw new IllegalStateException(source + " points to " + path + ", which is not an executable k6: run "
                    + "hack/setup.sh k6 or fix the path");
        }
        return path;
    }

    private static Path javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
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
