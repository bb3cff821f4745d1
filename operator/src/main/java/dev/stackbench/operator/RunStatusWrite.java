package dev.stackbench.operator;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.lifecycle.RunProgress;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/** The write of a pass's status, carrying the resourceVersion the pass started from. */
final class RunStatusWrite {

    private RunStatusWrite() {}

    /**
     * Stores the pass's status; false when the run changed since the pass read it (a conflict: the pass read a copy
     * older than the last status write and must be repeated on fresh data). Other failures are thrown.
     */
    static boolean store(RunProgress progress, KubernetesClient client) {
        BenchmarkRun update = new BenchmarkRun();
        update.setMetadata(new ObjectMetaBuilder()
                .withName(progress.run().getMetadata().getName())
                .withNamespace(progress.run().getMetadata().getNamespace())
                .withResourceVersion(progress.run().getMetadata().getResourceVersion())
                .build());
        update.setSpec(progress.run().getSpec());
        update.setStatus(progress.status());
        try {
            client.resources(BenchmarkRun.class)
                    .inNamespace(update.getMetadata().getNamespace())
                    .resource(update)
                    .updateStatus();
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
            return false;
        }
    }
}
