package dev.stackbench.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stackbench.api.run.BackendSpec;
import dev.stackbench.api.run.BenchmarkRunDefaults;
import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.run.CapacitySpec;
import dev.stackbench.api.run.DatabaseSpec;
import dev.stackbench.api.run.ExternalDatabaseSpec;
import dev.stackbench.api.run.LoadSpec;
import dev.stackbench.api.run.SecretKeysRef;
import dev.stackbench.api.run.TargetSpec;
import dev.stackbench.api.run.WorkloadSpec;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The API server applies the CRD's defaults and local mode applies {@link BenchmarkRunDefaults}; both must agree, or
 * the same YAML would run differently on a cluster and on one machine.
 */
class CrdDefaultsTest {

    @Test
    void javaDefaultsEqualTheDefaultsInTheGeneratedSchema() throws IOException {
        JsonNode crd = BenchmarkRuns.yamlMapper()
                .readTree(CrdDriftTest.generatedCrd(CrdDriftTest.CRD_FILE).toFile());
        JsonNode specSchema = crd.at("/spec/versions/0/schema/openAPIV3Schema/properties/spec");
        Map<String, JsonNode> schemaDefaults = new LinkedHashMap<>();
        collectDefaults(specSchema, "spec", schemaDefaults);

        // The database is either the run's own (sized by resources) or an external one: one spec of each kind.
        BenchmarkRunSpec ownDatabase = new BenchmarkRunSpec()
                .withTarget(new TargetSpec())
                .withWorkload(new WorkloadSpec().withLoad(new LoadSpec()).withCapacity(new CapacitySpec()));
        BenchmarkRunSpec externalDatabase = new BenchmarkRunSpec()
                .withTarget(new TargetSpec())
                .withBackend(new BackendSpec()
                        .withDatabase(new DatabaseSpec()
                                .withExternal(new ExternalDatabaseSpec().withSecretRef(new SecretKeysRef()))))
                .withWorkload(new WorkloadSpec().withLoad(new LoadSpec()));

        assertThat(schemaDefaults).isNotEmpty();
        schemaDefaults.forEach((path, value) -> {
            BenchmarkRunSpec spec = path.startsWith("spec.backend.database.external") ? externalDatabase : ownDatabase;
            ObjectNode defaulted = BenchmarkRuns.yamlMapper()
                    .createObjectNode()
                    .set("spec", BenchmarkRuns.yamlMapper().valueToTree(BenchmarkRunDefaults.apply(spec)));
            assertThat(defaulted.at("/" + path.replace('.', '/')))
                    .as("Java default of %s (CRD default %s)", path, value)
                    .isEqualTo(value);
        });
    }

    private static void collectDefaults(JsonNode schema, String path, Map<String, JsonNode> defaults) {
        if (schema.has("default")) {
            defaults.put(path, schema.get("default"));
        }
        JsonNode properties = schema.path("properties");
        for (Map.Entry<String, JsonNode> property : properties.properties()) {
            collectDefaults(property.getValue(), path + "." + property.getKey(), defaults);
        }
    }
}
