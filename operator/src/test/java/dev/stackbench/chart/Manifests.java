package dev.stackbench.chart;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;

/** The Kubernetes objects `helm template` rendered, parsed, with lookups by kind and name. */
record Manifests(String yaml, List<JsonNode> objects) {

    private static final YAMLMapper YAML = new YAMLMapper();
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    static Manifests parse(String yaml) {
        List<JsonNode> objects = new ArrayList<>();
        try (var parser = new YAMLFactory().createParser(yaml)) {
            var iterator = YAML.readValues(parser, JsonNode.class);
            while (iterator.hasNext()) {
                JsonNode node = iterator.next();
                if (node != null && node.isObject() && node.has("kind")) {
                    objects.add(node);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("helm rendered YAML that does not parse:\n" + yaml, e);
        }
        return new Manifests(yaml, List.copyOf(objects));
    }

    List<JsonNode> ofKind(String kind) {
        return objects.stream()
                .filter(o -> kind.equals(o.path("kind").asText()))
                .toList();
    }

    Optional<JsonNode> find(String kind, String name) {
        return ofKind(kind).stream()
                .filter(o -> name.equals(o.path("metadata").path("name").asText()))
                .findFirst();
    }

    JsonNode get(String kind, String name) {
        return find(kind, name)
                .orElseThrow(() -> new NoSuchElementException(
                        "no " + kind + " named " + name + " in the rendered chart; kinds present: " + kinds()));
    }

    List<String> kinds() {
        return objects.stream()
                .map(o -> o.path("kind").asText() + "/"
                        + o.path("metadata").path("name").asText())
                .toList();
    }

    /** Converts one rendered object into its fabric8 model class, for typed assertions. */
    static <T> T as(JsonNode node, Class<T> type) {
        return JSON.convertValue(node, type);
    }
}
