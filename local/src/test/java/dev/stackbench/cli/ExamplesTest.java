package dev.stackbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.comparison.BenchmarkComparison;
import dev.stackbench.api.comparison.BenchmarkComparisons;
import dev.stackbench.api.comparison.ComparisonDefaults;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.PoolPlacement;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.comparison.ComparisonRuns;
import dev.stackbench.validation.SpecValidator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The shipped examples are what `kubectl apply` and `./stackbench run` take: valid, complete, placed per pool. */
class ExamplesTest {

    private static final Path EXAMPLES =
            Path.of("").toAbsolutePath().getParent().resolve("examples");
    private static final VariantCatalogue CATALOGUE = VariantCatalogue.load();

    private static List<Path> benchmarkRunFiles() throws IOException {
        try (Stream<Path> files = Files.walk(EXAMPLES)) {
            return files.filter(file -> file.toString().endsWith(".yaml"))
                    .filter(file -> !file.startsWith(EXAMPLES.resolve("kind")))
                    .sorted()
                    .toList();
        }
    }

    @Test
    void everyExampleIsAValidBenchmarkRunOrComparison() throws IOException {
        SpecValidator validator = new SpecValidator(CATALOGUE);
        List<Path> files = benchmarkRunFiles();
        assertThat(files).hasSizeGreaterThanOrEqualTo(CATALOGUE.variantNames().size() + 9);
        for (Path file : files) {
            if (BenchmarkComparison.KIND.equals(BenchmarkRuns.kind(file))) {
                for (BenchmarkComparison comparison : BenchmarkComparisons.read(file)) {
                    ComparisonDefaults.apply(comparison.getSpec());
                    assertThat(ComparisonRuns.validate(comparison, validator))
                            .as(file.toString())
                            .isEmpty();
                    assertThat(comparison.getApiVersion()).isEqualTo("stackbench.dev/v1alpha1");
                }
                continue;
            }
            for (BenchmarkRun run : BenchmarkRuns.read(file)) {
                assertThat(validator.validate(run)).as(file.toString()).isEmpty();
                assertThat(run.getApiVersion()).isEqualTo("stackbench.dev/v1alpha1");
                assertThat(run.getKind()).isEqualTo("BenchmarkRun");
                assertThat(run.getMetadata().getName()).isNotBlank();
            }
        }
    }

    @Test
    void thereIsOneExamplePerVariantPlacedOnTheDedicatedPools() {
        for (String variant : CATALOGUE.variantNames()) {
            Path file = EXAMPLES.resolve(variant + ".yaml");
            assertThat(file).exists();
            BenchmarkRun run = BenchmarkRuns.readOne(file);
            assertThat(run.getSpec().getTarget().getVariant()).isEqualTo(variant);
            var placement = run.getSpec().getPlacement();
            assertPool(placement.getTarget(), "target");
            assertPool(placement.getBackend(), "backend");
            assertPool(placement.getLoadgen(), "loadgen");
        }
    }

    @Test
    void everyExperimentFileSaysHowItWasScaledToThisMachine() throws IOException {
        for (Path file : benchmarkRunFiles()) {
            if (file.startsWith(EXAMPLES.resolve("experiments"))
                    || file.startsWith(EXAMPLES.resolve("demo"))
                    || file.startsWith(EXAMPLES.resolve("comparison"))) {
                assertThat(Files.readString(file))
                        .as(file.toString())
                        .containsIgnoringCase("scaled")
                        .contains("./stackbench run");
            }
        }
    }

    private static void assertPool(PoolPlacement pool, String name) {
        assertThat(pool.getNodeSelector()).isEqualTo(Map.of("stackbench.dev/pool", name));
        assertThat(pool.getTolerations()).anySatisfy(toleration -> {
            assertThat(toleration.getKey()).isEqualTo("stackbench.dev/pool");
            assertThat(toleration.getValue()).isEqualTo(name);
            assertThat(toleration.getEffect()).isEqualTo("NoSchedule");
        });
    }
}
