package dev.stackbench.operator;

import dev.stackbench.operator.objects.K6TestRun;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the test stand-ins for k6-operator share: a TestRun's stage, the runner Job k6-operator makes for runner n
 * ({@code <testrun>-<n>}, controlled by the TestRun, its pod labelled, placed and sized as the TestRun's spec.runner
 * says), and the TestRun's spec as maps.
 */
final class TestRunJobs {

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
            new com.fasterxml.jackson.databind.ObjectMapper();

    private TestRunJobs() {}

    /** What a stand-in does with one TestRun in one pass. */
    interface Reconcile {
        void reconcile(GenericKubernetesResource testRun) throws Exception;
    }

    /**
     * One pass over every TestRun of the namespace; the first failure ends the pass and is returned (and printed,
     * named after {@code standIn}), so the test can report it rather than time out.
     */
    static Throwable reconcileAll(KubernetesClient client, String namespace, String standIn, Reconcile reconcile) {
        try {
            for (GenericKubernetesResource testRun : client.genericKubernetesResources(K6TestRun.CONTEXT)
                    .inNamespace(namespace)
                    .list()
                    .getItems()) {
                reconcile.reconcile(testRun);
            }
            return null;
        } catch (Throwable e) {
            System.err.println(standIn + ": " + e);
            return e;
        }
    }

    /** Sets the TestRun's status.stage, as k6-operator does. */
    static void setStage(KubernetesClient client, String namespace, String testRun, String stage) {
        client.genericKubernetesResources(K6TestRun.CONTEXT)
                .inNamespace(namespace)
                .withName(testRun)
                .editStatus(resource -> {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> status = (Map<String, Object>) resource.getAdditionalProperties()
                            .computeIfAbsent("status", key -> new LinkedHashMap<String, Object>());
                    status.put("stage", stage);
                    return resource;
                });
    }

    /** The TestRun's spec. */
    static Map<String, Object> spec(GenericKubernetesResource testRun) {
        return map(testRun.getAdditionalProperties().get("spec"));
    }

    static int parallelism(GenericKubernetesResource testRun) {
        return ((Number) spec(testRun).get("parallelism")).intValue();
    }

    /**
     * Runner n's Job of the TestRun, its pod running {@code command} (none: the image's) with {@code annotations}.
     */
    static Job runnerJob(
            GenericKubernetesResource testRun, int n, List<String> command, Map<String, String> annotations) {
        Map<String, Object> runner = map(spec(testRun).getOrDefault("runner", Map.of()));
        String name = testRun.getMetadata().getName();
        Map<String, String> labels = new LinkedHashMap<>();
        map(map(runner.getOrDefault("metadata", Map.of())).getOrDefault("labels", Map.of()))
                .forEach((key, value) -> labels.put(key, (String) value));
        labels.putAll(RunLabels.runnerPods(name));
        Map<String, String> nodeSelector = new HashMap<>();
        map(runner.getOrDefault("nodeSelector", Map.of()))
                .forEach((key, value) -> nodeSelector.put(key, (String) value));
        return new JobBuilder()
                .withNewMetadata()
                .withName(name + "-" + n)
                .withNamespace(testRun.getMetadata().getNamespace())
                .withLabels(RunLabels.runnerPods(name))
                .withOwnerReferences(controlledBy(testRun))
                .endMetadata()
                .withNewSpec()
                .withBackoffLimit(0)
                .withNewTemplate()
                .withNewMetadata()
                .withLabels(labels)
                .withAnnotations(annotations)
                .endMetadata()
                .withNewSpec()
                .withRestartPolicy("Never")
                .withNodeSelector(nodeSelector)
                .withTolerations(
                        List.of(JSON.convertValue(runner.getOrDefault("tolerations", List.of()), Toleration[].class)))
                .addNewContainer()
                .withName("k6")
                .withImage((String) runner.getOrDefault("image", "grafana/k6:latest"))
                .withCommand(command)
                .withEnv(List.of(JSON.convertValue(runner.getOrDefault("env", List.of()), EnvVar[].class)))
                .withResources(
                        JSON.convertValue(runner.getOrDefault("resources", Map.of()), ResourceRequirements.class))
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }

    /** The TestRun as controller of a Job k6-operator creates for it, so deleting the TestRun deletes the Job. */
    static OwnerReference controlledBy(GenericKubernetesResource testRun) {
        return new OwnerReferenceBuilder()
                .withApiVersion(testRun.getApiVersion())
                .withKind(testRun.getKind())
                .withName(testRun.getMetadata().getName())
                .withUid(testRun.getMetadata().getUid())
                .withController(true)
                .build();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object value) {
        return value == null ? Map.of() : (Map<String, Object>) value;
    }
}
