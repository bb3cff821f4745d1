package dev.stackbench.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The committed CRD in crds/ must be exactly what the crd-generator produces from the api package in this build (with
 * the printer columns in declaration order, see {@link CrdPrinterColumns}); otherwise a cluster would validate
 * BenchmarkRuns against a schema the code no longer has. hack/update-crds.sh runs this test with
 * {@code -Dstackbench.updateCrds=true}, which writes crds/ instead of comparing.
 */
class CrdDriftTest {

    static final String CRD_FILE = "benchmarkruns.stackbench.dev-v1.yml";

    static Path generatedCrd() {
        return Path.of("target", "classes", "META-INF", "fabric8", CRD_FILE);
    }

    static Path committedCrd() {
        return Path.of("..", "crds", CRD_FILE);
    }

    @Test
    void committedCrdMatchesTheGeneratedOne() throws IOException {
        assertThat(generatedCrd())
                .as("the crd-generator-maven-plugin output; run the build through 'mvn verify' (process-classes)")
                .exists();
        String expected = CrdPrinterColumns.inDeclarationOrder(Files.readString(generatedCrd()));
        if (Boolean.getBoolean("stackbench.updateCrds")) {
            Files.createDirectories(committedCrd().getParent());
            Files.writeString(committedCrd(), expected);
        }
        assertThat(committedCrd())
                .as("crds/%s is missing: run hack/update-crds.sh and commit the result", CRD_FILE)
                .exists();

        assertThat(Files.readString(committedCrd()))
                .as(
                        "crds/%s differs from the CRD generated from dev.stackbench.api: run hack/update-crds.sh and"
                                + " commit crds/ (never edit the CRD by hand)",
                        CRD_FILE)
                .isEqualTo(expected);
    }

    @Test
    void printerColumnsFollowTheDeclarationOrder() throws IOException {
        List<String> names = BenchmarkRuns.yamlMapper()
                .readTree(committedCrd().toFile())
                .at("/spec/versions/0/additionalPrinterColumns")
                .findValuesAsText("name");

        assertThat(names).containsExactly("VARIANT", "PHASE", "RPS", "P95(ms)", "ERRORS", "THREADS", "AGE");
    }
}
