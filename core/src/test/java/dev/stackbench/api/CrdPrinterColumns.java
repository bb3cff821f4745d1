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
 * fabric8's crd-generator sorts printer columns by JSON path, which would make {@code kubectl get benchmarkruns} print
 * AGE first. The committed CRD is the generated one with its columns in the order {@link BenchmarkRun} declares them;
 * nothing else changes.
 */
final class CrdPrinterColumns {

    static final String HEADER = "# Generated from dev.stackbench.api by fabric8's crd-generator, printer columns in"
            + " declaration order.\n# Do not edit: change the Java classes and run hack/update-crds.sh.\n";

    private static final ObjectMapper YAML = YAMLMapper.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .build();

    private CrdPrinterColumns() {}

    /** The generated CRD with every version's additionalPrinterColumns in annotation order. */
    static String inDeclarationOrder(String generatedCrd) {
        try {
            JsonNode crd = YAML.readTree(generatedCrd);
            List<String> order = Arrays.stream(BenchmarkRun.class.getAnnotationsByType(AdditionalPrinterColumn.class))
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

    private static int position(List<String> order, JsonNode column) {
        int index = order.indexOf(column.path("name").asText());
        return index < 0 ? order.size() : index;
    }
}
