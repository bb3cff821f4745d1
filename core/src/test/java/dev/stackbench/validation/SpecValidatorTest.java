package dev.stackbench.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.SpecRules;
import dev.stackbench.api.run.BenchmarkRun;
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
    void aDurationTheSchemaAdmitsIsEitherReadOrNamedNeverAnException() {
        // Each spec must validate without throwing; sub-nanosecond parts are dropped as Go does, a duration longer
        // than Go's is named.
        String tooLong = "9999999999999999h";
        List<Violation> violations = SpecValidator.withShippedCatalogue().validate(run("x", """
                target: {variant: mvc-jdbc, resources: {cpu: "1", memory: 99999999999999T}}
                timeout: %s
                workload: {scenario: rows, warmup: 20.5ns, duration: 20s, load: {rate: 5}}
                """.formatted(tooLong)));
        assertThat(violations)
                .extracting(Violation::toString)
                .anySatisfy(v -> assertThat(v).contains("spec.timeout '" + tooLong + "' is longer than the longest"))
                .anySatisfy(v -> assertThat(v).contains("spec.target.resources.memory '99999999999999T' is larger"))
                .noneSatisfy(v -> assertThat(v).contains("warmup"));
        assertThat(SpecValidator.withShippedCatalogue().validate(run("x", """
                target: {variant: mvc-jdbc}
                workload: {scenario: rows, warmup: 20.5ns, duration: 20.000000000001s, load: {rate: 5}}
                """))).isEmpty();
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
    void scenarioSleepNeedsASleepOfAtMostAMinute() {
        assertThat(new SpecValidator(null).validate(run("x", """
                        target: {variant: mvc-jdbc}
                        workload: {scenario: sleep, load: {rate: 5}}
                        """)))
                .extracting(Violation::field, Violation::message)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("spec.workload.sleep", SpecRules.SLEEP_REQUIRED_MESSAGE));
        assertThat(new SpecValidator(null).validate(run("x", """
                        target: {variant: mvc-jdbc}
                        workload: {scenario: sleep, sleep: 61s, load: {rate: 5}}
                        """)))
                .extracting(Violation::message)
                .containsExactly(SpecRules.SLEEP_MAX_MESSAGE);
        assertThat(new SpecValidator(null).validate(run("x", """
                        target: {variant: mvc-jdbc}
                        workload: {scenario: sleep, sleep: soon, load: {rate: 5}}
                        """)))
                .extracting(Violation::field)
                .containsExactly("spec.workload.sleep");
        assertThat(new SpecValidator(null).validate(run("x", """
                        target: {variant: mvc-jdbc}
                        workload: {scenario: sleep, sleep: 1500ms, load: {rate: 5}}
                        """))).isEmpty();
    }

    @Test
    void aFanoutModeTheVariantCannotDoIsRefusedNamingWhatItCan() {
        SpecValidator validator = SpecValidator.withShippedCatalogue();
        assertThat(validator.validate(run("x", """
                        target: {variant: mvc-jdbc}
                        workload: {scenario: fanout, upstreamDelay: 100ms, calls: 5, fanoutMode: parallel,
                          load: {rate: 5}}
                        """))).singleElement().satisfies(violation -> {
            assertThat(violation.field()).isEqualTo("spec.workload.fanoutMode");
            assertThat(violation.message())
                    .isEqualTo("spec.workload.fanoutMode: variant mvc-jdbc cannot make its upstream calls in"
                            + " parallel (it can: sequential): remove fanoutMode to use the variant's own"
                            + " way, or pick a variant that can");
        });
        assertThat(validator.validate(run("x", """
                        target: {variant: mvc-webclient}
                        workload: {scenario: fanout, upstreamDelay: 100ms, calls: 5, fanoutMode: parallel,
                          load: {rate: 5}}
                        """))).isEmpty();
        // Without a catalogue (the API server's view) the mode is only checked for its spelling.
        assertThat(new SpecValidator(null).validate(run("x", """
                        target: {variant: mvc-jdbc}
                        workload: {scenario: fanout, upstreamDelay: 100ms, calls: 5, fanoutMode: parallel,
                          load: {rate: 5}}
                        """))).isEmpty();
    }

    @Test
    void scenarioLockMayPutThresholdsOnItsLockWaitAndGroupsOnlyItself() {
        assertThat(new SpecValidator(null).validate(run("x", """
                        target: {variant: mvc-jdbc}
                        workload:
                          scenario: lock
                          lockGroup: 3
                          load: {rate: 5}
                          thresholds:
                            stackbench_lock_wait_ms: ["p(95)<50"]
                            stackbench_lock_groups_several_winners: ["count==0"]
                        """))).isEmpty();
        assertThat(new SpecValidator(null).validate(run("x", """
                        target: {variant: mvc-jdbc}
                        workload:
                          scenario: orders
                          load: {rate: 5}
                          thresholds:
                            stackbench_lock_wait_ms: ["p(95)<50"]
                        """)))
                .extracting(Violation::field)
                .containsExactly("spec.workload.thresholds.stackbench_lock_wait_ms");
        assertThat(new SpecValidator(null).validate(run("x", """
                        target: {variant: mvc-jdbc}
                        workload:
                          scenario: lock
                          lockGroup: 3
                          load: {rate: 5}
                          thresholds:
                            stackbench_lock_wait_ms: ["rate<1"]
                        """)))
                .extracting(Violation::message)
                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .contains("which k6 does not allow on stackbench_lock_wait_ms (a trend)");
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

    @Test
    void aMalformedThresholdIsRefusedNamingTheMetricTheProblemAndTheGrammar() {
        List<Violation> violations = new SpecValidator(null).validate(run("x", """
                target: {variant: mvc-jdbc}
                workload:
                  scenario: rows
                  load: {rate: 5}
                  thresholds:
                    http_req_duration: ["p(95)<500", "p(95) < 1s"]
                """));

        assertThat(violations).singleElement().satisfies(violation -> {
            assertThat(violation.field()).isEqualTo("spec.workload.thresholds.http_req_duration");
            assertThat(violation.message())
                    .contains("'p(95) < 1s' is not a k6 threshold")
                    .contains("the limit '1s' is not a plain number")
                    .contains("p(95)<500", "rate<0.01", "avg<200", "max<1000", "count>0");
        });
    }

    @Test
    void anUnknownMetricIsRefusedListingTheKnownOnesExceptWithScenarioCustom() {
        String thresholds = """
                  thresholds:
                    http_req_duraton: ["p(95)<500"]
                    browse_duration: ["p(95) < 1s"]
                """;
        List<Violation> builtIn = new SpecValidator(null).validate(run("x", """
                target: {variant: mvc-jdbc}
                workload:
                  scenario: rows
                  load: {rate: 5}
                """ + thresholds));
        List<Violation> custom = new SpecValidator(null).validate(run("x", """
                target: {variant: mvc-jdbc}
                workload:
                  scenario: custom
                  script: {file: browse.js}
                  load: {rate: 5}
                """ + thresholds));

        assertThat(builtIn)
                .extracting(Violation::field)
                .containsExactlyInAnyOrder(
                        "spec.workload.thresholds.http_req_duraton",
                        "spec.workload.thresholds.browse_duration",
                        "spec.workload.thresholds.browse_duration");
        assertThat(builtIn)
                .filteredOn(violation -> violation.field().endsWith("http_req_duraton"))
                .singleElement()
                .satisfies(violation -> assertThat(violation.message())
                        .contains("'http_req_duraton' is not a metric", "http_req_duration", "scenario custom"));
        // A custom module defines its own metrics, which only k6 knows; the expression is still checked.
        assertThat(custom).singleElement().satisfies(violation -> {
            assertThat(violation.field()).isEqualTo("spec.workload.thresholds.browse_duration");
            assertThat(violation.message()).contains("'p(95) < 1s' is not a k6 threshold");
        });
    }

    @Test
    void anAggregationTheMetricTypeDoesNotAllowIsRefused() {
        List<Violation> violations = new SpecValidator(null).validate(run("x", """
                target: {variant: mvc-jdbc}
                workload:
                  scenario: rows
                  load: {rate: 5}
                  thresholds:
                    http_req_failed: ["p(95)<0.01"]
                    http_reqs: ["avg>1"]
                    "http_req_duration{name:rows}": ["rate<1"]
                    checks: ["rate>0.99"]
                    iterations: ["count>0"]
                """));

        assertThat(violations)
                .extracting(Violation::message)
                .containsExactlyInAnyOrder(
                        "spec.workload.thresholds.http_req_failed: 'p(95)<0.01' aggregates with p, which k6 does not"
                                + " allow on http_req_failed (a rate): use rate, e.g. rate<0.01",
                        "spec.workload.thresholds.http_reqs: 'avg>1' aggregates with avg, which k6 does not allow on"
                                + " http_reqs (a counter): use count or rate, e.g. count>0",
                        "spec.workload.thresholds.http_req_duration{name:rows}: 'rate<1' aggregates with rate, which"
                                + " k6 does not allow on http_req_duration (a trend): use avg, min, max, med or"
                                + " p(N), e.g. p(95)<500");
    }

    @Test
    void aMalformedTagFilterOrAScenarioTagIsRefused() {
        List<Violation> violations = new SpecValidator(null).validate(run("x", """
                target: {variant: mvc-jdbc}
                workload:
                  scenario: rows
                  load: {rate: 5}
                  thresholds:
                    "http_req_duration{name}": ["p(95)<500"]
                    "http_req_failed{scenario:warmup}": ["rate<0.01"]
                    "http_req_duration{scenario:measure, status:200}": ["p(95)<500"]
                """));

        assertThat(violations)
                .extracting(Violation::message)
                .containsExactlyInAnyOrder(
                        "spec.workload.thresholds.http_req_duration{name}: the tag filter 'name' is not tag:value:"
                                + " write e.g. http_req_duration{name:upstream} or http_req_duration{status:200}",
                        "spec.workload.thresholds.http_req_failed{scenario:warmup}: thresholds apply to the measured"
                                + " requests only, so stackbench sets the scenario tag itself: remove"
                                + " scenario:warmup");
    }

    @Test
    void aTolerationWithAnUnknownEffectOrOperatorIsRefusedWithTheCelMessage() {
        List<Violation> violations = new SpecValidator(null).validate(run("x", """
                target: {variant: mvc-jdbc}
                placement:
                  target:
                    tolerations:
                      - {key: stackbench.dev/pool, operator: Equal, value: target, effect: NoSchedule}
                      - {key: stackbench.dev/pool, operator: Exists, effect: Sometimes}
                  loadgen:
                    tolerations:
                      - {key: stackbench.dev/pool, operator: In, value: loadgen}
                      - {operator: Exists}
                workload: {scenario: rows, load: {rate: 5}}
                """));

        assertThat(violations)
                .extracting(Violation::toString)
                .containsExactlyInAnyOrder(
                        "spec.placement.target.tolerations: " + SpecRules.TOLERATION_EFFECT_MESSAGE
                                + " (not 'Sometimes', in tolerations[1])",
                        "spec.placement.loadgen.tolerations: " + SpecRules.TOLERATION_OPERATOR_MESSAGE
                                + " (not 'In', in tolerations[0])");
    }

    @Test
    void theJavaChecksReadTheListsOfTheCelRules() {
        assertThat(SpecRules.celStrings(SpecRules.TAINT_EFFECTS))
                .containsExactly("", "NoSchedule", "PreferNoSchedule", "NoExecute");
        assertThat(SpecRules.TOLERATION_EFFECT).contains(SpecRules.TAINT_EFFECTS);
        assertThat(SpecRules.celStrings(SpecRules.TOLERATION_OPERATORS)).containsExactly("", "Equal", "Exists");
        assertThat(SpecRules.TOLERATION_OPERATOR).contains(SpecRules.TOLERATION_OPERATORS);
    }
}
