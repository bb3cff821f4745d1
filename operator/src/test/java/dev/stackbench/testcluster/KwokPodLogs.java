package dev.stackbench.testcluster;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Container logs for pods on kwok's fake nodes. kwok answers the kubelet's containerLogs endpoint (which
 * `kubectl logs` and the pod log API reach through the API server) from the file a {@code Logs} object
 * names: kwok.x-k8s.io/v1alpha1, namespaced, named after the pod. The file must be in the CRI log format
 * the real kubelet reads ({@code <RFC 3339 time> stdout F <line>}), so plain text is converted here.
 */
final class KwokPodLogs {

    static final ResourceDefinitionContext LOGS = new ResourceDefinitionContext.Builder()
            .withGroup("kwok.x-k8s.io")
            .withVersion("v1alpha1")
            .withKind("Logs")
            .withPlural("logs")
            .withNamespaced(true)
            .build();

    private final KubernetesClient client;
    private final Path directory;

    KwokPodLogs(KubernetesClient client, Path directory) {
        this.client = client;
        this.directory = directory;
    }

    KubernetesClient client() {
        return client;
    }

    /** Writes content as a CRI log file kwok can serve and returns its path. */
    Path writeLogFile(String namespace, String name, String content) {
        Path file = directory.resolve(namespace).resolve(name + "-" + UUID.randomUUID() + ".log");
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, toCriLog(content, Instant.now()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write pod log file " + file, e);
        }
        return file;
    }

    /**
     * Points the pod's logs (all containers) at the file. With an owner pod, the Logs object is
     * garbage-collected together with the pod.
     */
    void register(String namespace, String podName, Path logFile, Pod owner) {
        GenericKubernetesResourceBuilder logs = new GenericKubernetesResourceBuilder()
                .withApiVersion(LOGS.getGroup() + "/" + LOGS.getVersion())
                .withKind(LOGS.getKind())
                .withNewMetadata()
                .withName(podName)
                .withNamespace(namespace)
                .endMetadata()
                .addToAdditionalProperties(
                        "spec", Map.of("logs", List.of(Map.of("logsFile", logFile.toString(), "follow", false))));
        if (owner != null) {
            logs.editMetadata().withOwnerReferences(ownerReference(owner)).endMetadata();
        }
        GenericKubernetesResource resource = logs.build();
        client.genericKubernetesResources(LOGS)
                .inNamespace(namespace)
                .resource(resource)
                .fieldManager("stackbench-test-cluster")
                .forceConflicts()
                .serverSideApply();
    }

    private static io.fabric8.kubernetes.api.model.OwnerReference ownerReference(HasMetadata owner) {
        return new OwnerReferenceBuilder()
                .withApiVersion(owner.getApiVersion() != null ? owner.getApiVersion() : "v1")
                .withKind(owner.getKind() != null ? owner.getKind() : "Pod")
                .withName(owner.getMetadata().getName())
                .withUid(owner.getMetadata().getUid())
                .build();
    }

    /**
     * Converts text to the CRI container log format, one record per line. A last line without a line
     * break becomes a partial record, so the log API returns the text exactly as given.
     */
    static String toCriLog(String content, Instant timestamp) {
        String prefix = DateTimeFormatter.ISO_INSTANT.format(timestamp) + " stdout ";
        StringBuilder cri = new StringBuilder(content.length() + 64);
        int start = 0;
        while (start < content.length()) {
            int end = content.indexOf('\n', start);
            if (end < 0) {
                cri.append(prefix)
                        .append("P ")
                        .append(content, start, content.length())
                        .append('\n');
                break;
            }
            cri.append(prefix).append("F ").append(content, start, end).append('\n');
            start = end + 1;
        }
        return cri.toString();
    }
}
