package dev.stackbench.comparison;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.comparison.BenchmarkComparison;
import dev.stackbench.api.comparison.BenchmarkComparisonStatus;
import dev.stackbench.api.comparison.BenchmarkComparisons;
import dev.stackbench.api.comparison.ComparisonDefaults;
import dev.stackbench.api.comparison.ComparisonPhase;
import dev.stackbench.api.comparison.ComparisonRunRecord;
import dev.stackbench.api.status.BenchmarkRunStatus;
import dev.stackbench.api.status.CapacityLimit;
import dev.stackbench.api.status.CapacityResult;
import dev.stackbench.api.status.LatencySummary;
import dev.stackbench.api.status.Phase;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.stats.ComparisonMetric;
import dev.stackbench.validation.SpecValidator;
import dev.stackbench.validation.Violation;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ComparisonRunsTest {

    private static final String COMPARISON = """
            apiVersion: stackbench.dev/v1alpha1
            kind: BenchmarkComparison
            metadata:
              name: threads
            spec:
              template:
                target:
                  resources: {cpu: "1", memory: 1Gi}
                  jvmOptions: -Xss512k
                  env: {SERVER_TOMCAT_THREADS_MAX: "50", LOGGING_LEVEL_ROOT: warn}
                workload:
                  scenario: upstream
                  upstreamDelay: 300ms
                  load: {executor: constant-arrival-rate, rate: 40}
                  warmup: 5s
                  duration: 20s
              variants:
                - variant: mvc-jdbc
                  name: mvc-50
                - variant: mvc-jdbc
                  name: mvc-200
                  jvmOptions: -XX:+UseSerialGC
                  env: {SERVER_TOMCAT_THREADS_MAX: "200"}
              repetitions: 4
              seed: 7
            """;

    private static final SpecValidator VALIDATOR = new SpecValidator(VariantCatalogue.load());

    private static BenchmarkComparison comparison(String yaml) {
        BenchmarkComparison comparison =
                BenchmarkComparisons.read(yaml, "test.yaml").getFirst();
        ComparisonDefaults.apply(comparison.getSpec());
        return comparison;
    }

    @Test
    void eachVariantRunsTheTemplateWithItsOwnOverridesInSeededInterleavedRounds() {
        BenchmarkComparison comparison = comparison(COMPARISON);
        assertThat(ComparisonRuns.validate(comparison, VALIDATOR)).isEmpty();

        List<ComparisonRuns.Child> plan = ComparisonRuns.plan(comparison, 7);

        assertThat(plan).hasSize(8);
        for (int round = 0; round < 4; round++) {
            int r = round;
            assertThat(plan.subList(2 * round, 2 * round + 2))
                    .allMatch(child -> child.round() == r)
                    .extracting(ComparisonRuns.Child::label)
                    .containsExactlyInAnyOrder("mvc-50", "mvc-200");
        }
        ComparisonRuns.Child mvc200 = plan.stream()
                .filter(child -> child.label().equals("mvc-200") && child.round() == 2)
                .findFirst()
                .orElseThrow();
        assertThat(mvc200.run().getMetadata().getName()).isEqualTo("threads-mvc-200-r3");
        assertThat(mvc200.run().getMetadata().getLabels())
                .containsEntry(ComparisonRuns.COMPARISON_LABEL, "threads")
                .containsEntry(ComparisonRuns.VARIANT_LABEL, "mvc-200")
                .containsEntry(ComparisonRuns.ROUND_LABEL, "3");
        assertThat(mvc200.run().getSpec().getTarget().getVariant()).isEqualTo("mvc-jdbc");
        assertThat(mvc200.run().getSpec().getTarget().getJvmOptions()).isEqualTo("-Xss512k -XX:+UseSerialGC");
        assertThat(mvc200.run().getSpec().getTarget().getEnv())
                .containsEntry("SERVER_TOMCAT_THREADS_MAX", "200")
                .containsEntry("LOGGING_LEVEL_ROOT", "warn");
        assertThat(plan.getFirst().run().getSpec().getTimeout())
                .as("run defaults applied")
                .isEqualTo("15m");
        // The template is not changed by the overrides of one variant.
        assertThat(comparison.getSpec().getTemplate().getTarget().getEnv())
                .containsEntry("SERVER_TOMCAT_THREADS_MAX", "50");
        assertThat(ComparisonRuns.plan(comparison, 7))
                .extracting(child -> child.run().getMetadata().getName())
                .as("the same seed gives the same order")
                .isEqualTo(plan.stream()
                        .map(child -> child.run().getMetadata().getName())
                        .toList());
        assertThat(ComparisonRuns.warnings(comparison.getSpec()))
                .singleElement()
                .asString()
                .contains("4 repetitions", "no 95% confidence interval");
    }

    @Test
    void capacityIsComparedOnlyWhenTheTemplateSearchesForIt() {
        String notASearch = COMPARISON.replace("repetitions: 4", "repetitions: 4\n  metrics: [capacity, p95]");

        assertThat(ComparisonRuns.validate(comparison(notASearch), VALIDATOR))
                .extracting(Violation::toString)
                .anySatisfy(v -> assertThat(v)
                        .contains("spec.metrics has capacity, but the template is not a capacity" + " search"));

        String search = notASearch.replace(
                "load: {executor: constant-arrival-rate, rate: 40}",
                "load: {executor: constant-arrival-rate}\n      capacity: {objective: {p95: 450ms}, from: 20, to:"
                        + " 200}\n      timeout: 30m");
        BenchmarkComparison comparison = comparison(search.replace("      timeout: 30m", ""));
        comparison.getSpec().getTemplate().setTimeout("30m");

        assertThat(ComparisonRuns.validate(comparison, VALIDATOR)).isEmpty();
        RunSummary found = new RunSummary();
        found.setCapacity(180);
        assertThat(ComparisonMetric.CAPACITY.of(found)).contains(180.0);
        assertThat(ComparisonMetric.CAPACITY.direction())
                .isEqualTo(dev.stackbench.stats.RepetitionStatistics.Direction.HIGHER_IS_BETTER);

        // What ended each search goes into the comparison's record of the run, and from there to the statistics.
        BenchmarkRunStatus atTheTop = succeeded(400, 120, 0);
        atTheTop.getSummary().setCapacity(400);
        atTheTop.setCapacity(new CapacityResult().withLimitedBy(CapacityLimit.Range));
        ComparisonRunRecord record = ComparisonResults.record("capacity-r1", "virtual", 0, atTheTop);
        assertThat(record.getCapacityLimit()).isEqualTo(CapacityLimit.Range);
        assertThat(ComparisonResults.repetition(record).capacityLimit()).isEqualTo(CapacityLimit.Range);
        assertThat(ComparisonResults.repetition(record).figures()).containsEntry(ComparisonMetric.CAPACITY, 400.0);
    }

    @Test
    void everyProblemIsNamedWithItsFieldBeforeAnythingRuns() {
        String bad = COMPARISON
                .replace("name: mvc-200", "name: mvc-50")
                .replace("repetitions: 4", "repetitions: 2\n  metrics: [rps, p42]")
                .replace("duration: 20s", "duration: 20 seconds")
                .replace("  template:\n    target:\n", "  template:\n    target:\n      variant: mvc-jdbc\n");

        List<String> violations = ComparisonRuns.validate(comparison(bad), VALIDATOR).stream()
                .map(Violation::toString)
                .toList();

        assertThat(violations)
                .anySatisfy(v -> assertThat(v).contains("spec.template.target.variant is not allowed"))
                .anySatisfy(v -> assertThat(v).contains("two entries have the same name", "repeated: mvc-50"))
                .anySatisfy(v -> assertThat(v).startsWith("spec.repetitions must be between 3"))
                .anySatisfy(v -> assertThat(v).contains("spec.metrics may hold rps"));

        // Once the comparison itself is right, each variant's run is checked as the BenchmarkRun it becomes.
        String badRun = COMPARISON
                .replace("duration: 20s", "duration: 20 seconds")
                .replace("variant: mvc-jdbc\n      name: mvc-200", "variant: mvc-nope\n      name: mvc-200");
        List<Violation> runViolations = ComparisonRuns.validate(comparison(badRun), VALIDATOR);
        assertThat(runViolations)
                .as(runViolations.toString())
                .extracting(Violation::field)
                .containsExactlyInAnyOrder("spec.template.workload.duration", "spec.variants[1]");
        assertThat(runViolations.toString()).contains("the run of mvc-50: spec.workload.duration", "mvc-nope");

        String longName = COMPARISON.replace("name: threads", "name: a-comparison-with-a-rather-long-name-here");
        assertThat(ComparisonRuns.validate(comparison(longName), VALIDATOR))
                .as("both variants' run names are too long")
                .hasSize(2)
                .extracting(Violation::toString)
                .anySatisfy(v -> assertThat(v)
                        .contains(
                                "a-comparison-with-a-rather-long-name-here-mvc-200-r4",
                                "52 characters",
                                "shorten metadata.name"));
    }

    @Test
    void recordsOfFinishedRunsGiveTheStatisticsTheVerdictAndTheTable() {
        BenchmarkComparison comparison = comparison(COMPARISON.replace("repetitions: 4", "repetitions: 6"));
        BenchmarkComparisonStatus status = new BenchmarkComparisonStatus();
        status.setBaseline("mvc-50");
        List<ComparisonRunRecord> records = new ArrayList<>();
        double[] mvc50 = {31.4, 32.0, 31.5, 31.3, 32.2, 31.9};
        double[] mvc200 = {60.1, 59.8, 60.3, 60.0, 59.9, 60.2};
        for (int round = 0; round < 6; round++) {
            records.add(ComparisonResults.record(
                    "threads-mvc-50-r" + (round + 1), "mvc-50", round, succeeded(mvc50[round], 9000 + round, 0)));
            records.add(ComparisonResults.record(
                    "threads-mvc-200-r" + (round + 1), "mvc-200", round, succeeded(mvc200[round], 320 + round, 0)));
        }
        BenchmarkRunStatus failed = new BenchmarkRunStatus();
        failed.setPhase(Phase.Failed);
        failed.setMessage("TargetNotReady: the target did not become ready");
        records.add(ComparisonResults.record("threads-mvc-200-r7", "mvc-200", 6, failed));
        status.setRuns(records);

        ComparisonResults.conclude(comparison.getSpec(), status);

        assertThat(status.getPhase()).isEqualTo(ComparisonPhase.Succeeded);
        assertThat(status.getVariants()).extracting(v -> v.getValidRuns()).containsExactly(6, 6);
        assertThat(status.getVariants()).extracting(v -> v.getRuns()).containsExactly(6, 7);
        assertThat(status.getVariants().getFirst().getVariant()).isEqualTo("mvc-jdbc");
        assertThat(status.getContenders().getFirst().getMetrics().getFirst().getVerdict())
                .isEqualTo("better");
        assertThat(status.getVerdict()).startsWith("mvc-200 rps +");
        assertThat(status.getWarnings()).anySatisfy(w -> assertThat(w)
                .contains("threads-mvc-200-r7", "failed and is left out", "TargetNotReady"));
        // The status is what the API server stores: no NaN, JSON names as in the CRD.
        String yaml = BenchmarkRuns.toYaml(status);
        assertThat(yaml)
                .contains("pValue:", "relativeDifference:", "achievedConfidence:")
                .doesNotContain("NaN");

        String table = ComparisonTable.render(
                status,
                ComparisonResults.metrics(comparison.getSpec()),
                comparison.getSpec().getConfidence());
        List<String> lines = table.lines().toList();
        assertThat(lines.getFirst()).startsWith("metric").contains("95% CI", "vs mvc-50", "verdict");
        assertThat(lines.get(1)).startsWith("rps").contains("mvc-50", "6/6", "(baseline)");
        assertThat(lines.get(2)).contains("mvc-200", "6/7", "better", "(+89%)");
        assertThat(table).contains("verdict: mvc-200 rps +").contains("!! run threads-mvc-200-r7");
    }

    @Test
    void aVariantWithTooFewValidRunsFailsTheComparisonSayingWhich() {
        BenchmarkComparison comparison = comparison(COMPARISON.replace("repetitions: 4", "repetitions: 3"));
        BenchmarkComparisonStatus status = new BenchmarkComparisonStatus();
        List<ComparisonRunRecord> records = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            records.add(ComparisonResults.record("a" + round, "mvc-50", round, succeeded(31, 9000, 0)));
            records.add(
                    ComparisonResults.record("b" + round, "mvc-200", round, succeeded(60, 320, round == 0 ? 5 : 0)));
        }
        status.setRuns(records);

        ComparisonResults.conclude(comparison.getSpec(), status);

        assertThat(status.getPhase()).isEqualTo(ComparisonPhase.Failed);
        assertThat(status.getMessage()).contains("too few valid runs", "mvc-200 (2 of 3)");
        assertThat(status.getWarnings()).anySatisfy(w -> assertThat(w).contains("b0", "5 iterations dropped"));
        assertThat(ComparisonResults.metrics(comparison.getSpec())).startsWith(ComparisonMetric.RPS);
    }

    @Test
    void aRunTheHostStoleFromKeepsItsStealInItsRecordAndIsNotCounted() {
        BenchmarkComparison comparison = comparison(COMPARISON);
        BenchmarkComparisonStatus status = new BenchmarkComparisonStatus();
        List<ComparisonRunRecord> records = new ArrayList<>();
        for (int round = 0; round < 4; round++) {
            records.add(ComparisonResults.record("a" + round, "mvc-50", round, succeeded(31, 9000, 0)));
            BenchmarkRunStatus stolen = succeeded(60, 320, 0);
            stolen.getSummary().setHostSteal(round == 0 ? 0.12 : 0.01);
            records.add(ComparisonResults.record("b" + round, "mvc-200", round, stolen));
        }
        status.setRuns(records);

        ComparisonResults.conclude(comparison.getSpec(), status);

        assertThat(records.get(1).getHostSteal()).isEqualTo(0.12);
        assertThat(records.get(1).getCounted()).isFalse();
        assertThat(records.get(3).getCounted()).isTrue();
        assertThat(status.getWarnings())
                .anySatisfy(w -> assertThat(w).contains("b0", "host took 12.0 % of its CPU time", "is left out"));
    }

    private static BenchmarkRunStatus succeeded(double rps, double p95, long dropped) {
        RunSummary summary = new RunSummary();
        summary.setRps(rps);
        summary.setErrorRate(0.0);
        summary.setDroppedIterations(dropped);
        LatencySummary latency = new LatencySummary();
        latency.setP50(p95 / 2);
        latency.setP95(p95);
        latency.setP99(p95 * 1.1);
        summary.setLatencyMs(latency);
        BenchmarkRunStatus status = new BenchmarkRunStatus();
        status.setPhase(Phase.Succeeded);
        status.setSummary(summary);
        status.setConditions(List.of());
        return status;
    }
}
