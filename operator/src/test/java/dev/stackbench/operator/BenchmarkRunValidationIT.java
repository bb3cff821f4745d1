package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.Conditions;
import dev.stackbench.api.status.Phase;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.testcluster.CommandResult;
import dev.stackbench.testcluster.TestCluster;
import dev.stackbench.testcluster.TestClusterExtension;
import io.fabric8.kubernetes.api.model.Condition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Invalid specs never reach the operator: the API server refuses them at admission (CRD schema and CEL rules) with a
 * message naming the field to change. Each fixture in invalid-specs/ says on its first line which field that is.
 */
@Order(2)
@ExtendWith(TestClusterExtension.class)
class BenchmarkRunValidationIT {

    private static final String EXPECT = "# expect: ";
    /**
     * Checked by the operator when it admits a run (k6's threshold grammar and metrics), not by the CRD: the run
     * is created and fails at once.
     */
    static final List<String> CHECKED_BY_THE_OPERATOR = List.of(
            "capacity-timeout-too-short.yaml",
            "jvm-options-unclosed-quote.yaml",
            "threshold-on-unknown-metric.yaml",
            "threshold-percentile-of-a-rate.yaml",
            "threshold-with-unit.yaml");

    private static TestCluster cluster;
    private static String namespace;

    @BeforeAll
    static void createNamespace(TestCluster sharedCluster) {
        cluster = sharedCluster;
        OperatorHarness.installCrd(cluster);
        namespace = cluster.createNamespace("validation");
    }

    @AfterAll
    static void deleteNamespace() {
        if (namespace != null) {
            cluster.client().namespaces().withName(namespace).delete();
        }
    }

    @TestFactory
    Stream<DynamicTest> theApiServerRefusesEveryInvalidSpecNamingTheField() throws IOException {
        Path directory = ExampleRuns.repositoryRoot().resolve("core/src/test/resources/invalid-specs");
        List<Path> fixtures;
        try (Stream<Path> files = Files.list(directory)) {
            fixtures = files.filter(file -> file.toString().endsWith(".yaml"))
                    .sorted()
                    .filter(file ->
                            !CHECKED_BY_THE_OPERATOR.contains(file.getFileName().toString()))
                    .toList();
        }
        assertThat(fixtures).hasSizeGreaterThanOrEqualTo(20);
        return fixtures.stream()
                .map(fixture -> DynamicTest.dynamicTest(fixture.getFileName().toString(), () -> {
                    String text = Files.readString(fixture);
                    String firstLine = text.lines().findFirst().orElse("");
                    assertThat(firstLine).as("first line of " + fixture).startsWith(EXPECT);
                    String field = firstLine.substring(EXPECT.length()).strip();

                    CommandResult result = cluster.kubectlWithInput(text, "apply", "--namespace", namespace, "-f", "-");

                    assertThat(result.exitCode())
                            .as("kubectl apply of " + fixture.getFileName() + " was accepted:\n" + result.describe())
                            .isNotZero();
                    assertThat(result.stderr())
                            .as(result.describe())
                            .contains("is invalid")
                            .contains(field);
                }));
    }
    /**
     * What only the operator checks (a threshold k6 would refuse once everything runs) fails the run when the
     * operator admits it: with the validator's message naming the field, before the run takes its node pools or
     * creates anything.
     */
    @Test
    void theOperatorFailsARunWithAMalformedThresholdBeforeAnythingStarts() throws IOException {
        Path directory = ExampleRuns.repositoryRoot().resolve("core/src/test/resources/invalid-specs");
        try (OperatorHarness harness = new OperatorHarness(cluster, "admission")) {
            for (String fixture : CHECKED_BY_THE_OPERATOR) {
                String text = Files.readString(directory.resolve(fixture));
                String field = text.lines()
                        .findFirst()
                        .orElseThrow()
                        .substring(EXPECT.length())
                        .strip();
                String name = fixture.replaceFirst("[.]yaml$", "");

                harness.apply(text).requireSuccess();
                BenchmarkRun run = harness.awaitPhase(name, Phase.Failed);

                Condition complete = Conditions.find(run.getStatus().getConditions(), Conditions.COMPLETE)
                        .orElseThrow();
                assertThat(complete.getReason()).as(fixture).isEqualTo("InvalidSpec");
                assertThat(complete.getMessage()).as(fixture).contains(field);
                assertThat(run.getStatus().getMessage()).isEqualTo(complete.getMessage());
                assertThat(Conditions.find(run.getStatus().getConditions(), RunProgress.POOLS_AVAILABLE))
                        .as("%s never took its node pools", fixture)
                        .isEmpty();
                assertThat(harness.client()
                                .configMaps()
                                .inNamespace(harness.namespace())
                                .withLabel(RunLabels.RUN, name)
                                .list()
                                .getItems())
                        .as("objects of %s", fixture)
                        .isEmpty();
            }
            BenchmarkRun withUnit = harness.run("threshold-with-unit");
            assertThat(withUnit.getStatus().getMessage())
                    .contains("'p(95) < 1s' is not a k6 threshold", "the limit '1s' is not a plain number")
                    .contains("p(95)<500", "rate<0.01", "avg<200", "max<1000", "count>0");
            assertThat(harness.client()
                            .apps()
                            .deployments()
                            .inNamespace(harness.namespace())
                            .list()
                            .getItems())
                    .isEmpty();
        }
    }
}
