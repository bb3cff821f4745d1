package dev.stackbench.local;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.comparison.BenchmarkComparison;
import dev.stackbench.api.comparison.BenchmarkComparisonSpec;
import dev.stackbench.api.comparison.BenchmarkComparisonStatus;
import dev.stackbench.api.comparison.ComparisonDefaults;
import dev.stackbench.api.comparison.ComparisonOrder;
import dev.stackbench.api.comparison.ComparisonVariant;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.comparison.ComparisonResults;
import dev.stackbench.comparison.ComparisonRuns;
import dev.stackbench.stats.ComparisonAnalysis;
import dev.stackbench.stats.ComparisonPlan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A comparison as local mode runs it: every repetition of every variant in the order they run, and what the
 * repetitions share. It comes from a BenchmarkComparison file, or from plain BenchmarkRun files and --repetitions.
 *
 * @param name the comparison's name
 * @param spec its spec with defaults; for plain runs, one built from the command line
 * @param seed the seed of the interleaved order, printed so that the order can be run again
 * @param runs every repetition's run, in the order they run
 * @param children each repetition's place in the comparison, in the same order
 * @param shared what the repetitions share, as the status and the output say it
 */
public record RepetitionPlan(
        String name,
        BenchmarkComparisonSpec spec,
        long seed,
        List<PlannedRun> runs,
        List<ComparisonRuns.Child> children,
        String shared) {

    /**
     * How the command line builds a comparison from plain runs: --repetitions, --order, --seed (null: the time),
     * --confidence and --include-flagged-runs.
     */
    public record Options(int repetitions, String order, Long seed, double confidence, boolean includeFlaggedRuns) {}

    static final String SHARED_NOTHING =
            "nothing: every repetition starts its own PostgreSQL, delay service and target";

    static final String SHARED_BACKEND = "PostgreSQL (reset by each target at start) and the delay service;"
            + " every repetition starts its own target and k6";

    /** The repetitions of a valid BenchmarkComparison with its defaults. */
    public static RepetitionPlan of(BenchmarkComparison comparison) {
        BenchmarkComparisonSpec spec = comparison.getSpec();
        long seed = spec.getSeed() != null ? spec.getSeed() : System.currentTimeMillis();
        List<ComparisonRuns.Child> children = ComparisonRuns.plan(comparison, seed);
        List<PlannedRun> runs = children.stream()
                .map(child -> new PlannedRun(child.run(), null))
                .toList();
        return new RepetitionPlan(comparison.getMetadata().getName(), spec, seed, runs, children, SHARED_BACKEND);
    }

    /**
     * Each run repeated in rounds, the first run being the baseline and each run's name the name of its variant.
     *
     * @throws InvalidInputException when the runs and options cannot make a comparison, naming every reason
     */
    public static RepetitionPlan of(List<PlannedRun> planned, Options options) throws InvalidInputException {
        List<String> problems = new ArrayList<>();
        if (options.repetitions() < ComparisonAnalysis.MIN_RUNS) {
            problems.add("--repetitions " + options.repetitions() + ": at least " + ComparisonAnalysis.MIN_RUNS
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
        ComparisonPlan.Order order = null;
        try {
            order = ComparisonPlan.Order.valueOf(options.order().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            problems.add("--order " + options.order() + ": use interleaved or sequential");
        }
        if (!(options.confidence() > 0.5 && options.confidence() < 1)) {
            problems.add("--confidence " + options.confidence() + ": give a level between 0.5 and 1, e.g. 0.95");
        }
        if (!problems.isEmpty()) {
            throw new InvalidInputException(problems, "the option(s) above");
        }
        long seed = options.seed() != null ? options.seed() : System.currentTimeMillis();
        BenchmarkComparisonSpec spec = new BenchmarkComparisonSpec()
                .withVariants(planned.stream()
                        .map(run -> new ComparisonVariant()
                                .withVariant(run.run().getSpec().getTarget().getVariant())
                                .withName(run.run().getMetadata().getName()))
                        .toList())
                .withRepetitions(options.repetitions())
                .withOrder(
                        order == ComparisonPlan.Order.SEQUENTIAL
                                ? ComparisonOrder.SEQUENTIAL
                                : ComparisonOrder.INTERLEAVED)
                .withSeed(seed)
                .withConfidence(options.confidence())
                .withIncludeFlaggedRuns(options.includeFlaggedRuns());
        ComparisonDefaults.apply(spec);
        List<PlannedRun> runs = new ArrayList<>();
        List<ComparisonRuns.Child> children = new ArrayList<>();
        for (ComparisonPlan.Slot slot : ComparisonPlan.of(planned.size(), options.repetitions(), order, seed)) {
            PlannedRun original = planned.get(slot.variant());
            BenchmarkRun copy = BenchmarkRuns.yamlMapper().convertValue(original.run(), BenchmarkRun.class);
            copy.getMetadata().setName(variants.get(slot.variant()) + "-r" + (slot.round() + 1));
            runs.add(new PlannedRun(copy, original.customModule()));
            children.add(new ComparisonRuns.Child(
                    children.size(), slot.variant(), variants.get(slot.variant()), slot.round(), copy));
        }
        String shared = sameBackend(runs) ? SHARED_BACKEND : SHARED_NOTHING;
        return new RepetitionPlan(String.join("-vs-", variants), spec, seed, runs, children, shared);
    }

    /**
     * Whether the repetitions can share one PostgreSQL and delay service: their backends and target CPUs (which
     * decide the CPUs the backend runs on) are the same. A comparison's runs always are; plain runs may differ.
     */
    public boolean sharesBackend() {
        return sameBackend(runs);
    }

    private static boolean sameBackend(List<PlannedRun> runs) {
        BenchmarkRun first = runs.getFirst().run();
        return runs.stream()
                .map(PlannedRun::run)
                .allMatch(run -> Objects.equals(
                                BenchmarkRuns.yamlMapper()
                                        .valueToTree(run.getSpec().getBackend()),
                                BenchmarkRuns.yamlMapper()
                                        .valueToTree(first.getSpec().getBackend()))
                        && Objects.equals(
                                run.getSpec().getTarget().getResources().getCpu(),
                                first.getSpec().getTarget().getResources().getCpu()));
    }

    /** This plan once the shared processes are up, saying which ones they are. */
    public RepetitionPlan sharing(String what) {
        return new RepetitionPlan(name, spec, seed, runs, children, what);
    }

    /** The line printed before the first repetition starts: what is compared, how often, in which order. */
    public String announcement() {
        List<String> labels = ComparisonRuns.labels(spec);
        return "stackbench: comparison " + name + ": " + labels.size() + " variants x " + spec.getRepetitions()
                + " repetitions, " + spec.getOrder() + " (seed " + seed + "); baseline " + labels.getFirst()
                + "; shared between repetitions: " + shared;
    }

    /**
     * The comparison's status as the operator writes it while it runs: every repetition that ended recorded, nothing
     * concluded yet.
     *
     * @param ended the runs that ended, with their status, in the order they ran
     */
    public BenchmarkComparisonStatus status(List<BenchmarkRun> ended, Instant started) {
        BenchmarkComparisonStatus status = ComparisonResults.start(spec, seed, shared, started);
        for (int i = 0; i < ended.size(); i++) {
            ComparisonRuns.Child child = children.get(i);
            BenchmarkRun run = ended.get(i);
            ComparisonResults.put(
                    status,
                    ComparisonResults.record(
                            run.getMetadata().getName(), child.label(), child.round(), run.getStatus()));
        }
        status.setMessage(
                ended.size() == children.size()
                        ? "every run ended"
                        : "ran " + ended.size() + " of " + children.size() + " runs");
        return status;
    }
}
