package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.Phase;
import dev.stackbench.k6.K6Env;
import dev.stackbench.testcluster.PodLogServing;
import dev.stackbench.testcluster.TestCluster;
import dev.stackbench.testcluster.TestClusterExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One run that used to take the operator down for every run: 100 runners whose logs are each as long as a kubelet
 * keeps (10 MiB, the summary at the end), and a target whose /actuator/prometheus is 200 MiB. The operator runs as
 * deployed, in a JVM of its own, with a smaller heap than the chart gives it (256 MiB) and the exit on
 * OutOfMemoryError: it must still collect every runner's summary and end the run Succeeded, saying the target's
 * figures are missing. The peak memory it reached is written to operator/target/bounded-collection-memory.txt (a
 * figure to read, not judged here).
 */
@Order(11)
@ExtendWith(TestClusterExtension.class)
class BoundedCollectionIT {

    static final int RUNNERS = 100;
    static final int LOG_BYTES = 10 * 1024 * 1024;
    static final long PAGE_BYTES = 200L * 1024 * 1024;
    static final String NAME = "bounded";

    /**
     * A runner's log as k6 writes it: k6's lines (and a script's console.log of the summary marker), then the
     * summary handleSummary prints last, {@link #LOG_BYTES} in all.
     */
    private static String runnerLog() throws Exception {
        String summary = Files.readString(Path.of("..", "core", "src", "test", "resources", "k6", "tiny-run.stdout"));
        StringBuilder log = new StringBuilder(LOG_BYTES + summary.length());
        log.append("time=\"2026-01-01T00:00:00Z\" level=info msg=\"")
                .append(K6Env.SUMMARY_BEGIN)
                .append("\" source=console\n");
        String line = "time=\"2026-01-01T00:00:01Z\" level=info msg=\"iteration done, status 200, body"
                + " 4096 bytes\" source=console\n";
        while (log.length() + line.length() + summary.length() < LOG_BYTES) {
            log.append(line);
        }
        return log.append(summary).toString();
    }

    @Test
    void aHundredFullRunnerLogsAndAHugeMetricsPageStillGiveTheResults(TestCluster cluster) throws Exception {
        long started = System.nanoTime();
        String log = runnerLog();
        try (OperatorHarness harness = new OperatorHarness(cluster, NAME);
                HugeMetricsPage page = new HugeMetricsPage(PAGE_BYTES)) {
            harness.stopOperator();
            String namespace = harness.namespace();
            try (PodLogServing logs = cluster.servePodLogs(namespace, Map.of(RunLabels.K6_RUNNER, "true"), pod -> log);
                    OperatorProcess operator = new OperatorProcess(NAME, "256m", harness.operatorClient(), namespace);
                    ManyRunnersStandIn k6 = new ManyRunnersStandIn(harness.client(), namespace, page.address(), logs)) {
                harness.apply(OperatorHarness.example(NAME, spec -> {
                            ObjectNode workload = (ObjectNode) spec.at("/spec/workload");
                            workload.put("parallelism", RUNNERS);
                            ((ObjectNode) workload.get("load"))
                                    .put("rate", RUNNERS)
                                    .put("vus", 2 * RUNNERS);
                            workload.putObject("runnerResources")
                                    .put("cpu", "100m")
                                    .put("memory", "64Mi");
                            ((ObjectNode) spec.get("spec")).put("timeout", "15m");
                        }))
                        .requireSuccess();

                BenchmarkRun run = awaitEnd(harness, operator, k6);
                double seconds = (System.nanoTime() - started) / 1e9;
                String memory = "peak resident memory (VmHWM) of the operator JVM (-Xmx256m): "
                        + operator.peakResidentKiB().stream()
                                .mapToObj(kib -> kib / 1024 + " MiB")
                                .findFirst()
                                .orElse("unknown")
                        + "\npeak heap used before a collection (GC log): "
                        + operator.peakHeapMiB().stream()
                                .mapToObj(mib -> mib + " MiB")
                                .findFirst()
                                .orElse("unknown")
                        + "\nmetrics page requests served: " + page.requests()
                        + String.format("\ntest time: %.0f s%n", seconds);
                Files.writeString(Path.of("target", "bounded-collection-memory.txt"), memory);
                System.out.println(memory);

                assertThat(operator.isAlive())
                        .as("the operator process is alive (no OutOfMemoryError): %s", operator.output())
                        .isTrue();
                assertThat(run.getStatus().getPhase())
                        .as("the run's status: %s", BenchmarkRuns.toYaml(run.getStatus()))
                        .isEqualTo(Phase.Succeeded);
                assertThat(run.getStatus().getSummary().getRunners()).isEqualTo(RUNNERS);
                assertThat(run.getStatus().getSummary().getRequests()).isPositive();
                assertThat(run.getStatus().getSummary().getWarnings())
                        .as("the target's figures are missing, and the warning says why")
                        .anySatisfy(warning -> assertThat(warning)
                                .contains("/actuator/prometheus of target pod", "16 MiB", "missing"));
            }
        }
    }

    /** Waits until the run has ended; fails at once when the operator process or the stand-in has died. */
    private static BenchmarkRun awaitEnd(OperatorHarness harness, OperatorProcess operator, ManyRunnersStandIn k6) {
        await("BenchmarkRun " + NAME + " ended")
                .atMost(Duration.ofMinutes(15))
                .pollInterval(Duration.ofSeconds(2))
                .until(() -> {
                    if (!operator.isAlive()) {
                        throw new AssertionError("the operator process ended: " + operator.output());
                    }
                    if (k6.failure() != null) {
                        throw new AssertionError("the k6-operator stand-in failed", k6.failure());
                    }
                    BenchmarkRun run = harness.run(NAME);
                    return run != null
                            && run.getStatus() != null
                            && run.getStatus().getPhase() != null
                            && run.getStatus().getPhase().isTerminal();
                });
        return harness.run(NAME);
    }
}
