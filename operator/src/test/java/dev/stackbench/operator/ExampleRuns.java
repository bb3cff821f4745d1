package dev.stackbench.operator;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.BenchmarkRunDefaults;
import dev.stackbench.catalogue.VariantCatalogue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

/**
 * Runs read from the project's examples, as the API server would hand them to the operator. Public for the tests of
 * the object builders, which sit in a package of their own.
 */
public final class ExampleRuns {

    static final String NAMESPACE = "bench";

    private ExampleRuns() {}

    /** The repository root: the nearest directory at or above the working directory holding examples/. */
    static Path repositoryRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("examples")) && Files.isDirectory(dir.resolve("targets"))) {
                return dir;
            }
        }
        throw new IllegalStateException("run the tests from inside the stackbench repository");
    }

    static Path example(String file) {
        return repositoryRoot().resolve("examples").resolve(file);
    }

    /** examples/webflux-r2dbc.yaml in namespace bench, with a uid and defaults applied. */
    public static BenchmarkRun webfluxR2dbc() {
        BenchmarkRun run = BenchmarkRuns.readOne(example("webflux-r2dbc.yaml"));
        run.getMetadata().setNamespace(NAMESPACE);
        run.getMetadata().setUid(UUID.randomUUID().toString());
        run.getMetadata().setGeneration(1L);
        return BenchmarkRunDefaults.apply(run);
    }

    /** The project's variant catalogue. */
    public static VariantCatalogue catalogue() {
        return VariantCatalogue.load(repositoryRoot().resolve("targets/variants.yaml"));
    }

    /** Settings as a test operator has them: image tag 1.2.3, a 1 s poll, a 1 min readiness limit. */
    public static OperatorSettings settings() {
        return new OperatorSettings(
                "1.2.3",
                "stackbench/postgres:15",
                "postgres-credentials",
                null,
                null,
                Duration.ofSeconds(1),
                Duration.ofMinutes(1));
    }
}
