package dev.stackbench.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.comparison.BenchmarkComparison;
import dev.stackbench.api.run.BenchmarkRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The committed CRDs in crds/ must be exactly what the crd-generator produces from the api package in this build (with
 * the printer columns in declaration order, see {@link CrdPrinterColumns}); otherwise a cluster would validate
 * BenchmarkRuns and BenchmarkComparisons against a schema the code no longer has. hack/update-crds.sh runs this test
 * with {@code -Dstackbench.updateCrds=true}, which writes crds/ instead of comparing.
 */
class CrdDriftTest {

    static final String CRD_FILE = "benchmarkruns.stackbench.dev-v1.yml";
    static final String COMPARISON_CRD_FILE = "benchmarkcomparisons.stackbench.dev-v1.yml";

    static Path generatedCrd(String file) {
        return Path.of("target", "classes", "META-INF", "fabric8", file);
    }

    static Path committedCrd(String file) {
        return Path.of("..", "crds", file);
    }

    @ParameterizedTest
    @ValueSource(strings = {CRD_FILE, COMPARISON_CRD_FILE})
    void committedCrdMatchesTheGeneratedOne(String file) throws IOException {
        assertThat(generatedCrd(file))
                .as("the crd-generator-maven-plugin output; run the build through 'mvn verify' (process-classes)")
                .exists();
        String expected = CrdPrinterColumns.inDeclarationOrder(
                Files.readString(generatedCrd(file)),
                file.equals(CRD_FILE) ? BenchmarkRun.class : BenchmarkComparison.class);
        if (Boolean.getBoolean("stackbench.updateCrds")) {
            Files.createDirectories(committedCrd(file).getParent());
            Files.writeString(committedCrd(file), expected);
        }
        assertThat(committedCrd(file))
                .as("crds/%s is missing: run hack/update-crds.sh and commit the result", file)
                .exists();

        assertThat(Files.readString(committedCrd(file)))
                .as(
                        "crds/%s differs from the CRD generated from dev.stackbench.api: run hack/update-crds.sh and"
                                + " commit crds/ (never edit the CRD by hand)",
                        file)
                .isEqualTo(expected);
    }

    @Test
    void printerColumnsFollowTheDeclarationOrder() throws IOException {
        assertThat(columns(CRD_FILE))
                .containsExactly(
                        "VARIANT",
                        "PHASE",
                        "RPS",
                        "P95(ms)",
                        "ERRORS",
                        "THREADS",
                        "CAPACITY",
                        "LIMITED-BY",
                        "LIVE",
                        "AGE");
        assertThat(columns(COMPARISON_CRD_FILE))
                .containsExactly("BASELINE", "VARIANTS", "RUNS", "PHASE", "VERDICT", "LIVE", "AGE");
    }

    @Test
    void aComparisonTemplateNamesNoVariantOrImage() throws IOException {
        var template = BenchmarkRuns.yamlMapper()
                .readTree(committedCrd(COMPARISON_CRD_FILE).toFile())
                .at("/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/template/properties/target");

        assertThat(template.at("/properties").has("resources")).isTrue();
        assertThat(template.at("/properties").has("variant")).isFalse();
        assertThat(template.at("/properties").has("image")).isFalse();
        assertThat(template.has("required"))
                .as("variant is no longer required in the template")
                .isFalse();
    }

    private static List<String> columns(String file) throws IOException {
        return BenchmarkRuns.yamlMapper()
                .readTree(committedCrd(file).toFile())
                .at("/spec/versions/0/additionalPrinterColumns")
                .findValuesAsText("name");
    }
}
