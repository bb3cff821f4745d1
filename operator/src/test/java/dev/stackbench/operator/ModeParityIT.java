package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.BenchmarkRunStatus;
import dev.stackbench.api.status.Phase;
import dev.stackbench.cli.StackbenchCommand;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.testcluster.MeasuresOnAQuietMachine;
import dev.stackbench.testcluster.ProjectTools;
import dev.stackbench.testcluster.TestCluster;
import dev.stackbench.testcluster.TestClusterExtension;
import io.fabric8.kubernetes.api.model.Condition;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * One spec through both ways of running it: the operator on the test cluster (k6 runners played by
 * {@link K6OperatorStandIn} with real k6 against a real target) and local mode (the real CLI). The two statuses must
 * carry the same conditions with the same reasons, and summaries with the same fields: a difference between the modes
 * may only come from the environment, never from a second copy of the life cycle or of the results code.
 */
@Order(14)
@ExtendWith(TestClusterExtension.class)
@MeasuresOnAQuietMachine
class ModeParityIT {

    private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules();

    /**
     * Summary fields only one mode can fill here, each for a reason of the environment: the kwok nodes of the test
     * cluster run no containers, so the operator cannot scrape a target pod (its figures stay empty and it warns, and
     * its server-side check has no figures, only the reason). Warnings are compared on their own, below.
     */
    /**
     * Summary fields only one environment can fill: the target's scrapes and the server-side check (no target on kwok
     * nodes), the warnings, the latency from the intended start, which the runners print only with the chart's
     * k6.perSecondOutput (on by default; the operator in this JVM runs without it; RealNodesE2E checks the cluster's),
     * and the host's steal, which local mode reads from this machine and a cluster reads from its target's scrapes
     * (none on kwok nodes).
     */
    private static final List<String> ENVIRONMENT_SPECIFIC_SUMMARY_FIELDS =
            List.of("target", "server", "warnings", "intendedLatencyMs", "hostSteal");

    /**
     * The starts of the warnings that say what only one environment could not observe: on the cluster's kwok nodes
     * there is no target to scrape and no kubelet with CPU counters; locally a target too busy to answer a scrape.
     * Every other warning (the load, the thresholds, the generator, the server-side check) must be the same words in
     * both modes.
     */
    private static final List<String> ENVIRONMENT_SPECIFIC_WARNINGS = List.of(
            "target metrics unavailable",
            "target metrics cover",
            "pod CPU ",
            "no CPU figures for ",
            "server-side check unavailable",
            "the machine's host took ");

    @TempDir
    Path dir;

    @Test
    void theSameSpecGivesTheSameConditionsAndSummaryFieldsInBothModes(TestCluster cluster) throws Exception {
        String yaml = OperatorHarness.example("parity", spec -> {
            ObjectNode workload = (ObjectNode) spec.at("/spec/workload");
            workload.put("parallelism", 1);
            // Thresholds that hold on any machine, so both statuses carry ThresholdsPassed for the same reason.
            ObjectNode thresholds = workload.putObject("thresholds");
            thresholds.putArray("http_req_duration").add("p(95)<60000");
            thresholds.putArray("http_req_failed").add("rate<0.5");
        });

        BenchmarkRunStatus clusterStatus = runOnTheCluster(cluster, yaml);
        // Local mode measures on this machine's CPUs and flags a busy generator CPU: the class has the machine quiet.
        BenchmarkRunStatus localStatus = runLocally(yaml);

        assertThat(clusterStatus.getPhase()).isEqualTo(Phase.Succeeded);
        assertThat(localStatus.getPhase())
                .as("local run: %s", localStatus.getMessage())
                .isEqualTo(Phase.Succeeded);
        assertThat(conditions(localStatus)).isEqualTo(conditions(clusterStatus));
        assertThat(conditions(clusterStatus))
                .contains(
                        "PoolsAvailable=True/PoolsAcquired",
                        "TargetReady=True/TargetReady",
                        "LoadRunning=False/LoadFinished",
                        "GeneratorSaturated=False/GeneratorKeptUp",
                        "ResultsCollected=True/ResultsCollected",
                        "ThresholdsPassed=True/ThresholdsPassed",
                        "Complete=True/RunSucceeded",
                        "CleanedUp=True/Deleted");
        assertThat(summaryFields(localStatus)).isEqualTo(summaryFields(clusterStatus));
        assertThat(localStatus.getSummary().getIntendedLatencyMs())
                .as("local mode's k6 writes the intended starts")
                .isNotNull();
        assertThat(sharedWarnings(localStatus))
                .as("warnings both modes could observe, in the same words")
                .isEqualTo(sharedWarnings(clusterStatus));
        assertThat(generatorCondition(clusterStatus))
                .as("the cluster's runners have no CPU figures on kwok nodes: the condition says so")
                .startsWith("False/GeneratorKeptUp: no iterations dropped; the load generator's CPU could not be read");
        assertThat(generatorCondition(localStatus))
                .as("local mode measured k6's CPU: the same check, in the words it uses with figures")
                .matches("False/GeneratorKeptUp: k6 kept up: no iterations dropped, k6 used [0-9.]+ CPU, below 80%"
                        + " of what it may use");
        assertThat(localStatus.getSummary().getServer())
                .as("both modes run the server-side check")
                .isNotNull();
        assertThat(clusterStatus.getSummary().getServer().getUnavailableReason())
                .as("the cluster's unscrapable target gives the reason instead of figures")
                .isNotBlank();
        assertThat(clusterStatus.getEnvironment().getJvmOptions())
                .as("the JVM options both modes gave the target")
                .isEqualTo(localStatus.getEnvironment().getJvmOptions());
        assertThat(clusterStatus.getEnvironment().getThreadPoolSize())
                .isEqualTo(localStatus.getEnvironment().getThreadPoolSize());
    }

    private static BenchmarkRunStatus runOnTheCluster(TestCluster cluster, String yaml) {
        try (LocalTargetStack target = new LocalTargetStack();
                OperatorHarness harness = new OperatorHarness(cluster, "parity");
                K6OperatorStandIn k6Operator = new K6OperatorStandIn(cluster, harness.namespace(), target.baseUrl())) {
            harness.apply(yaml).requireSuccess();
            harness.awaitPhase("parity", Phase.Succeeded);
            await("cleanup of run parity")
                    .atMost(OperatorHarness.WAIT)
                    .until(() -> harness.run("parity").getStatus().getConditions().stream()
                            .anyMatch(c -> RunProgress.CLEANED_UP.equals(c.getType())));
            BenchmarkRun run = harness.run("parity");
            return run.getStatus();
        }
    }

    private BenchmarkRunStatus runLocally(String yaml) throws Exception {
        Path spec = dir.resolve("parity.yaml");
        Files.writeString(spec, yaml);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = StackbenchCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exitCode = cli.execute(
                "run",
                "--root",
                ProjectTools.repositoryRoot().toString(),
                "--results-dir",
                dir.resolve("results").toString(),
                "--output",
                "json",
                spec.toString());
        assertThat(exitCode).as("local run exit code; stderr:\n" + err).isZero();
        return JSON.readValue(out.toString(), BenchmarkRunStatus.class);
    }

    /** The summary's warnings, less those about what only one environment could not observe. */
    private static List<String> sharedWarnings(BenchmarkRunStatus status) {
        List<String> warnings = status.getSummary().getWarnings() == null
                ? List.of()
                : status.getSummary().getWarnings();
        return warnings.stream()
                .filter(warning -> ENVIRONMENT_SPECIFIC_WARNINGS.stream().noneMatch(warning::startsWith))
                .sorted()
                .toList();
    }

    /** The GeneratorSaturated condition as status/reason: message. */
    private static String generatorCondition(BenchmarkRunStatus status) {
        return status.getConditions().stream()
                .filter(c -> "GeneratorSaturated".equals(c.getType()))
                .map(c -> c.getStatus() + "/" + c.getReason() + ": " + c.getMessage())
                .findFirst()
                .orElse("missing");
    }

    /** Each condition as type=status/reason, ordered by type. */
    private static TreeSet<String> conditions(BenchmarkRunStatus status) {
        TreeSet<String> conditions = new TreeSet<>();
        for (Condition condition : status.getConditions()) {
            conditions.add(condition.getType() + "=" + condition.getStatus() + "/" + condition.getReason());
        }
        return conditions;
    }

    /** The paths of every field the summary fills (nested objects included), less the environment-specific ones. */
    private static TreeSet<String> summaryFields(BenchmarkRunStatus status) {
        ObjectNode summary = JSON.valueToTree(status.getSummary());
        ENVIRONMENT_SPECIFIC_SUMMARY_FIELDS.forEach(summary::remove);
        TreeSet<String> paths = new TreeSet<>();
        collect("", summary, paths);
        return paths;
    }

    private static void collect(String prefix, JsonNode node, TreeSet<String> paths) {
        if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                if (!field.getValue().isNull()) {
                    collect(prefix + "." + field.getKey(), field.getValue(), paths);
                }
            }
        } else if (node instanceof ArrayNode array
                && !array.isEmpty()
                && array.get(0).isObject()) {
            collect(prefix + "[]", array.get(0), paths);
        } else {
            paths.add(prefix);
        }
    }
}
