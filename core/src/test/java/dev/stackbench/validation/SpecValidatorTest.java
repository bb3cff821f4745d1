package dev.stackbench.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.SpecRules;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpecValidatorTest {

    private static BenchmarkRun run(String name, String spec) {
        return BenchmarkRuns.read("""
                apiVersion: stackbench.dev/v1alpha1
                kind: BenchmarkRun
                metadata: {name: %s}
                spec:
                %s""".formatted(name, spec.indent(2)), "test.yaml")
                .get(0);
    }

    @Test
    void unknownVariantNamesTheKnownOnes() {
        List<Violation> violations = SpecValidator.withShippedCatalogue().validate(run("x", """
                target: {variant: mvc-jdbcc}
                workload: {scenario: rows, load: {rate: 5}}
                """));

        assertThat(violations).singleElement().satisfies(violation -> {
            assertThat(violation.field()).isEqualTo("spec.target.variant");
            assertThat(violation.message())
                    .contains("unknown variant 'mvc-jdbcc'")
                    .contains("mvc-jdbc,");
        });
    }

    @Test
    void withoutACatalogueAnyWellFormedVariantPassesLikeOnTheApiServer() {
        assertThat(new SpecValidator(null).validate(run("x", """
                target: {variant: not-in-the-catalogue}
                workload: {scenario: rows, load: {rate: 5}}
                """))).isEmpty();
    }

    @Test
    void reportsEveryViolationAtOnceWithTheCelMessages() {
        List<Violation> violations = new SpecValidator(null).validate(run("x", """
                target: {variant: mvc-jdbc, replicas: 0}
                workload:
                  scenario: mixed
                  load: {executor: constant-vus}
                """));

        assertThat(violations)
                .extracting(Violation::field)
                .containsExactlyInAnyOrder(
                        "spec.target.replicas",
                        "spec.workload.upstreamDelay",
                        "spec.workload.dbSleep",
                        "spec.workload.load.vus");
        assertThat(violations)
                .extracting(Violation::message)
                .contains(
                        SpecRules.UPSTREAM_DELAY_REQUIRED_MESSAGE,
                        SpecRules.DB_SLEEP_REQUIRED_MESSAGE,
                        SpecRules.VUS_REQUIRED_MESSAGE);
    }

    @Test
    void missingNameAndSpecAreReported() {
        BenchmarkRun run = new BenchmarkRun();

        assertThat(new SpecValidator(null).validate(run))
                .extracting(Violation::field)
                .containsExactly("metadata.name", "spec");
    }

    @Test
    void checkThrowsWithEveryViolationInTheMessage() {
        BenchmarkRun run = run("x", """
                target: {variant: mvc-jdbc}
                workload: {scenario: db, load: {rate: 0}}
                """);

        assertThatThrownBy(() -> new SpecValidator(null).check(run))
                .isInstanceOf(InvalidSpecException.class)
                .hasMessageContaining("BenchmarkRun x is not valid")
                .hasMessageContaining("spec.workload.dbSleep")
                .hasMessageContaining("spec.workload.load.rate is 0, it must be between 1 and 100000");
    }
}
