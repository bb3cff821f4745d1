package dev.stackbench.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stackbench.api.BenchmarkRunFileException;
import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.run.BenchmarkRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The invalid-specs fixtures (each a valid spec with one thing broken, first line {@code # expect: <field>}) are
 * refused naming that field, and the valid-specs fixtures pass. The same files are meant for a real API server with
 * the generated CRD, which must refuse the same ones.
 */
class SpecFixturesTest {

    private static final Path RESOURCES = Path.of("src", "test", "resources");
    private static final SpecValidator VALIDATOR = SpecValidator.withShippedCatalogue();

    static Stream<Path> invalidSpecs() throws IOException {
        return Files.list(RESOURCES.resolve("invalid-specs"))
                .filter(file -> file.toString().endsWith(".yaml"))
                .sorted();
    }

    static Stream<Path> validSpecs() throws IOException {
        return Files.list(RESOURCES.resolve("valid-specs"))
                .filter(file -> file.toString().endsWith(".yaml"))
                .sorted();
    }

    @Test
    void thereAreEnoughInvalidFixtures() throws IOException {
        assertThat(invalidSpecs().count()).isGreaterThanOrEqualTo(22);
    }

    @ParameterizedTest
    @MethodSource("invalidSpecs")
    void invalidSpecIsRefusedNamingTheExpectedField(Path file) throws IOException {
        String expected = header(file, "# expect: ");

        Throwable readError = catchThrowable(() -> BenchmarkRuns.read(file));
        if (readError != null) {
            // Wrong types and unknown enum values never reach the validator; the reader names the field.
            assertThat(readError)
                    .isInstanceOf(BenchmarkRunFileException.class)
                    .hasMessageContaining("field " + expected + " ");
            return;
        }
        List<Violation> violations = VALIDATOR.validate(BenchmarkRuns.readOne(file));

        // Other violations may follow from the same change (a 7h duration also outlasts the default timeout).
        assertThat(violations).as("violations of %s", file).anySatisfy(violation -> {
            assertThat(violation.field()).isEqualTo(expected);
            assertThat(violation.message()).contains(expected);
        });
    }

    @ParameterizedTest
    @MethodSource("invalidSpecs")
    void invalidSpecDiffersFromItsBaseInOneThing(Path file) throws IOException {
        Path base = RESOURCES.resolve(header(file, "# base: ").split(";")[0].trim());
        JsonNode broken = untyped(file);
        JsonNode valid = untyped(base);
        ((ObjectNode) broken.path("metadata")).remove("name");
        ((ObjectNode) valid.path("metadata")).remove("name");

        assertThat(differences(valid, broken)).as("%s against %s", file, base).isEqualTo(1);
    }

    @ParameterizedTest
    @MethodSource("validSpecs")
    void validSpecPasses(Path file) {
        BenchmarkRun run = BenchmarkRuns.readOne(file);

        assertThat(VALIDATOR.validate(run)).isEmpty();
    }

    private static String header(Path file, String prefix) throws IOException {
        return Files.readAllLines(file).stream()
                .filter(line -> line.startsWith(prefix))
                .findFirst()
                .map(line -> line.substring(prefix.length()).trim())
                .orElseThrow(() -> new AssertionError(file + " has no '" + prefix + "' line"));
    }

    private static JsonNode untyped(Path file) throws IOException {
        return BenchmarkRuns.yamlMapper().readTree(file.toFile());
    }

    /** Number of places where two trees differ; a missing or extra subtree counts once. */
    private static int differences(JsonNode left, JsonNode right) {
        if (left.isObject() && right.isObject()) {
            int count = 0;
            for (Iterator<String> names = left.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                count += right.has(name) ? differences(left.get(name), right.get(name)) : 1;
            }
            for (Iterator<String> names = right.fieldNames(); names.hasNext(); ) {
                count += left.has(names.next()) ? 0 : 1;
            }
            return count;
        }
        if (left.isArray() && right.isArray() && left.size() == right.size()) {
            int count = 0;
            for (int i = 0; i < left.size(); i++) {
                count += differences(left.get(i), right.get(i));
            }
            return count;
        }
        return left.equals(right) ? 0 : 1;
    }
}
