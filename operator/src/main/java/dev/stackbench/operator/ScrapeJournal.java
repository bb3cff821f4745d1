package dev.stackbench.operator;

import dev.stackbench.api.run.BenchmarkRun;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPInputStream;

/**
 * The scrapes of a running run (the target's metrics, the delay service's CPU ticks and the pods' CPU counters), kept in a ConfigMap the run owns,
 * so that an operator that restarts in the middle of a run picks them up and still summarises the whole measured
 * window. Written at most every {@link #INTERVAL} by the scraper's clock, compressed. The ConfigMap carries the run's
 * label but not the managed-by label the operator's informers select on: its frequent writes must not wake the
 * reconciler. It goes with the run's cleanup, and with the run (owner reference).
 */
public final class ScrapeJournal {

    static final java.time.Duration INTERVAL = java.time.Duration.ofSeconds(10);
    static final String TARGET_KEY = "target.tsv.gz";
    static final String CPU_KEY = "cpu.txt.gz";
    static final String BACKEND_KEY = "backend.tsv.gz";

    /** The most a journal's stored (compressed, base64) value may hold: a whole ConfigMap holds at most 1 MiB. */
    static final int STORED_LIMIT = 2 * 1024 * 1024;

    /**
     * The most a journal's text may inflate to: the scrapes of a run are decimated ({@code TargetMetrics}) far below
     * this, whatever its length.
     */
    static final int INFLATED_LIMIT = 32 * 1024 * 1024;

    /**
     * What a journal holds, as text: the target's scrapes, the pods' CPU readings and the delay-service pods' scrapes
     * of their machine's CPU ticks (empty in a journal written before they were kept).
     */
    record Saved(String target, String cpu, String backend) {}

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ScrapeJournal.class);

    private final KubernetesClient client;

    ScrapeJournal(KubernetesClient client) {
        this.client = client;
    }

    /** The journal's ConfigMap: public for the run's cleanup, which deletes it by name. */
    public static String name(BenchmarkRun run) {
        return run.getMetadata().getName() + "-scrapes";
    }

    void save(BenchmarkRun run, String target, String cpu, String backend) {
        Map<String, String> binary = new LinkedHashMap<>();
        binary.put(TARGET_KEY, gzip(target));
        binary.put(CPU_KEY, gzip(cpu));
        binary.put(BACKEND_KEY, gzip(backend));
        UnwatchedConfigMaps.apply(client, run, name(run), Map.of(), Map.of(), binary);
    }

    /** The journal of the run, if an earlier operator process wrote one. */
    Optional<Saved> load(BenchmarkRun run) {
        try {
            ConfigMap configMap = client.configMaps()
                    .inNamespace(run.getMetadata().getNamespace())
                    .withName(name(run))
                    .get();
            if (configMap == null || configMap.getBinaryData() == null) {
                return Optional.empty();
            }
            // A ConfigMap of the same name left by an earlier run of the same name belongs to another uid.
            if (!UnwatchedConfigMaps.ownedBy(configMap, run)) {
                return Optional.empty();
            }
            Map<String, String> data = configMap.getBinaryData();
            return Optional.of(
                    new Saved(gunzip(data.get(TARGET_KEY)), gunzip(data.get(CPU_KEY)), gunzip(data.get(BACKEND_KEY))));
        } catch (KubernetesClientException | UncheckedIOException e) {
            LOG.warn(
                    "run {}/{}: cannot read the scrape journal {}: {}",
                    run.getMetadata().getNamespace(),
                    run.getMetadata().getName(),
                    name(run),
                    e.getMessage());
            return Optional.empty();
        }
    }

    void delete(BenchmarkRun run) {
        client.configMaps()
                .inNamespace(run.getMetadata().getNamespace())
                .withName(name(run))
                .delete();
    }

    static String gzip(String text) {
        return Base64.getEncoder().encodeToString(UnwatchedConfigMaps.gzip(text));
    }

    /**
     * The journal's text, refused as damaged when its stored form is larger than a ConfigMap can hold or when it
     * inflates beyond {@link #INFLATED_LIMIT}: a ConfigMap of that name is writable by whoever may edit the namespace,
     * and a small gzip bomb in it would otherwise fill the operator's heap at its next start.
     */
    static String gunzip(String base64) {
        if (base64 == null || base64.isEmpty()) {
            return "";
        }
        if (base64.length() > STORED_LIMIT) {
            throw damaged("it holds " + BoundedReads.size(base64.length()) + ", more than a ConfigMap can ("
                    + BoundedReads.size(STORED_LIMIT) + ")");
        }
        try (GZIPInputStream in =
                new GZIPInputStream(new ByteArrayInputStream(Base64.getDecoder().decode(base64)))) {
            return BoundedReads.whole(in, INFLATED_LIMIT, "its uncompressed text");
        } catch (IOException | IllegalArgumentException | BoundedReads.TooLarge e) {
            throw damaged(e.getMessage());
        } catch (UncheckedIOException e) {
            throw damaged(e.getCause().getMessage());
        }
    }

    private static UncheckedIOException damaged(String why) {
        return new UncheckedIOException(new IOException("the scrape journal is damaged: " + why
                + "; delete the ConfigMap (the run keeps the scrapes taken from now on)"));
    }
}
