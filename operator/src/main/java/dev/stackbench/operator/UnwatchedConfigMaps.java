package dev.stackbench.operator;

import dev.stackbench.api.run.BenchmarkRun;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * ConfigMaps the operator keeps for a run beside its objects (the scrape journal, the kept results): owned by the run,
 * labelled with it, but without the managed-by label the operator's informers select on, so that writing them does
 * not wake the reconciler and the run's cleanup (which selects on it) leaves them to whoever deletes them by name.
 */
final class UnwatchedConfigMaps {

    private UnwatchedConfigMaps() {}

    /** Applies the whole ConfigMap (server-side, this operator's field manager). */
    static void apply(
            KubernetesClient client,
            BenchmarkRun run,
            String name,
            Map<String, String> extraLabels,
            Map<String, String> data,
            Map<String, String> binaryData) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(RunLabels.RUN, run.getMetadata().getName());
        labels.put(RunLabels.INSTANCE, run.getMetadata().getName());
        labels.putAll(extraLabels);
        ConfigMap configMap = new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(run.getMetadata().getNamespace())
                .withLabels(labels)
                .withOwnerReferences(RunLabels.ownerReference(run))
                .endMetadata()
                .withData(data)
                .withBinaryData(binaryData)
                .build();
        client.configMaps()
                .inNamespace(run.getMetadata().getNamespace())
                .resource(configMap)
                .fieldManager(RunEvents.COMPONENT)
                .forceConflicts()
                .serverSideApply();
    }

    /** Whether a ConfigMap found under the run's name is the run's own (not one left by an earlier run's uid). */
    static boolean ownedBy(ConfigMap configMap, BenchmarkRun run) {
        return configMap != null
                && configMap.getMetadata().getOwnerReferences() != null
                && configMap.getMetadata().getOwnerReferences().stream()
                        .anyMatch(owner -> run.getMetadata().getUid().equals(owner.getUid()));
    }

    static byte[] gzip(String text) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
