package dev.stackbench.local;

import dev.stackbench.api.BenchmarkRunSpec;
import dev.stackbench.api.RunSummary;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * What local mode takes from the shared core (variant catalogue, k6 script generator, results aggregation), so
 * that the local runner and the operator produce the same script and the same status from the same inputs.
 */
public interface CoreBindings {

    /** A catalogue variant as local mode needs it. */
    interface Variant {
        String name();

        /** Spring profile that selects the variant. */
        String profile();

        /** The app's jar, relative to the repository root. */
        String jar();

        /** Request pool size for a JVM with this many CPUs and this environment (sizeEnv overrides). */
        int poolThreads(int cpus, Map<String, String> environment);
    }

    /**
     * Every rule the CRD enforces, plus the variant existing in the catalogue: one line per problem, naming the
     * field and what to change. Empty when the run is valid.
     */
    java.util.List<String> validate(dev.stackbench.api.BenchmarkRun run);

    /** Applies the API defaults (the values the API server would fill in) to a valid run. */
    dev.stackbench.api.BenchmarkRun withDefaults(dev.stackbench.api.BenchmarkRun run);

    Variant variant(String name);

    /** The variant catalogue, for the app contract both modes share ({@link dev.stackbench.model.RunApps}). */
    dev.stackbench.catalogue.VariantCatalogue catalogue();

    /** The delay service's jar, relative to the repository root. */
    String delayServiceJar();

    /**
     * The k6 script for a spec; the target URL and summary path come from {@link #k6Environment}.
     *
     * @param customModuleImport for scenario custom, the import specifier of the user's module next to the script
     *     (e.g. "./custom.js"); null otherwise
     */
    dev.stackbench.k6.K6Script k6Script(BenchmarkRunSpec spec, String customModuleImport);

    /** Environment for the k6 process: where the target is and where handleSummary writes its summary. */
    Map<String, String> k6Environment(String targetBaseUrl, Path summaryFile);

    /** Name of the measured scenario in the generated script (the other one is the warmup). */
    String measureScenario();

    /** Name of the warmup scenario, whose requests are excluded from every figure. */
    String warmupScenario();

    /** The status summary, from the k6 summary and the target scrapes of the measured window. */
    RunSummary summarize(BenchmarkRunSpec spec, Variant variant, Path k6Summary, RunObservation observation);

    /** The target's live JVM threads in one Prometheus scrape. */
    Optional<Double> liveThreads(String prometheusText);
}
