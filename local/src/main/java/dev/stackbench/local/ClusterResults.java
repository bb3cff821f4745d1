package dev.stackbench.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.stackbench.api.Durations;
import dev.stackbench.k6.K6Env;
import dev.stackbench.k6.K6SummaryParser;
import dev.stackbench.report.RequestTimeline;
import dev.stackbench.results.TargetMetrics;
import dev.stackbench.results.TargetSample;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;

/**
 * A BenchmarkRun on a cluster, fetched with kubectl (the user's kubeconfig, context and rights) into the layout of a
 * local run's results directory, so that {@code stackbench report} and {@code stackbench compare} read it with the
 * same code: its resource (benchmarkrun.yaml, status.json, environment.json) and what the operator kept of it after
 * cleanup in the ConfigMap {@code <run>-results}: the k6 script, every runner's summary, the runners' per-second
 * counts (turned here into requests-per-second.csv, warmup-requests-per-second.csv and latency-percentiles.csv as
 * local mode writes them), the target's scrapes (target-metrics.csv) and the pods' CPU readings. A stepped run's
 * steps go into step-NN-cluster directories.
 */
public final class ClusterResults {

    /** The most one kept file may inflate to: the ConfigMap is at most 1 MiB compressed. */
    static final int INFLATED_LIMIT = 64 * 1024 * 1024;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** Runs kubectl with the given arguments and returns what it printed, or fails saying what went wrong. */
    public interface Kubectl {
        String get(List<String> arguments);
    }

    private ClusterResults() {}

    /** kubectl from the PATH (or $STACKBENCH_KUBECTL), with the user's kubeconfig. */
    public static Kubectl kubectl() {
        String program = Optional.ofNullable(System.getenv("STACKBENCH_KUBECTL"))
                .filter(value -> !value.isBlank())
                .orElse("kubectl");
        return arguments -> {
            List<String> command = new ArrayList<>(List.of(program));
            command.addAll(arguments);
            try {
                Path err = Files.createTempFile("stackbench-kubectl-", ".err");
                try {
                    Process process = new ProcessBuilder(command)
                            .redirectError(err.toFile())
                            .start();
                    byte[] out = process.getInputStream().readAllBytes();
                    int exit = process.waitFor();
                    if (exit != 0) {
                        throw new IllegalArgumentException(String.join(" ", command) + " failed (exit " + exit + "): "
                                + Files.readString(err).strip());
                    }
                    return new String(out, StandardCharsets.UTF_8);
                } finally {
                    Files.deleteIfExists(err);
                }
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot run " + program + " (" + e.getMessage() + "): install"
                        + " kubectl or set STACKBENCH_KUBECTL to it; reading a cluster's runs needs it");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while running kubectl", e);
            }
        };
    }

    /** The names of the BenchmarkRuns of a BenchmarkComparison, by the label the operator puts on them. */
    public static List<String> comparisonRuns(Kubectl kubectl, String namespace, String comparison) {
        JsonNode list = parse(kubectl.get(List.of(
                "get",
                "benchmarkruns",
                "--namespace",
                namespace,
                "--selector",
                dev.stackbench.comparison.ComparisonRuns.COMPARISON_LABEL + "=" + comparison,
                "--output",
                "json")));
        List<String> names = new ArrayList<>();
        list.path("items")
                .forEach(item -> names.add(item.path("metadata").path("name").asText()));
        if (names.isEmpty()) {
            throw new IllegalArgumentException("BenchmarkComparison " + namespace + "/" + comparison + " has no"
                    + " BenchmarkRuns (label " + dev.stackbench.comparison.ComparisonRuns.COMPARISON_LABEL + "="
                    + comparison + "): check the name and namespace (kubectl get benchmarkcomparisons -n " + namespace
                    + ")");
        }
        return names;
    }

    /**
     * Writes the run into {@code dir} (created, or its files replaced) and returns the warnings the reader should see
     * (e.g. a run whose results were not kept).
     */
    public static List<String> fetch(Kubectl kubectl, String namespace, String name, Path dir) throws IOException {
        List<String> warnings = new ArrayList<>();
        JsonNode run =
                parse(kubectl.get(List.of("get", "benchmarkrun", name, "--namespace", namespace, "--output", "json")));
        Files.createDirectories(dir);
        ObjectNode resource = run.deepCopy();
        JsonNode status = resource.remove("status");
        ObjectNode metadata = JSON.createObjectNode();
        metadata.put("name", name);
        metadata.put("namespace", namespace);
        if (run.path("metadata").has("labels")) {
            metadata.set("labels", run.path("metadata").path("labels"));
        }
        resource.set("metadata", metadata);
        ResultsLayout.RunFiles files = new ResultsLayout.RunFiles(dir);
        Files.writeString(files.spec(), YAML.writeValueAsString(resource));
        if (status == null || status.isMissingNode() || status.isNull()) {
            throw new IllegalArgumentException("BenchmarkRun " + namespace + "/" + name + " has no status yet: wait"
                    + " until the operator has taken it up (kubectl get benchmarkrun -n " + namespace + " " + name
                    + ")");
        }
        Files.writeString(files.status(), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(status));
        if (status.has("environment")) {
            Files.writeString(
                    files.environment(),
                    JSON.writerWithDefaultPrettyPrinter().writeValueAsString(status.path("environment")));
            Files.writeString(
                    files.provenance(),
                    JSON.writerWithDefaultPrettyPrinter().writeValueAsString(provenance(status.path("environment"))));
        }
        JsonNode kept;
        try {
            kept = parse(kubectl.get(
                    List.of("get", "configmap", name + "-results", "--namespace", namespace, "--output", "json")));
        } catch (IllegalArgumentException e) {
            warnings.add(namespace + "/" + name + ": no results kept after cleanup (ConfigMap " + name + "-results: "
                    + e.getMessage() + "); the report holds its status only");
            return warnings;
        }
        Map<String, Map<String, byte[]>> byLoad = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = kept.path("binaryData").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            String key = entry.getKey();
            String load = "";
            String file = key;
            if (key.startsWith("step-") && key.indexOf('.') > 0) {
                load = key.substring(0, key.indexOf('.'));
                file = key.substring(key.indexOf('.') + 1);
            }
            byLoad.computeIfAbsent(load, l -> new TreeMap<>())
                    .put(
                            file,
                            gunzip(Base64.getDecoder().decode(entry.getValue().asText()), key));
        }
        String index = kept.path("data").path("index.txt").asText("");
        index.lines()
                .filter(line -> line.startsWith("left out "))
                .forEach(line ->
                        warnings.add(namespace + "/" + name + ": the operator " + line + " (not in this report)"));
        for (Map.Entry<String, Map<String, byte[]>> load : byLoad.entrySet()) {
            Path loadDir = load.getKey().isEmpty() ? dir : dir.resolve(load.getKey() + "-cluster");
            writeLoad(new ResultsLayout.RunFiles(Files.createDirectories(loadDir)), load.getValue(), run);
        }
        return warnings;
    }

    /**
     * What made a cluster run, in the terms of a local run's provenance.json, so that compare can tell runs made in
     * different conditions apart: the operator's version and image for stackbench's, the target node for the machine
     * (its name, allocatable CPUs, kernel; the CPU model is not in the status), the target's Java and image digest.
     */
    static ObjectNode provenance(JsonNode environment) {
        JsonNode targetNode = JSON.createObjectNode();
        for (JsonNode node : environment.path("nodes")) {
            for (JsonNode role : node.path("roles")) {
                if ("target".equals(role.asText())) {
                    targetNode = node;
                }
            }
        }
        ObjectNode provenance = JSON.createObjectNode();
        provenance.put("stackbenchVersion", environment.path("operatorVersion").asText(null));
        provenance.put("stackbenchCommit", environment.path("operatorImage").asText(null));
        provenance.put("stackbenchDirty", false);
        provenance.put("k6Version", environment.path("k6Version").asText(null));
        provenance.put("host", targetNode.path("name").asText(null));
        provenance.putNull("cpuModel");
        provenance.put(
                "cpus", (int) Math.floor(cores(targetNode.path("cpuAllocatable").asText("0"))));
        provenance.put("kernel", targetNode.path("kernelVersion").asText(null));
        provenance.put("jdk", environment.path("javaVersion").asText(null));
        provenance.put("targetJar", environment.path("images").path("target").asText(null));
        provenance.put(
                "targetJarSha256",
                environment.path("imageDigests").path("target").asText(null));
        return provenance;
    }

    private static double cores(String quantity) {
        try {
            return quantity.endsWith("m")
                    ? Double.parseDouble(quantity.substring(0, quantity.length() - 1)) / 1000
                    : Double.parseDouble(quantity);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** One load's kept files, and the series local mode writes derived from them. */
    private static void writeLoad(ResultsLayout.RunFiles files, Map<String, byte[]> kept, JsonNode run)
            throws IOException {
        for (Map.Entry<String, byte[]> file : kept.entrySet()) {
            Files.write(files.dir().resolve(file.getKey()), file.getValue());
        }
        // The first runner's summary stands for the load where the report reads one (checks, request names).
        Optional<String> firstSummary = kept.keySet().stream()
                .filter(key -> key.startsWith("k6-summary-"))
                .sorted()
                .findFirst()
                .map(key -> new String(kept.get(key), StandardCharsets.UTF_8));
        Optional<Instant> windowStart = Optional.empty();
        if (firstSummary.isPresent()) {
            Files.writeString(files.k6Summary(), summaryJson(firstSummary.get()));
            try {
                windowStart = K6SummaryParser.parse(firstSummary.get()).measuredWindowStart();
            } catch (RuntimeException e) {
                // Without it the target's series start at the first scrape.
            }
        }
        if (kept.containsKey("k6-per-second.ndjson")) {
            Path perSecond = files.dir().resolve("k6-per-second.ndjson");
            Map<String, RequestTimeline> timelines = K6PerSecondFile.read(perSecond);
            RequestTimeline measure = timelines.getOrDefault(K6Env.MEASURE_SCENARIO, new RequestTimeline());
            WindowRecorder.writeTimeline(files.timeline(), measure, 0, false);
            WindowRecorder.writePercentiles(files.latencyPercentiles(), measure);
            RequestNameTotals.read(perSecond, K6Env.MEASURE_SCENARIO).write(files.requestsByName());
            RequestTimeline warmup = timelines.get(K6Env.WARMUP_SCENARIO);
            if (warmup != null && !warmup.isEmpty() && !measure.isEmpty()) {
                WindowRecorder.writeTimeline(
                        files.warmupTimeline(), warmup, warmup.firstEpochSecond() - measure.firstEpochSecond(), true);
            }
            if (windowStart.isEmpty() && !measure.isEmpty()) {
                windowStart = Optional.of(Instant.ofEpochSecond(measure.firstEpochSecond()));
            }
        }
        if (kept.containsKey("target-scrapes.tsv")) {
            writeTargetMetrics(
                    files.metrics(),
                    new String(kept.get("target-scrapes.tsv"), StandardCharsets.UTF_8),
                    windowStart,
                    measured(run));
        }
    }

    /** The k6 summary's JSON: the kept block is what the runner printed, the JSON on one of its lines. */
    private static String summaryJson(String block) {
        return block.lines()
                .filter(line -> line.startsWith("{") && line.endsWith("}"))
                .reduce((first, last) -> last)
                .orElse(block);
    }

    private static Duration measured(JsonNode run) {
        try {
            return Durations.parse(
                    run.path("spec").path("workload").path("duration").asText());
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The target's threads and CPU over the measured window, as local mode's target-metrics.csv. */
    private static void writeTargetMetrics(Path file, String journal, Optional<Instant> windowStart, Duration measured)
            throws IOException {
        TargetMetrics metrics = new TargetMetrics();
        metrics.load(journal);
        List<TargetSample> samples = metrics.samples();
        if (samples.isEmpty()) {
            return;
        }
        Instant start = windowStart.orElse(samples.getFirst().at());
        Instant end = measured == null ? Instant.MAX : start.plus(measured);
        StringBuilder csv = new StringBuilder("second,target_cpu_cores,k6_cpu_cores,live_threads,k6_cpus_busy\n");
        for (TargetSample sample : samples) {
            if (sample.at().isBefore(start) || sample.at().isAfter(end)) {
                continue;
            }
            csv.append(String.format(
                    Locale.ROOT,
                    "%.1f,%.3f,,%.0f,%n",
                    Duration.between(start, sample.at()).toMillis() / 1000.0,
                    sample.cpuUsage() * sample.availableCpus(),
                    sample.liveThreads()));
        }
        Files.writeString(file, csv);
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new IllegalArgumentException("kubectl printed no JSON: " + e.getMessage());
        }
    }

    /** A kept file, refused when it inflates beyond {@link #INFLATED_LIMIT}. */
    static byte[] gunzip(byte[] compressed, String key) {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(compressed))) {
            byte[] bytes = in.readNBytes(INFLATED_LIMIT + 1);
            if (bytes.length > INFLATED_LIMIT) {
                throw new IllegalArgumentException("the kept file " + key + " inflates beyond "
                        + INFLATED_LIMIT / (1024 * 1024) + " MiB: it is not what the operator wrote");
            }
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException("the kept file " + key + " is not gzip: " + e.getMessage(), e);
        }
    }
}
