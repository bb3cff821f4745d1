package dev.stackbench.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.BenchmarkRunDefaults;
import dev.stackbench.api.run.Executor;
import dev.stackbench.api.run.Scenario;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchmarkRunsTest {

    private static final String VALID = """
            apiVersion: stackbench.dev/v1alpha1
            kind: BenchmarkRun
            metadata:
              name: first
            spec:
              target:
                variant: webflux-r2dbc
              workload:
                scenario: upstream
                upstreamDelay: 300ms
                load:
                  executor: constant-arrival-rate
                  rate: 100
                thresholds:
                  http_req_duration: ["p(95)<500"]
            """;

    @Test
    void readsEveryDocumentOfAMultiDocumentFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("runs.yaml");
        Files.writeString(
                file,
                VALID + "---\n" + VALID.replace("name: first", "name: second").replace("webflux-r2dbc", "mvc-jdbc")
                        + "---\n");

        List<BenchmarkRun> runs = BenchmarkRuns.read(file);

        assertThat(runs).extracting(run -> run.getMetadata().getName()).containsExactly("first", "second");
        BenchmarkRun second = runs.get(1);
        assertThat(second.getSpec().getTarget().getVariant()).isEqualTo("mvc-jdbc");
        assertThat(second.getSpec().getWorkload().getScenario()).isEqualTo(Scenario.UPSTREAM);
        assertThat(second.getSpec().getWorkload().getLoad().getExecutor()).isEqualTo(Executor.CONSTANT_ARRIVAL_RATE);
        assertThat(second.getSpec().getWorkload().getThresholds())
                .containsEntry("http_req_duration", List.of("p(95)<500"));
    }

    @Test
    void unknownFieldIsNamedWithItsPathLineAndTheKnownFields() {
        String text = VALID.replace("    load:\n", "    lod: 3\n    load:\n");

        assertThatThrownBy(() -> BenchmarkRuns.read(text, "run.yaml"))
                .isInstanceOf(BenchmarkRunFileException.class)
                .hasMessageContaining("run.yaml: document 1, line 11")
                .hasMessageContaining("unknown field spec.workload.lod")
                .hasMessageContaining("upstreamDelay")
                .hasMessageContaining("remove it or fix its spelling");
    }

    @Test
    void unknownFieldInTheSecondDocumentNamesThatDocument() {
        String text = VALID + "---\n" + VALID.replace("variant: webflux-r2dbc", "variant: x\n    cpus: 2");

        assertThatThrownBy(() -> BenchmarkRuns.read(text, "run.yaml"))
                .hasMessageContaining("document 2")
                .hasMessageContaining("unknown field spec.target.cpus");
    }

    @Test
    void wrongEnumValueListsTheAcceptedValues() {
        String text = VALID.replace("executor: constant-arrival-rate", "executor: constant-rate");

        assertThatThrownBy(() -> BenchmarkRuns.read(text, "run.yaml"))
                .hasMessageContaining("field spec.workload.load.executor has the wrong value 'constant-rate'")
                .hasMessageContaining("constant-arrival-rate, ramping-arrival-rate, constant-vus, ramping-vus");
    }

    @Test
    void wrongTypeSaysWhatToWrite() {
        String text = VALID.replace("rate: 100", "rate: lots");

        assertThatThrownBy(() -> BenchmarkRuns.read(text, "run.yaml"))
                .hasMessageContaining("line 13")
                .hasMessageContaining("field spec.workload.load.rate")
                .hasMessageContaining("write a whole number");
    }

    @Test
    void listWhereAValueBelongsIsAWrongType() {
        String text = VALID.replace("upstreamDelay: 300ms", "upstreamDelay: [300ms]");

        assertThatThrownBy(() -> BenchmarkRuns.read(text, "run.yaml"))
                .hasMessageContaining("field spec.workload.upstreamDelay has the wrong type");
    }

    @Test
    void otherKindsAreRefused() {
        String text = VALID.replace("kind: BenchmarkRun", "kind: Deployment");

        assertThatThrownBy(() -> BenchmarkRuns.read(text, "run.yaml"))
                .hasMessageContaining("not a BenchmarkRun")
                .hasMessageContaining("kind: BenchmarkRun");
    }

    @Test
    void brokenYamlIsReportedWithItsLine() {
        assertThatThrownBy(() -> BenchmarkRuns.read(VALID.replace("rate: 100", "rate: [100"), "run.yaml"))
                .hasMessageContaining("run.yaml: document 1")
                .hasMessageContaining("fix the syntax");
    }

    @Test
    void missingFileSaysWhatToPass(@TempDir Path dir) {
        assertThatThrownBy(() -> BenchmarkRuns.read(dir.resolve("nope.yaml"))).hasMessageContaining("no such file");
    }

    @Test
    void emptyFileHoldsNoRun() {
        assertThatThrownBy(() -> BenchmarkRuns.read("# nothing\n", "empty.yaml"))
                .hasMessageContaining("holds no BenchmarkRun");
    }

    @Test
    void writtenYamlReadsBackTheSameSpec() {
        BenchmarkRun run = BenchmarkRuns.read(VALID, "run.yaml").get(0);
        BenchmarkRunDefaults.apply(run);

        BenchmarkRun again =
                BenchmarkRuns.read(BenchmarkRuns.toYaml(run), "again.yaml").get(0);

        assertThat(BenchmarkRuns.toYaml(again)).isEqualTo(BenchmarkRuns.toYaml(run));
        assertThat(again.getSpec().getWorkload().getWarmup()).isEqualTo("20s");
    }

    @Test
    void numbersWhereTheSchemaSaysStringAreRefusedLikeTheApiServerDoes() {
        String text = VALID.replace("variant: webflux-r2dbc", "variant: webflux-r2dbc\n    resources: {cpu: 2}");

        assertThatThrownBy(() -> BenchmarkRuns.read(text, "run.yaml"))
                .hasMessageContaining("field spec.target.resources.cpu has the wrong value")
                .hasMessageContaining("cpu: \"2\"");
    }
}
