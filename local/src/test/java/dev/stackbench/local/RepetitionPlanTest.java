package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.comparison.BenchmarkComparisonStatus;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.BenchmarkRunDefaults;
import dev.stackbench.api.status.BenchmarkRunStatus;
import dev.stackbench.api.status.Phase;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How plain runs given --repetitions become a comparison: its order, its names and what the repetitions share. */
class RepetitionPlanTest {

    private static PlannedRun run(String name, String variant, String cpu) {
        BenchmarkRun run = BenchmarkRuns.read("""
                        apiVersion: stackbench.dev/v1alpha1
                        kind: BenchmarkRun
                        metadata: {name: %s}
                        spec:
                          target:
                            variant: %s
                            resources: {cpu: "%s", memory: 512Mi}
                          workload:
                            scenario: upstream
                            upstreamDelay: 20ms
                            load: {executor: constant-arrival-rate, rate: 10, vus: 20}
                        """.formatted(name, variant, cpu), name + ".yaml")
                .getFirst();
        run.setSpec(BenchmarkRunDefaults.apply(run.getSpec()));
        return new PlannedRun(run, null);
    }

    private static final List<PlannedRun> THREE_VARIANTS = List.of(
            run("jdbc", "mvc-jdbc", "1"),
            run("virtual", "mvc-virtual-threads", "1"),
            run("r2dbc", "webflux-r2dbc", "1"));

    private static RepetitionPlan plan(List<PlannedRun> runs, String order, Long seed) throws InvalidInputException {
        return RepetitionPlan.of(runs, new RepetitionPlan.Options(3, order, seed, 0.95, false));
    }

    private static List<String> names(RepetitionPlan plan) {
        return plan.runs().stream()
                .map(run -> run.run().getMetadata().getName())
                .toList();
    }

    @Test
    void aSeedGivesTheSameInterleavedOrderEveryTime() throws Exception {
        RepetitionPlan plan = plan(THREE_VARIANTS, "interleaved", 42L);

        assertThat(names(plan))
                .containsExactly(
                        "virtual-r1",
                        "jdbc-r1",
                        "r2dbc-r1",
                        "virtual-r2",
                        "r2dbc-r2",
                        "jdbc-r2",
                        "r2dbc-r3",
                        "virtual-r3",
                        "jdbc-r3");
        assertThat(names(plan(THREE_VARIANTS, "interleaved", 42L))).isEqualTo(names(plan));
        assertThat(plan.name()).isEqualTo("jdbc-vs-virtual-vs-r2dbc");
        assertThat(plan.announcement())
                .isEqualTo("stackbench: comparison jdbc-vs-virtual-vs-r2dbc: 3 variants x 3 repetitions, interleaved"
                        + " (seed 42); baseline jdbc; shared between repetitions: " + RepetitionPlan.SHARED_BACKEND);
        assertThat(THREE_VARIANTS.getFirst().run().getMetadata().getName())
                .as("the files' runs keep their names")
                .isEqualTo("jdbc");
    }

    @Test
    void sequentialRunsEveryRepetitionOfTheBaselineFirst() throws Exception {
        RepetitionPlan plan = plan(THREE_VARIANTS.subList(0, 2), "Sequential", null);

        assertThat(names(plan))
                .containsExactly("jdbc-r1", "jdbc-r2", "jdbc-r3", "virtual-r1", "virtual-r2", "virtual-r3");
        assertThat(plan.children())
                .extracting(child -> child.label() + "/" + child.round())
                .containsExactly("jdbc/0", "jdbc/1", "jdbc/2", "virtual/0", "virtual/1", "virtual/2");
    }

    @Test
    void runsWithTheSameBackendAndCpusShareOnePostgresAndDelayService() throws Exception {
        RepetitionPlan plan = plan(THREE_VARIANTS, "interleaved", 1L);

        assertThat(plan.sharesBackend()).isTrue();
        assertThat(plan.shared()).isEqualTo(RepetitionPlan.SHARED_BACKEND);
    }

    @Test
    void aTargetWithOtherCpusGetsFreshProcessesForEveryRepetition() throws Exception {
        RepetitionPlan plan =
                plan(List.of(run("one-cpu", "mvc-jdbc", "1"), run("two-cpus", "mvc-jdbc", "2")), "interleaved", 1L);

        assertThat(plan.sharesBackend()).isFalse();
        assertThat(plan.shared())
                .isEqualTo("nothing: every repetition starts its own PostgreSQL, delay service and target");
    }

    @Test
    void theStatusWhileRunningRecordsTheRepetitionsThatEnded() throws Exception {
        RepetitionPlan plan = plan(THREE_VARIANTS.subList(0, 2), "sequential", 7L);
        BenchmarkRun first = plan.runs().getFirst().run();
        first.setStatus(new BenchmarkRunStatus());
        first.getStatus().setPhase(Phase.Failed);
        first.getStatus().setMessage("the target did not start");

        BenchmarkComparisonStatus status = plan.status(List.of(first), Instant.parse("2025-01-01T00:00:00Z"));

        assertThat(status.getMessage()).isEqualTo("ran 1 of 6 runs");
        assertThat(status.getRunsPlanned()).isEqualTo(6);
        assertThat(status.getSeed()).isEqualTo(7L);
        assertThat(status.getRuns()).singleElement().satisfies(record -> {
            assertThat(record.getName()).isEqualTo("jdbc-r1");
            assertThat(record.getPhase()).isEqualTo(Phase.Failed);
            assertThat(record.getMessage()).isEqualTo("the target did not start");
        });
    }

    @Test
    void optionsThatCannotMakeAComparisonAreAllNamed() {
        InvalidInputException refused = catchThrowableOfType(
                InvalidInputException.class,
                () -> RepetitionPlan.of(
                        THREE_VARIANTS.subList(0, 1), new RepetitionPlan.Options(3, "interleaved", 1L, 1.5, false)));

        assertThat(refused.problems())
                .anySatisfy(problem -> assertThat(problem).startsWith("--repetitions compares two or more runs"))
                .anySatisfy(
                        problem -> assertThat(problem).startsWith("--confidence 1.5: give a level between 0.5 and 1"))
                .hasSize(2);
        assertThat(refused.whatToFix()).isEqualTo("the option(s) above");
    }
}
