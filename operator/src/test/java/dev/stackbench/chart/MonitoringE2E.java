package dev.stackbench.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.CheckResult;
import dev.stackbench.api.status.Phase;
import dev.stackbench.testcluster.CommandResult;
import dev.stackbench.testcluster.TestCluster;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The chart's dependencies as a user installs them, on the test cluster with real nodes: kube-prometheus-stack's
 * operator and the Prometheus it creates, on the images built from source, in the release namespace under Pod
 * Security "restricted"; then the chart's own PostgreSQL (Bitnami's chart on the project's image). Prometheus is
 * reached the way a user without a port-forward would, through the API server's service proxy.
 *
 * <p>In the real-node suite it comes last and switches the monitoring on in the release RealNodesE2E hands over, as a
 * user does on an installed release: kube-prometheus-stack's CRDs applied, then {@code helm upgrade}. Alone, it installs
 * the chart with the monitoring from the start.
 *
 * <p>Needs root, like every class of the real-node suite; elsewhere it is skipped, except under CI.
 */
@Order(5)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MonitoringE2E {

    private static final String NAMESPACE = RealNodesRelease.NAMESPACE;
    private static final String RELEASE = RealNodesRelease.RELEASE;
    /** The Prometheus resource kube-prometheus-stack creates, and its Service. */
    private static final String PROMETHEUS = RELEASE + "-kube-prometheus-stack-prometheus";

    private static final String PROMETHEUS_API =
            "/api/v1/namespaces/" + NAMESPACE + "/services/http:" + PROMETHEUS + ":9090/proxy/api/v1/";
    /** The scrape pool of the chart's PodMonitor for runs' Actuator endpoints (templates/podmonitor.yaml). */
    private static final String TARGETS_POOL = "podMonitor/" + NAMESPACE + "/" + RELEASE + "-stackbench-runs/0";
    /** The image hack/image-base/prometheus-images.sh builds for the exporter beside each run's database. */
    private static final String EXPORTER_IMAGE = "docker.io/stackbench/postgres-exporter:v0.17.1";
    /** The scrape pool through which Prometheus scrapes itself: an active target once scraping works. */
    private static final String SELF_POOL = "serviceMonitor/" + NAMESPACE + "/" + PROMETHEUS + "/0";

    private static final Duration READY_TIMEOUT = Duration.ofMinutes(6);
    private static final Pattern ERROR_REASON = Pattern.compile("Error from server \\((\\w+)\\)");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, String> measured = new LinkedHashMap<>();
    private RealNodesRelease release;
    private TestCluster cluster;

    @BeforeAll
    void start() {
        release = RealNodesRelease.install(
                getClass().getSimpleName(),
                measured,
                List.of(
                        "--set",
                        "kube-prometheus-stack.enabled=true",
                        "--set",
                        "metrics.databaseExporter.image=" + EXPORTER_IMAGE));
        cluster = release.cluster();
    }

    @AfterAll
    void stop() throws IOException {
        try {
            if (release != null) {
                release.stop("monitoring-cluster-logs");
            }
        } finally {
            if (release != null) {
                release.releaseTurn();
            }
            System.err.println("MonitoringE2E measured: " + measured);
        }
    }

    /**
     * The operator turns the chart's Prometheus resource into a StatefulSet whose pod gets Ready on the system node,
     * with Prometheus and the config reloader on the images hack/images.sh built.
     */
    @Test
    @Order(1)
    void prometheusGetsReadyOnTheSystemNodeOnTheImagesBuiltHere() {
        Instant began = Instant.now();
        Pod pod = await(
                "a Prometheus pod", () -> prometheusPods().stream().findFirst().orElse(null));
        cluster.kubectl(
                        "wait",
                        "--namespace",
                        NAMESPACE,
                        "--for=condition=Ready",
                        "pod/" + pod.getMetadata().getName(),
                        "--timeout=" + READY_TIMEOUT.toSeconds() + "s")
                .requireSuccess();
        measured.put("prometheus.readySeconds", RealNodesRelease.seconds(began));

        pod = prometheusPods().get(0);
        assertThat(pod.getSpec().getNodeName()).isEqualTo(TestCluster.SYSTEM_NODE);
        List<String> images = new ArrayList<>();
        pod.getSpec().getInitContainers().forEach(c -> images.add(c.getImage()));
        pod.getSpec().getContainers().forEach(c -> images.add(c.getImage()));
        assertThat(images)
                .contains(
                        "docker.io/stackbench/prometheus:v3.14.0",
                        "docker.io/stackbench/prometheus-config-reloader:v0.93.0")
                .allMatch(image -> image.startsWith("docker.io/stackbench/"));
        Container prometheus = pod.getSpec().getContainers().stream()
                .filter(c -> c.getName().equals("prometheus"))
                .findFirst()
                .orElseThrow();
        assertThat(prometheus.getArgs()).contains("--web.enable-remote-write-receiver");
    }

    /**
     * The running Prometheus is 3.14.0 with the remote-write receiver on (a POST to /api/v1/write reaches the
     * handler: a body that is no snappy-compressed protobuf is refused with 400, where a Prometheus without the
     * receiver answers 404) and scrapes native histograms
     * (scrape_native_histograms in the configuration the operator generated).
     */
    @Test
    @Order(2)
    void prometheusReceivesRemoteWriteAndScrapesNativeHistograms() throws IOException {
        assertThat(api("status/buildinfo").path("data").path("version").asText())
                .isEqualTo("3.14.0");
        assertThat(api("status/flags")
                        .path("data")
                        .path("web.enable-remote-write-receiver")
                        .asText())
                .isEqualTo("true");
        assertThat(api("status/config").path("data").path("yaml").asText()).contains("scrape_native_histograms: true");

        Path body = Files.createTempFile("remote-write-", ".bin");
        try {
            Files.writeString(body, "not a remote-write request");
            CommandResult write = cluster.kubectl("create", "--raw", PROMETHEUS_API + "write", "-f", body.toString());
            // kubectl names the HTTP status by its reason: BadRequest (400) is the receiver refusing the body;
            // without the receiver the path is NotFound (404).
            Matcher reason = ERROR_REASON.matcher(write.stderr());
            assertThat(write.succeeded() ? null : reason.find() ? reason.group(1) : write.describe())
                    .as("the answer to POST /api/v1/write")
                    .isEqualTo("BadRequest");
        } finally {
            Files.deleteIfExists(body);
        }
    }

    /**
     * Prometheus found the chart's PodMonitor for runs' pods (its scrape pool is configured, with no target before a
     * run deploys one) and scrapes for real: its own ServiceMonitor's target is up.
     */
    @Test
    @Order(3)
    void targetsIncludeTheChartsPodMonitor() {
        Instant began = Instant.now();
        JsonNode pools = await("the chart's PodMonitor among Prometheus' scrape pools", () -> {
            JsonNode data = api("scrape_pools").path("data").path("scrapePools");
            return data.toString().contains(TARGETS_POOL) ? data : null;
        });
        assertThat(pools.toString()).contains(TARGETS_POOL);
        JsonNode self = await("Prometheus' own target up", () -> {
            for (JsonNode target : api("targets?state=active").path("data").path("activeTargets")) {
                if (SELF_POOL.equals(target.path("scrapePool").asText())
                        && "up".equals(target.path("health").asText())) {
                    return target;
                }
            }
            return null;
        });
        assertThat(self.path("lastError").asText()).isEmpty();
        measured.put("prometheus.targetsSeconds", RealNodesRelease.seconds(began));
    }

    /**
     * The chart's own PostgreSQL, added to the release: Bitnami's StatefulSet gets Ready on the backend node on the
     * project's image, with the database named like the user and the settings given as arguments.
     */
    @Test
    @Order(5)
    void chartsOwnPostgresqlRunsOnTheProjectsImage() {
        Instant began = Instant.now();
        release.upgrade(List.of(
                "--set",
                "postgresql.enabled=true",
                // The test cluster has no storage provisioner: an emptyDir instead of a claim.
                "--set",
                "postgresql.primary.persistence.enabled=false"));
        measured.put("postgresql.readySeconds", RealNodesRelease.seconds(began));

        Pod pod = cluster.client()
                .pods()
                .inNamespace(NAMESPACE)
                .withName(RELEASE + "-postgresql-0")
                .get();
        assertThat(pod.getSpec().getNodeName()).startsWith("stackbench-backend");
        assertThat(pod.getSpec().getContainers().get(0).getImage()).isEqualTo("docker.io/stackbench/postgres:15");
        CommandResult query = cluster.kubectl(
                "exec",
                "--namespace",
                NAMESPACE,
                RELEASE + "-postgresql-0",
                "--",
                "psql",
                "-XAtq",
                "-U",
                "stackbench",
                "-d",
                "stackbench",
                "-c",
                "SELECT current_user || ' ' || current_database() || ' ' || current_setting('max_connections')");
        assertThat(query.requireSuccess().stdout().trim()).isEqualTo("stackbench stackbench 300");
    }

    /**
     * A run with two runners sends k6's metrics to this Prometheus by remote write, request durations as native
     * histograms labelled with the run and the runner; histogram_quantile over the sum of both runners' measure
     * scenario gives the p95 the run's status reports, within one bucket of each side's resolution: the native
     * histogram's (k6 asks for a bucket factor of 1.1, schema 3: 2^(1/8) = 1.0905) and the summary's, which with
     * several runners is the upper bound of its own 4 % bucket.
     */
    @Test
    @Order(4)
    void aRunsRemoteWrittenHistogramsGiveTheP95OfItsStatus() throws IOException {
        String name = "remote-write";
        cluster.kubectlWithInput(
                        RealNodesRelease.variantRun(name, "{cpu: \"1\", memory: 1Gi}", "", "5s", "20s")
                                .replace(
                                        "    load: {",
                                        "    parallelism: 2\n"
                                                + "    runnerResources: {cpu: 250m, memory: 256Mi}\n"
                                                + "    load: {")
                                // PromQL checks over the measured window: one error check that holds, one warning
                                // check that fires.
                                .replace("  cleanup: Always\n", "  cleanup: Always\n" + CHECKS),
                        "apply",
                        "--namespace",
                        NAMESPACE,
                        "-f",
                        "-")
                .requireSuccess();
        BenchmarkRun run = await("run " + name + " ended", () -> {
            BenchmarkRun current = cluster.client()
                    .resources(BenchmarkRun.class)
                    .inNamespace(NAMESPACE)
                    .withName(name)
                    .get();
            return current != null
                            && current.getStatus() != null
                            && current.getStatus().getPhase() != null
                            && current.getStatus().getPhase().isTerminal()
                    ? current
                    : null;
        });
        assertThat(run.getStatus().getPhase()).as(run.getStatus().getMessage()).isEqualTo(Phase.Succeeded);
        double statusP95 = run.getStatus().getSummary().getLatencyMs().getP95();
        // At the end of the run and a push interval later: each runner's last push holds its whole histogram.
        long at = Instant.parse(run.getStatus().getFinishedAt()).getEpochSecond() + 10;
        String selector = "{stackbench_run=\"" + name + "\",scenario=\"measure\"}";
        JsonNode runners =
                query("count(count by (instance_id) (last_over_time(k6_http_reqs_total" + selector + "[10m])))", at);
        assertThat(runners.path(0).path("value").path(1).asText())
                .as("runners in Prometheus")
                .isEqualTo("2");
        JsonNode p95 = query(
                "histogram_quantile(0.95, sum(last_over_time(k6_http_req_duration_seconds" + selector + "[10m])))", at);
        double prometheusP95 = p95.path(0).path("value").path(1).asDouble() * 1000;
        JsonNode count =
                query("histogram_count(sum(last_over_time(k6_http_req_duration_seconds" + selector + "[10m])))", at);
        long requests = run.getStatus().getSummary().getRequests();
        measured.put("remoteWrite.p95.statusMs", String.valueOf(statusP95));
        measured.put("remoteWrite.p95.prometheusMs", String.format(java.util.Locale.ROOT, "%.1f", prometheusP95));
        measured.put("remoteWrite.requests.status", String.valueOf(requests));
        measured.put(
                "remoteWrite.requests.prometheus",
                count.path(0).path("value").path(1).asText());
        double tolerance = Math.pow(2, 1.0 / 8) * 1.04;
        assertThat(prometheusP95 / statusP95)
                .as("Prometheus p95 %.1f ms against status p95 %.1f ms", prometheusP95, statusP95)
                .isBetween(1 / tolerance, tolerance);
        // Every measured request is in the histograms (the count of the measure scenario's durations).
        assertThat(Math.round(count.path(0).path("value").path(1).asDouble())).isEqualTo(requests);
        everyDashboardPanelHasDataFor(
                name, Instant.parse(run.getStatus().getFinishedAt()).getEpochSecond());
        // The run's own PostgreSQL through the exporter beside it, labelled with the run: reached (pg_up 1), with
        // the statistics of the run's database (the target's migrations committed there at least).
        String database = "{stackbench_dev_run=\"" + name + "\",stackbench_dev_role=\"database\"}";
        JsonNode up = query("max_over_time(pg_up" + database + "[10m])", at);
        assertThat(up.path(0).path("value").path(1).asText())
                .as("pg_up of the run's database")
                .isEqualTo("1");
        JsonNode commits = query(
                "max_over_time(pg_stat_database_xact_commit{stackbench_dev_run=\"" + name
                        + "\",stackbench_dev_role=\"database\",datname=\"stackbench\"}[10m])",
                at);
        measured.put("database.commits", commits.path(0).path("value").path(1).asText());
        // Whether this Prometheus scrapes the kubelets' cAdvisor (kube-prometheus-stack's kubelet ServiceMonitor),
        // which the dashboard's throttling query needs: recorded, not required.
        JsonNode cadvisor = api("query?query="
                + java.net.URLEncoder.encode(
                        "count(container_cpu_cfs_periods_total)", java.nio.charset.StandardCharsets.UTF_8)
                + "&time=" + at);
        measured.put(
                "kubelet.cadvisorSeries",
                cadvisor.path("data")
                        .path("result")
                        .path(0)
                        .path("value")
                        .path(1)
                        .asText("0"));
        assertThat(commits.path(0).path("value").path(1).asDouble())
                .as("commits in the run's database")
                .isPositive();

        reportOfTheCleanedUpRun(name, requests);

        List<CheckResult> checks = run.getStatus().getSummary().getChecks();
        assertThat(checks).hasSize(2);
        assertThat(checks.get(0).getFired())
                .as("p95 above 5 s: %s", checks.get(0).getValue())
                .isFalse();
        assertThat(checks.get(0).getExpr())
                .contains("stackbench_run=\"" + name + "\"")
                .doesNotContain("$run");
        assertThat(checks.get(1).getFired()).isTrue();
        assertThat(checks.get(1).getExpr()).contains("[20s]");
        assertThat(Double.parseDouble(checks.get(1).getValue())).isGreaterThan(100);
        assertThat(run.getStatus().getSummary().getWarnings())
                .anyMatch(warning -> warning.startsWith("PromQL check ") && warning.contains("more than 100 requests"));
        measured.put("checks.warningValue", checks.get(1).getValue());
        cluster.kubectl("delete", "benchmarkrun", "--namespace", NAMESPACE, name, "--wait=true", "--timeout=2m")
                .requireSuccess();
    }

    /**
     * The run's pods are gone (cleanup: Always), and what it kept lets {@code stackbench report} render it from the
     * cluster with kubectl: the ConfigMap it owns holds the script, both runners' summaries and their per-second counts,
     * whose measure-scenario seconds add up to the requests of the status; the report renders from them. The fetched
     * files and the report stay in target/e2e/cluster-report/.
     */
    private void reportOfTheCleanedUpRun(String name, long requests) throws IOException {
        // Cleanup has deleted the pods; they end within their grace period.
        await(
                "the pods of run " + name + " gone after its cleanup",
                () -> cluster.client()
                                .pods()
                                .inNamespace(NAMESPACE)
                                .withLabel("stackbench.dev/run", name)
                                .list()
                                .getItems()
                                .isEmpty()
                        ? Boolean.TRUE
                        : null);
        Path dir = Path.of("target/e2e/cluster-report", name);
        dev.stackbench.local.ClusterResults.Kubectl kubectl = arguments -> {
            CommandResult result = cluster.kubectl(arguments.toArray(String[]::new));
            if (!result.succeeded()) {
                throw new IllegalArgumentException(result.describe());
            }
            return result.stdout();
        };
        List<String> warnings = dev.stackbench.local.ClusterResults.fetch(kubectl, NAMESPACE, name, dir);
        assertThat(warnings).as("warnings of the fetch").isEmpty();
        assertThat(dir.resolve("k6-script.js")).isNotEmptyFile();
        assertThat(dir.resolve("k6-summary-1.json")).isNotEmptyFile();
        assertThat(dir.resolve("k6-summary-2.json")).isNotEmptyFile();
        assertThat(dir.resolve("target-scrapes.tsv")).isNotEmptyFile();
        assertThat(dir.resolve("target-metrics.csv")).isNotEmptyFile();
        List<String> seconds = Files.readAllLines(dir.resolve("requests-per-second.csv"));
        long perSecondTotal = 0;
        List<Long> counts = new ArrayList<>();
        for (String line : seconds.subList(1, seconds.size())) {
            long count = Long.parseLong(line.split(",")[1]);
            counts.add(count);
            perSecondTotal += count;
        }
        measured.put("clusterReport.perSecond", counts.toString());
        assertThat(perSecondTotal)
                .as("the measure scenario's seconds of both runners against the status' requests")
                .isEqualTo(requests);
        Path report = dir.resolveSibling(name + "-report.html");
        int exit = dev.stackbench.cli.StackbenchCommand.commandLine()
                .execute("report", "-o", report.toString(), dir.toString());
        assertThat(exit).as("stackbench report of the fetched run").isZero();
        assertThat(Files.readString(report)).contains(name);
    }

    /**
     * Every panel of the dashboard the chart installed, its variables set to this run, returns data from this
     * Prometheus at the end of the run (a panel with several queries: at least one of them); the result of each query
     * is written to target/e2e/dashboard-queries.txt.
     */
    private void everyDashboardPanelHasDataFor(String run, long epochSecond) throws IOException {
        String json = cluster.client()
                .configMaps()
                .inNamespace(NAMESPACE)
                .withName(RELEASE + "-stackbench-dashboard")
                .get()
                .getData()
                .get("stackbench-benchmarkrun.json");
        JsonNode dashboard = JSON.readTree(json);
        StringBuilder report = new StringBuilder();
        List<String> empty = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            int series = 0;
            for (JsonNode target : panel.path("targets")) {
                String expr = target.path("expr")
                        .asText()
                        .replace("$namespace", NAMESPACE)
                        .replace("$run", run);
                JsonNode answer = api("query?query="
                        + java.net.URLEncoder.encode(expr, java.nio.charset.StandardCharsets.UTF_8) + "&time="
                        + epochSecond);
                int found = answer.path("data").path("result").size();
                series += found;
                report.append(panel.path("title").asText())
                        .append(" | ")
                        .append(found)
                        .append(" series | ")
                        .append(answer.path("data")
                                .path("result")
                                .path(0)
                                .path("value")
                                .path(1)
                                .asText("-"))
                        .append(" | ")
                        .append(expr)
                        .append('\n');
            }
            if (series == 0) {
                empty.add(panel.path("title").asText());
            }
        }
        Path file = Path.of("target/e2e/dashboard-queries.txt");
        Files.createDirectories(file.getParent());
        Files.writeString(file, report);
        assertThat(empty)
                .as("panels whose queries returned nothing (see %s):%n%s", file, report)
                .isEmpty();
    }

    private static final String CHECKS = """
              checks:
              - expr: histogram_quantile(0.95, sum(last_over_time(k6_http_req_duration_seconds{stackbench_run="$run",scenario="measure"}[10m]))) > 5
                severity: error
                description: p95 above 5 s
              - expr: sum(last_over_time(k6_http_reqs_total{stackbench_run="$run",scenario="measure"}[$window])) > 100
                severity: warning
                description: more than 100 requests
            """;

    /** An instant PromQL query at {@code epochSecond}, through the API server's service proxy: its result array. */
    private JsonNode query(String promql, long epochSecond) {
        JsonNode answer = api("query?query="
                + java.net.URLEncoder.encode(promql, java.nio.charset.StandardCharsets.UTF_8) + "&time=" + epochSecond);
        assertThat(answer.path("status").asText()).as(promql + ": " + answer).isEqualTo("success");
        assertThat(answer.path("data").path("result"))
                .as(promql + " returned nothing")
                .isNotEmpty();
        return answer.path("data").path("result");
    }

    private List<Pod> prometheusPods() {
        return cluster.client()
                .pods()
                .inNamespace(NAMESPACE)
                .withLabel("prometheus", PROMETHEUS)
                .list()
                .getItems();
    }

    /** GET of a Prometheus API path through the API server's service proxy, parsed. */
    private JsonNode api(String path) {
        CommandResult result = cluster.kubectl("get", "--raw", PROMETHEUS_API + path);
        try {
            return JSON.readTree(result.requireSuccess().stdout());
        } catch (IOException e) {
            throw new UncheckedIOException("Prometheus answered " + path + " with no JSON: " + result.stdout(), e);
        }
    }

    /** Polls until {@code probe} gives a value, failing after {@link #READY_TIMEOUT} with the last error. */
    private static <T> T await(String what, Supplier<T> probe) {
        Instant deadline = Instant.now().plus(READY_TIMEOUT);
        RuntimeException last = null;
        while (Instant.now().isBefore(deadline)) {
            try {
                T value = probe.get();
                if (value != null) {
                    return value;
                }
            } catch (RuntimeException e) {
                last = e;
            }
            RealNodesRelease.sleep(Duration.ofSeconds(2));
        }
        throw new AssertionError("no " + what + " within " + READY_TIMEOUT, last);
    }
}
