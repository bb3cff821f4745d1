package dev.stackbench.local;

import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.BenchmarkRunDefaults;
import dev.stackbench.api.BenchmarkRunSpec;
import dev.stackbench.api.RunSummary;
import dev.stackbench.api.Scenario;
import dev.stackbench.api.TargetSummary;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.k6.K6Env;
import dev.stackbench.k6.K6Script;
import dev.stackbench.k6.K6ScriptGenerator;
import dev.stackbench.k6.K6SummaryParser;
import dev.stackbench.k6.RunnerSummary;
import dev.stackbench.results.ResultAggregator;
import dev.stackbench.results.ServerSideCheck;
import dev.stackbench.results.TargetMetrics;
import dev.stackbench.results.TargetSample;
import dev.stackbench.results.TimedScrape;
import dev.stackbench.validation.SpecValidator;
import dev.stackbench.validation.Violation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Local mode wired to the shared core: the catalogue, the validator, the k6 generator and the results code. */
public final class StandardCoreBindings implements CoreBindings {

    private final VariantCatalogue catalogue;

    public StandardCoreBindings() {
        this(VariantCatalogue.load());
    }

    public StandardCoreBindings(VariantCatalogue catalogue) {
        this.catalogue = catalogue;
    }

    /** The catalogue of a checkout when there is one (it may be newer than the copy in the jar). */
    public static StandardCoreBindings forRepository(Path repoRoot) {
        Path file = repoRoot.resolve("targets/variants.yaml");
        return new StandardCoreBindings(
                Files.isRegularFile(file) ? VariantCatalogue.load(file) : VariantCatalogue.load());
    }

    @Override
    public List<String> validate(BenchmarkRun run) {
        return new SpecValidator(catalogue)
                .validate(run).stream().map(Violation::toString).toList();
    }

    @Override
    public BenchmarkRun withDefaults(BenchmarkRun run) {
        return BenchmarkRunDefaults.apply(run);
    }

    @Override
    public VariantCatalogue catalogue() {
        return catalogue;
    }

    @Override
    public Variant variant(String name) {
        dev.stackbench.catalogue.Variant variant = catalogue.variant(name);
        String jar = catalogue.app(name).jar();
        return new Variant() {
            @Override
            public String name() {
                return variant.name();
            }

            @Override
            public String profile() {
                return variant.profile();
            }

            @Override
            public String jar() {
                return jar;
            }

            @Override
            public int poolThreads(int cpus, Map<String, String> environment) {
                return variant.threadPool().threads(cpus, environment);
            }
        };
    }

    @Override
    public String delayServiceJar() {
        return catalogue.delayService().jar();
    }

    @Override
    public K6Script k6Script(BenchmarkRunSpec spec, String customModuleImport) {
        if (spec.getWorkload().getScenario() == Scenario.CUSTOM && customModuleImport == null) {
            throw new LocalRunException("scenario custom needs its module: set spec.workload.script.file to the"
                    + " module's path, relative to the BenchmarkRun file");
        }
        return new K6ScriptGenerator().generate(spec, customModuleImport);
    }

    @Override
    public Map<String, String> k6Environment(String targetBaseUrl, Path summaryFile) {
        return Map.of(K6Env.BASE_URL, targetBaseUrl, K6Env.SUMMARY_FILE, summaryFile.toString());
    }

    @Override
    public String measureScenario() {
        return K6Env.MEASURE_SCENARIO;
    }

    @Override
    public String warmupScenario() {
        return K6Env.WARMUP_SCENARIO;
    }

    @Override
    public RunSummary summarize(BenchmarkRunSpec spec, Variant variant, Path k6Summary, RunObservation observation) {
        RunnerSummary runner = K6SummaryParser.parseFile(k6Summary);
        TargetMetrics metrics = targetMetrics(observation);
        RunSummary summary =
                ResultAggregator.aggregate(List.of(runner), spec, catalogue, targetSummary(metrics, observation));
        // The client window: k6 counts what completed within measuredSeconds of the measured scenario's start.
        Instant windowEnd = observation.windowStart().plusNanos(Math.round(summary.getMeasuredSeconds() * 1e9));
        ServerSideCheck.addTo(summary, metrics.serverRequests(), observation.windowStart(), windowEnd);
        return summary;
    }

    @Override
    public Optional<Double> liveThreads(String prometheusText) {
        double threads = TargetSample.of(Instant.EPOCH, prometheusText).liveThreads();
        return Double.isNaN(threads) ? Optional.empty() : Optional.of(threads);
    }

    /** Every scrape of the run, in the same accumulator the operator feeds. */
    static TargetMetrics targetMetrics(RunObservation observation) {
        TargetMetrics metrics = new TargetMetrics();
        for (TimedScrape scrape : observation.runScrapes()) {
            metrics.add(scrape.at(), scrape.prometheusText());
        }
        return metrics;
    }

    /** The target figures of the measured window. */
    static TargetSummary targetSummary(TargetMetrics metrics, RunObservation observation) {
        TargetSummary summary = metrics.summary(observation.windowStart(), observation.windowEnd());
        if (summary.getAvgCpuCores() == null && !Double.isNaN(observation.averageTargetCores())) {
            // Measured from /proc when the target does not expose its CPU time.
            summary.setAvgCpuCores(Math.round(observation.averageTargetCores() * 1000) / 1000.0);
        }
        return summary;
    }
}
