package dev.stackbench.catalogue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.stackbench.api.Durations;
import dev.stackbench.api.run.FanoutMode;
import dev.stackbench.api.run.Scenario;
import dev.stackbench.api.run.WorkloadSpec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The variant catalogue (targets/variants.yaml, shipped in the jar as {@value #RESOURCE}): which stacks exist, the app
 * implementing each, its request thread pool and the scenarios on which that pool is the limit.
 */
public final class VariantCatalogue {

    public static final String RESOURCE = "stackbench/variants.yaml";
    /** The targets' database pool size variable and its contract default (same for Hikari and R2DBC). */
    public static final String DB_POOL_SIZE_ENV = "DB_POOL_SIZE";

    public static final int DEFAULT_DB_POOL_SIZE = 100;

    private static final ObjectMapper YAML = YAMLMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private final String source;
    private final Map<String, AppImage> apps;
    private final Map<String, Variant> variants;

    private VariantCatalogue(String source, Map<String, AppImage> apps, List<Variant> variants) {
        this.source = source;
        this.apps = Map.copyOf(apps);
        Map<String, Variant> byName = new LinkedHashMap<>();
        for (Variant variant : variants) {
            byName.put(variant.name(), variant);
        }
        this.variants = byName;
    }

    private record CatalogueFile(Map<String, AppImage> apps, List<Variant> variants) {}

    /** The catalogue shipped in the jar. */
    public static VariantCatalogue load() {
        try (InputStream in = VariantCatalogue.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new CatalogueException("the variant catalogue " + RESOURCE + " is not on the classpath: build"
                        + " the operator module (it packages targets/variants.yaml) or pass the file explicitly");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "classpath:" + RESOURCE);
        } catch (IOException e) {
            throw new CatalogueException("cannot read " + RESOURCE + ": " + e.getMessage(), e);
        }
    }

    /** A catalogue file, e.g. targets/variants.yaml of a checkout. */
    public static VariantCatalogue load(Path file) {
        try {
            return parse(Files.readString(file), file.toString());
        } catch (IOException e) {
            throw new CatalogueException(
                    "cannot read the variant catalogue " + file + ": " + e.getMessage()
                            + "; pass the path of targets/variants.yaml",
                    e);
        }
    }

    /** Parses catalogue YAML and checks it is consistent; {@code source} names it in errors. */
    public static VariantCatalogue parse(String yaml, String source) {
        CatalogueFile file;
        try {
            file = YAML.readValue(yaml, CatalogueFile.class);
        } catch (IOException e) {
            throw new CatalogueException(source + " is not a valid variant catalogue: " + e.getMessage(), e);
        }
        if (file == null
                || file.apps() == null
                || file.variants() == null
                || file.variants().isEmpty()) {
            throw new CatalogueException(source + " needs an 'apps' map and a non-empty 'variants' list");
        }
        List<String> problems = new ArrayList<>();
        List<String> scenarios = Scenario.names();
        for (Variant variant : file.variants()) {
            String where = "variant " + variant.name();
            if (variant.name() == null || variant.name().isBlank()) {
                problems.add("a variant has no name");
                continue;
            }
            if (variant.app() == null || !file.apps().containsKey(variant.app())) {
                problems.add(where + " uses app " + variant.app() + ", which is not under apps ("
                        + file.apps().keySet() + ")");
            }
            ThreadPool pool = variant.threadPool();
            if (pool == null || (pool.size() == null) == (pool.perCpu() == null)) {
                problems.add(where + " needs threadPool with exactly one of size or perCpu");
            }
            for (String mode : variant.fanoutModes()) {
                if (Arrays.stream(FanoutMode.values())
                        .noneMatch(known -> known.value().equals(mode))) {
                    problems.add(where + " lists unknown mode " + mode + " in fanoutModes (known: parallel,"
                            + " sequential)");
                }
            }
            for (String operation : variant.blocksPoolOn()) {
                if (!scenarios.contains(operation)) {
                    problems.add(where + " lists unknown operation " + operation + " in blocksPoolOn (known: "
                            + scenarios + ")");
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new CatalogueException(source + " is inconsistent: " + String.join("; ", problems));
        }
        return new VariantCatalogue(source, file.apps(), file.variants());
    }

    public String source() {
        return source;
    }

    public List<String> variantNames() {
        return List.copyOf(variants.keySet());
    }

    public List<Variant> variants() {
        return List.copyOf(variants.values());
    }

    public Map<String, AppImage> apps() {
        return apps;
    }

    public Optional<Variant> find(String name) {
        return Optional.ofNullable(name).map(variants::get);
    }

    /** The variant, or an error listing the known ones. */
    public Variant variant(String name) {
        return find(name).orElseThrow(() -> new CatalogueException(unknownVariantMessage(name)));
    }

    /** The message for a variant name that is not in the catalogue. */
    public String unknownVariantMessage(String name) {
        return "unknown variant '" + name + "': use one of " + String.join(", ", variantNames()) + " (from " + source
                + ")";
    }

    /** The app (image and jar) implementing a variant. */
    public AppImage app(String variantName) {
        return apps.get(variant(variantName).app());
    }

    /** The delay service's app entry. */
    public AppImage delayService() {
        AppImage delay = apps.get("delay-service");
        if (delay == null) {
            throw new CatalogueException(source + " has no apps.delay-service entry: add its image and jar");
        }
        return delay;
    }

    /** Size of the variant's request thread pool on {@code cpus} CPUs, honouring an override in {@code env}. */
    public int poolThreads(String variantName, double cpus, Map<String, String> env) {
        return variant(variantName).threadPool().threads(cpus, env);
    }

    public boolean isThreadBound(String variantName, Scenario scenario) {
        return variant(variantName).isThreadBound(scenario);
    }

    /**
     * Nominal time one request of the workload spends waiting: upstream delay plus database sleep, or the in-process
     * sleep, for the scenarios that have them; empty for scenarios without a fixed wait (rows, orders, custom).
     */
    public static Optional<Duration> nominalServiceTime(WorkloadSpec workload) {
        return nominalServiceTime(workload, workload == null ? null : workload.getFanoutMode());
    }

    /**
     * The nominal wait of one request on a variant: a fan-out's calls add up when the variant makes them one after
     * another (its own default unless the workload sets a mode).
     */
    public Optional<Duration> nominalServiceTime(String variantName, WorkloadSpec workload) {
        if (workload == null) {
            return Optional.empty();
        }
        FanoutMode mode = workload.getFanoutMode() != null
                ? workload.getFanoutMode()
                : find(variantName).flatMap(Variant::defaultFanoutMode).orElse(null);
        return nominalServiceTime(workload, mode);
    }

    /** A fan-out of unknown mode counts as sequential: the longer wait, so VU pools are not sized too small. */
    private static Optional<Duration> nominalServiceTime(WorkloadSpec workload, FanoutMode fanoutMode) {
        if (workload == null || workload.getScenario() == null) {
            return Optional.empty();
        }
        Scenario scenario = workload.getScenario();
        Duration total = Duration.ZERO;
        boolean known = false;
        if (scenario.callsUpstream() && workload.getUpstreamDelay() != null) {
            Duration call = Durations.parse(workload.getUpstreamDelay());
            int calls = scenario.fansOut() && workload.getCalls() != null ? workload.getCalls() : 1;
            total = total.plus(fanoutMode == FanoutMode.PARALLEL ? call : call.multipliedBy(calls));
            known = true;
        }
        if (scenario.sleepsInDatabase() && workload.getDbSleep() != null) {
            total = total.plus(Durations.parse(workload.getDbSleep()));
            known = true;
        }
        if (scenario.sleepsInProcess() && workload.getSleep() != null) {
            total = total.plus(Durations.parse(workload.getSleep()));
            known = true;
        }
        return known && !total.isZero() ? Optional.of(total) : Optional.empty();
    }

    /**
     * The throughput cap Little's law predicts for a variant and workload: the request thread pool divided by the
     * nominal service time when the variant is thread-bound on the scenario, and the database pool divided by the
     * database sleep when the scenario sleeps in the database (every variant shares that pool size); the lower one
     * wins. Empty when neither applies or the scenario has no fixed wait.
     */
    public Optional<LittleLawCap> littleLawCap(
            String variantName, double cpus, Map<String, String> env, WorkloadSpec workload) {
        Variant variant = variant(variantName);
        Optional<Duration> serviceTime = nominalServiceTime(variantName, workload);
        if (serviceTime.isEmpty()) {
            return Optional.empty();
        }
        List<LittleLawCap> caps = new ArrayList<>();
        Scenario scenario = workload.getScenario();
        if (variant.isThreadBound(scenario)) {
            int threads = variant.threadPool().threads(cpus, env);
            double seconds = Durations.seconds(serviceTime.get());
            caps.add(new LittleLawCap(
                    threads / seconds,
                    threads,
                    seconds,
                    threads + " " + variant.threadPool().name() + " threads"));
        }
        if (scenario.sleepsInDatabase() && workload.getDbSleep() != null) {
            double sleep = Durations.seconds(Durations.parse(workload.getDbSleep()));
            if (sleep > 0) {
                int connections = dbPoolSize(env);
                caps.add(new LittleLawCap(
                        connections / sleep, connections, sleep, connections + " database connections"));
            }
        }
        return caps.stream().min(Comparator.comparingDouble(LittleLawCap::rps));
    }

    /** The target's database pool size: {@value #DB_POOL_SIZE_ENV} from its environment, else the default. */
    public static int dbPoolSize(Map<String, String> env) {
        String value = env == null ? null : env.get(DB_POOL_SIZE_ENV);
        if (value == null) {
            return DEFAULT_DB_POOL_SIZE;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new CatalogueException(DB_POOL_SIZE_ENV + "=" + value + " is not a whole number: set it to the"
                    + " number of database connections, e.g. " + DB_POOL_SIZE_ENV + "=100");
        }
    }
}
