package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stackbench.catalogue.VariantCatalogue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchmarkFilesChecksTest {

    private static final String RUN = """
            apiVersion: stackbench.dev/v1alpha1
            kind: BenchmarkRun
            metadata:
              name: checked
            spec:
              target: {variant: webflux-r2dbc}
              workload:
                scenario: upstream
                upstreamDelay: 100ms
                load: {executor: constant-arrival-rate, rate: 10, vus: 10}
                warmup: 1s
                duration: 2s
            """;

    @Test
    void localModeRefusesPromQLChecksSayingWhy(@TempDir Path directory) throws Exception {
        Path file = directory.resolve("checked.yaml");
        Files.writeString(file, RUN + "  checks:\n  - {expr: 'vector(1)', severity: warning}\n");
        BenchmarkFiles files = new BenchmarkFiles(VariantCatalogue.load());

        assertThatThrownBy(() -> files.readRuns(List.of(file)))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("BenchmarkRun checked: spec.checks")
                .hasMessageContaining("local mode has none: remove spec.checks");

        Path plain = directory.resolve("plain.yaml");
        Files.writeString(plain, RUN);
        assertThat(files.readRuns(List.of(plain))).hasSize(1);
    }
}
