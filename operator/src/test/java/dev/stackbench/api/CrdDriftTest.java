package dev.stackbench.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The committed CRD in crds/ must be exactly what the crd-generator produces from the api package in this build;
 * otherwise a cluster would validate BenchmarkRuns against a schema the code no longer has.
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
        assertThat(committedCrd())
                .as("crds/%s is missing: run hack/update-crds.sh and commit the result", CRD_FILE)
                .exists();

        String generated = Files.readString(generatedCrd());
        String committed = Files.readString(committedCrd());

        assertThat(committed)
                .as("crds/%s differs from the CRD generated from dev.stackbench.api: run hack/update-crds.sh and"
                        + " commit crds/ (never edit the CRD by hand)", CRD_FILE)
                .isEqualTo(generated);
    }
}
