package dev.stackbench.chart;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The chart ships exactly the CRDs generated from the Java API classes (crds/), never a stale copy. */
class ChartCrdSyncTest {

    private static final Path ROOT = locateRoot();
    private static final Path GENERATED = ROOT.resolve("crds");
    private static final Path CHART_COPY = ROOT.resolve("charts/stackbench/files/crds");

    @Test
    void chartCopyOfEveryGeneratedCrdIsIdentical() throws IOException {
        List<Path> generated = yamlFiles(GENERATED);
        assertThat(generated).as("generated CRDs in %s", GENERATED).isNotEmpty();
        for (Path crd : generated) {
            Path copy = CHART_COPY.resolve(crd.getFileName());
            assertThat(copy)
                    .as("the chart's copy of %s is missing: run charts/stackbench/sync-crds.sh", crd)
                    .exists();
            assertThat(Files.readString(copy))
                    .as("%s differs from %s: run charts/stackbench/sync-crds.sh and commit the result", copy, crd)
                    .isEqualTo(Files.readString(crd));
        }
    }

    @Test
    void chartShipsNoCrdThatIsNoLongerGenerated() throws IOException {
        List<Path> generatedNames =
                yamlFiles(GENERATED).stream().map(Path::getFileName).toList();
        assertThat(yamlFiles(CHART_COPY).stream().map(Path::getFileName).toList())
                .as("CRDs in the chart that crds/ no longer has: delete them from %s", CHART_COPY)
                .containsExactlyInAnyOrderElementsOf(generatedNames);
    }

    private static List<Path> yamlFiles(Path directory) throws IOException {
        try (var files = Files.list(directory)) {
            return files.filter(
                            f -> f.toString().endsWith(".yml") || f.toString().endsWith(".yaml"))
                    .sorted()
                    .toList();
        }
    }

    private static Path locateRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("charts/stackbench")) && Files.isDirectory(dir.resolve("crds"))) {
                return dir;
            }
        }
        throw new IllegalStateException("cannot find the repository (charts/stackbench and crds/) above "
                + Path.of("").toAbsolutePath());
    }
}
