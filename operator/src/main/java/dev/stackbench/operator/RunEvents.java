package dev.stackbench.operator;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Locale;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Kubernetes Events on a BenchmarkRun or BenchmarkComparison (kubectl describe shows them), one per step taken. */
public final class RunEvents {

    private static final Logger LOG = LoggerFactory.getLogger(RunEvents.class);
    /** The operator as the source of Events and the field manager of its applies. */
    public static final String COMPONENT = "stackbench-operator";

    private static final HexFormat HEX = HexFormat.of();

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

    /**
     * Records a step once, however often it is announced with the same {@code key}: the Event's name comes from the
     * key, and an Event that exists already is left as it is. A pass that announces its steps and then dies (or loses
     * its status write) is repeated from the same run, with the same keys, and so cannot announce them twice.
     */
    public void once(HasMetadata run, boolean warning, String reason, String message, String key) {
        String name = run.getMetadata().getName() + "." + hash(key);
        record(run, warning ? "Warning" : "Normal", reason, message, name);
    }

    private void record(HasMetadata run, String type, String reason, String message) {
        record(
                run,
                type,
                reason,
                message,
                run.getMetadata().getName() + "."
                        + UUID.randomUUID().toString().substring(0, 8).toLowerCase(Locale.ROOT));
    }

    private void record(HasMetadata run, String type, String reason, String message, String name) {
        String now = Instant.now().toString();
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
            if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
                // Announced already, by a pass repeated from the same run (RunEvents#once).
                return;
            }
            // An event is an explanation, not state: losing one must not fail the run.
            LOG.warn(
                    "cannot record event {} on {}: {}",
                    reason,
                    run.getMetadata().getName(),
                    e.getMessage());
        }
    }

    private static String hash(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return HEX.formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
