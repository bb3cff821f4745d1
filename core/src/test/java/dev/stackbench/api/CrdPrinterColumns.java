package dev.stackbench.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Two corrections to what fabric8's crd-generator writes, and nothing else:
 * <ul>
 *   <li>it sorts printer columns by JSON path, which would make {@code kubectl get benchmarkruns} print AGE first: the
 *       committed CRD has them in the order the resource class declares them;
 *   <li>a {@code @SchemaSwap} that removes a field (BenchmarkComparison's template drops the target's variant and
 *       image) leaves the field's {@code @Required} in the schema's {@code required}, which no object could then
 *       satisfy: a required name the schema has no property of is dropped.
 * </ul>
 */
final class CrdPrinterColumns {

    static final String HEADER = "# Generated from dev.stackbench.api by fabric8's crd-generator, printer columns in"
            + " declaration order.\n# Do not edit: change the Java classes and run hack/update-crds.sh.\n";

    private static final ObjectMapper YAML = YAMLMapper.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .build();

    private CrdPrinterColumns() {}

    /**
     * The generated CRD of {@code resource} with every version's additionalPrinterColumns in annotation order and no
     * required field its schema lacks.
     */
    static String inDeclarationOrder(String generatedCrd, Class<?> resource) {
        try {
            JsonNode crd = YAML.readTree(generatedCrd);
            dropRequiredWithoutProperty(crd);
            List<String> order = Arrays.stream(resource.getAnnotationsByType(AdditionalPrinterColumn.class))
                    .map(AdditionalPrinterColumn::name)
                    .toList();
            for (JsonNode version : crd.path("spec").path("versions")) {
                JsonNode columns = version.path("additionalPrinterColumns");
                if (!columns.isArray()) {
                    continue;
                }
                List<JsonNode> sorted = new ArrayList<>();
                columns.forEach(sorted::add);
                sorted.sort((left, right) -> Integer.compare(position(order, left), position(order, right)));
                ArrayNode reordered = ((ObjectNode) version).putArray("additionalPrinterColumns");
                sorted.forEach(reordered::add);
            }
            return HEADER + YAML.writeValueAsString(crd);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the generated CRD", e);
        }
    }

    private static void dropRequiredWithoutProperty(JsonNode node) {
        if (node.isObject()) {
            JsonNode required = node.get("required");
            JsonNode properties = node.get("properties");
            if (required != null && required.isArray() && properties != null && properties.isObject()) {
                ArrayNode kept = ((ObjectNode) node).putArray("required");
                required.forEach(name -> {
                    if (properties.has(name.asText())) {
                        kept.add(name);
                    }
                });
                if (kept.isEmpty()) {
                    ((ObjectNode) node).remove("required");
                }
            }
        }
        node.forEach(CrdPrinterColumns::dropRequiredWithoutProperty);
    }

    private static int position(List<String> order, JsonNode column) {
        int index = order.indexOf(column.path("name").asText());
        return index < 0 ? order.size() : index;
    }
}
