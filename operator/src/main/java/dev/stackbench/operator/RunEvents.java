package dev.stackbench.operator;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.util.Locale;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Kubernetes Events on a BenchmarkRun or BenchmarkComparison (kubectl describe shows them), one per step taken. */
public final class RunEvents {

    private static final Logger LOG = LoggerFactory.getLogger(RunEvents.class);
    /** The operator as the source of Events and the field manager of its applies. */
    public static final String COMPONENT = "stackbench-operator";

    private final KubernetesClient client;

    public RunEvents(KubernetesClient client) {
        this.client = client;
    }

    public void normal(HasMetadata run, String reason, String message) {
        record(run, "Normal", reason, message);
    }

    public void warning(HasMetadata run, String reason, String message) {
        record(run, "Warning", reason, message);
    }

    private void record(HasMetadata run, String type, String reason, String message) {
        String now = Instant.now().toString();
        String name = run.getMetadata().getName() + "."
                + UUID.randomUUID().toString().substring(0, 8).toLowerCase(Locale.ROOT);
        try {
            client.v1()
                    .events()
                    .inNamespace(run.getMetadata().getNamespace())
                    .resource(new EventBuilder()
                            .withNewMetadata()
                            .withName(name)
                            .withNamespace(run.getMetadata().getNamespace())
                            .endMetadata()
                            .withInvolvedObject(new ObjectReferenceBuilder()
                                    .withApiVersion(run.getApiVersion())
                                    .withKind(run.getKind())
                                    .withNamespace(run.getMetadata().getNamespace())
                                    .withName(run.getMetadata().getName())
                                    .withUid(run.getMetadata().getUid())
                                    .build())
                            .withType(type)
                            .withReason(reason)
                            .withMessage(message)
                            .withFirstTimestamp(now)
                            .withLastTimestamp(now)
                            .withCount(1)
                            .withNewSource()
                            .withComponent(COMPONENT)
                            .endSource()
                            .build())
                    .create();
        } catch (KubernetesClientException e) {
            // An event is an explanation, not state: losing one must not fail the run.
            LOG.warn(
                    "cannot record event {} on {}: {}",
                    reason,
                    run.getMetadata().getName(),
                    e.getMessage());
        }
    }
}
