package dev.stackbench.chart;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.stackbench.testcluster.CommandResult;
import dev.stackbench.testcluster.ProjectTools;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Offline schema validation with kubeconform in strict mode (unknown fields are errors): built-in kinds against
 * the Kubernetes JSON schemas hack/setup.sh unpacked, custom resources against schemas derived from their CRDs
 * (stackbench's own from crds/, ServiceMonitor and friends from the prometheus-operator module).
 */
final class Kubeconform implements AutoCloseable {

    private static final YAMLMapper YAML = new YAMLMapper();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Path kubeconform;
    private final Path kubernetesSchemas;
    private final Path customSchemas;

    private Kubeconform(Path kubeconform, Path kubernetesSchemas, Path customSchemas) {
        this.kubeconform = kubeconform;
        this.kubernetesSchemas = kubernetesSchemas;
        this.customSchemas = customSchemas;
    }

    /**
     * With the CRDs in each of the given directories too (one CRD a file), e.g. those a dependency chart brings;
     * they take precedence over the prometheus-operator module's for the same kind and version.
     */
    static Kubeconform create(List<Path> crdDirectories) {
        Path kubeconform = ProjectTools.requireExecutable("STACKBENCH_KUBECONFORM", "kubeconform");
        Path kubernetesSchemas = toolDirectory("STACKBENCH_KUBE_SCHEMAS", "the Kubernetes JSON schemas");
        Path prometheusCrds = toolDirectory("STACKBENCH_PROMETHEUS_CRDS", "the prometheus-operator CRDs");
        try {
            Path customSchemas = Files.createTempDirectory("stackbench-crd-schemas-");
            List<Path> crds = new ArrayList<>();
            try (var files = Files.list(ProjectTools.repositoryRoot().resolve("crds"))) {
                files.filter(f -> f.toString().endsWith(".yml") || f.toString().endsWith(".yaml"))
                        .forEach(crds::add);
            }
            crds.add(prometheusCrds.resolve("monitoring.coreos.com_servicemonitors.yaml"));
            crds.add(prometheusCrds.resolve("monitoring.coreos.com_podmonitors.yaml"));
            for (Path directory : crdDirectories) {
                try (var files = Files.list(directory)) {
                    files.filter(f -> f.toString().endsWith(".yaml")).sorted().forEach(crds::add);
                }
            }
            for (Path crd : crds) {
                writeSchemas(YAML.readTree(crd.toFile()), customSchemas);
            }
            return new Kubeconform(kubeconform, kubernetesSchemas, customSchemas);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the CRD schemas for kubeconform", e);
        }
    }

    /** Validates every object in the YAML; the result fails when any object is invalid or has no schema. */
    CommandResult validate(String yaml) {
        try {
            Path file = Files.createTempFile(customSchemas, "manifests-", ".yaml");
            Files.writeString(file, yaml);
            return Commands.run(
                    List.of(
                            kubeconform.toString(),
                            "-strict",
                            "-summary",
                            "-schema-location",
                            kubernetesSchemas + "/{{ .ResourceKind }}{{ .KindSuffix }}.json",
                            "-schema-location",
                            customSchemas + "/{{ .Group }}/{{ .ResourceKind }}_{{ .ResourceAPIVersion }}.json",
                            file.toString()),
                    customSchemas,
                    Duration.ofMinutes(2));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write manifests for kubeconform", e);
        }
    }

    @Override
    public void close() {
        Commands.deleteTree(customSchemas);
    }

    private static Path toolDirectory(String variable, String description) {
        Path path = ProjectTools.toolSetting(variable)
                .map(Path::of)
                .orElseThrow(() -> new IllegalStateException(
                        description + " are not installed (" + variable + " is not set): run hack/setup.sh"));
        if (!Files.isDirectory(path)) {
            throw new IllegalStateException(description + " are missing at " + path + ": run hack/setup.sh");
        }
        return path;
    }

    /** One JSON schema per served version of the CRD, at {@code <group>/<kind>_<version>.json}. */
    private static void writeSchemas(JsonNode crd, Path directory) throws IOException {
        String group = crd.path("spec").path("group").asText();
        String kind = crd.path("spec").path("names").path("kind").asText().toLowerCase(Locale.ROOT);
        Files.createDirectories(directory.resolve(group));
        for (JsonNode version : crd.path("spec").path("versions")) {
            ObjectNode schema = version.path("schema").path("openAPIV3Schema").deepCopy();
            // Every object carries these; CRD schemas may leave them out because the API server adds them.
            ObjectNode properties = schema.withObjectProperty("properties");
            properties.putIfAbsent("apiVersion", JSON.createObjectNode().put("type", "string"));
            properties.putIfAbsent("kind", JSON.createObjectNode().put("type", "string"));
            properties.putIfAbsent("metadata", JSON.createObjectNode().put("type", "object"));
            closeObjects(schema);
            Path file = directory
                    .resolve(group)
                    .resolve(kind + "_" + version.path("name").asText() + ".json");
            JSON.writeValue(file.toFile(), schema);
        }
    }

    /**
     * Strict like the API server's pruning: an object schema listing its properties accepts no others, unless
     * it says it keeps unknown fields. The API server drops unknown fields silently; kubeconform reports them.
     */
    private static void closeObjects(JsonNode schema) {
        if (!(schema instanceof ObjectNode object)) {
            return;
        }
        if (object.has("properties")
                && !object.has("additionalProperties")
                && !object.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
            object.put("additionalProperties", false);
        }
        object.path("properties").forEach(Kubeconform::closeObjects);
        closeObjects(object.get("items"));
        closeObjects(object.get("additionalProperties"));
        for (String combinator : List.of("allOf", "anyOf", "oneOf")) {
            object.path(combinator).forEach(Kubeconform::closeObjects);
        }
    }
}
