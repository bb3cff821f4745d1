package dev.stackbench.operator;

import dev.stackbench.api.run.BenchmarkRun;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a run leaves behind for its report once cleanup has deleted its pods: the generated k6 script, every runner's
 * k6 summary, the runners' per-second counts (from k6's own sample time stamps), the target's sampled metrics and the
 * pods' CPU readings, gzip-compressed, in one ConfigMap the run owns ({@code <run>-results}).
 *
 * <p>Why a ConfigMap: it needs no storage class, no Prometheus and no rights beyond those the operator has, it goes
 * with the run (owner reference) and not with its cleanup (it does not carry the managed-by label cleanup selects),
 * and {@code stackbench report -n NAMESPACE benchmarkrun/NAME} reads it with the user's own rights. Its bound is a
 * ConfigMap's: the entries are added in order of importance until {@link #BUDGET} stored bytes, and {@value #INDEX_KEY}
 * lists what was kept and what was left out for want of room. A stepped run adds each step's entries, prefixed
 * {@code step-NN.}, to the same ConfigMap.
 */
public final class RunArtifacts {

    /** The most the entries may take stored (base64): a ConfigMap holds at most 1 MiB in all. */
    static final int BUDGET = 900 * 1024;

    /** The plain-text list of the entries kept and left out. */
    public static final String INDEX_KEY = "index.txt";

    /** The label that marks the ConfigMap as a run's results. */
    public static final String RESULTS_LABEL = "stackbench.dev/results";

    /** One file: its name and its content, gzip-compressed already or to be. */
    public record Entry(String name, byte[] gzipped) {

        public static Entry text(String name, String text) {
            return new Entry(name, gzip(text));
        }
    }

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RunArtifacts.class);

    private final KubernetesClient client;

    public RunArtifacts(KubernetesClient client) {
        this.client = client;
    }

    public static String name(BenchmarkRun run) {
        return run.getMetadata().getName() + "-results";
    }

    /**
     * Adds the entries of one load to the run's ConfigMap, {@code prefix} before each name ("" for the run's own
     * load). Never fails the run: a write that fails is logged, the results in the status stand without it.
     */
    public void save(BenchmarkRun run, String prefix, List<Entry> entries) {
        try {
            ConfigMap existing = client.configMaps()
                    .inNamespace(run.getMetadata().getNamespace())
                    .withName(name(run))
                    .get();
            boolean ours = UnwatchedConfigMaps.ownedBy(existing, run);
            Map<String, String> stored = new TreeMap<>();
            StringBuilder index = new StringBuilder();
            if (ours && existing.getBinaryData() != null) {
                stored.putAll(existing.getBinaryData());
                if (existing.getData() != null && existing.getData().get(INDEX_KEY) != null) {
                    index.append(existing.getData().get(INDEX_KEY));
                }
            }
            fill(stored, index, prefix, entries);
            UnwatchedConfigMaps.apply(
                    client, run, name(run), Map.of(RESULTS_LABEL, "true"), Map.of(INDEX_KEY, index.toString()), stored);
        } catch (RuntimeException e) {
            LOG.warn(
                    "run {}/{}: cannot keep its results in ConfigMap {}: {}",
                    run.getMetadata().getNamespace(),
                    run.getMetadata().getName(),
                    name(run),
                    e.toString());
        }
    }

    /** Adds the entries in order while they fit the budget; the index says what went where. */
    static void fill(Map<String, String> stored, StringBuilder index, String prefix, List<Entry> entries) {
        int used = stored.values().stream().mapToInt(String::length).sum();
        for (Entry entry : entries) {
            String key = prefix + entry.name();
            String value = Base64.getEncoder().encodeToString(entry.gzipped());
            int previous = stored.containsKey(key) ? stored.get(key).length() : 0;
            if (used - previous + value.length() > BUDGET) {
                index.append("left out ")
                        .append(key)
                        .append(": ")
                        .append(entry.gzipped().length)
                        .append(" bytes compressed, more than the ")
                        .append(BUDGET - used + previous)
                        .append(" left of the ConfigMap's ")
                        .append(BUDGET)
                        .append('\n');
                continue;
            }
            stored.put(key, value);
            used += value.length() - previous;
            index.append("kept ")
                    .append(key)
                    .append(": ")
                    .append(entry.gzipped().length)
                    .append(" bytes compressed\n");
        }
    }

    static byte[] gzip(String text) {
        return UnwatchedConfigMaps.gzip(text);
    }
}
