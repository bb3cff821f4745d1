package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stackbench.api.comparison.BenchmarkComparisonStatus;
import dev.stackbench.api.comparison.ComparisonPhase;
import dev.stackbench.api.comparison.MetricShift;
import dev.stackbench.api.status.BenchmarkRunStatus;
import dev.stackbench.api.status.LatencySummary;
import dev.stackbench.api.status.LockSummary;
import dev.stackbench.api.status.Phase;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.api.status.ServerAgreement;
import dev.stackbench.api.status.ServerSummary;
import dev.stackbench.api.status.StepOutcome;
import dev.stackbench.api.status.StepResult;
import dev.stackbench.results.ScrapeLog;
import dev.stackbench.results.TimedScrape;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A short, low-rate local run for real: PostgreSQL, the delay service and a target variant as real processes,
 * driven by the real k6. Checks that the summary is complete and consistent and that nothing is left running.
 * No assertion on timings: the machine is shared.
 */
class LocalRunIT {

    private static final Path REPO_ROOT = CliInvocation.REPO_ROOT;
    private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules();

    @TempDir
    Path dir;

    @BeforeAll
    static void requireToolsAndJars() {
        CliInvocation.k6FromEnvironment();
        for (String jar : List.of(
                "targets/delay-service/target/delay-service.jar",
                "targets/webflux-app/target/webflux-app.jar",
                "targets/mvc-app/target/mvc-app.jar")) {
            assertThat(REPO_ROOT.resolve(jar))
                    .as(jar + " is missing: build the targets first (mvn -pl "
                            + "targets/webflux-app,targets/delay-service -am package, or the full build)")
                    .isRegularFile();
        }
    }

    @Test
    void shortRealRunProducesAConsistentSummaryAndLeavesNoProcessBehind() throws Exception {
        Path spec = dir.resolve("short.yaml");
        Files.writeString(spec, """
                apiVersion: stackbench.dev/v1alpha1
                kind: BenchmarkRun
                metadata:
                  name: it-webflux-r2dbc
                spec:
                  target:
                    variant: webflux-r2dbc
                    resources: {cpu: "1", memory: 512Mi}
                  workload:
                    scenario: mixed
                    upstreamDelay: 20ms
                    dbSleep: 10ms
                    load: {executor: constant-arrival-rate, rate: 10, vus: 20}
                    warmup: 2s
                    duration: 5s
                    thresholds:
                      http_req_failed: ["rate<0.01"]
                """);
        Path results = dir.resolve("results");
        CpuSet cpusBefore = CpuSet.ofThisProcess();

        CliInvocation cli = CliInvocation.run("--results-dir", results.toString(), "--output", "json", spec.toString());

        assertThat(cli.exitCode()).as("exit code; stderr:\n" + cli.err()).isZero();
        assertThat(CpuSet.ofThisProcess())
                .as("the CLI gives back the CPUs it moved off")
                .isEqualTo(cpusBefore);
        BenchmarkRunStatus status = JSON.readValue(cli.out(), BenchmarkRunStatus.class);
        assertThat(status.getPhase()).isEqualTo(Phase.Succeeded);
        RunSummary summary = status.getSummary();
        assertThat(summary.getRequests()).isPositive();
        assertThat(summary.getRps()).isPositive();
        assertThat(summary.getErrorRate()).isZero();
        LatencySummary latency = summary.getLatencyMs();
        assertThat(latency.getP50()).isPositive().isLessThanOrEqualTo(latency.getP95());
        assertThat(latency.getP95()).isLessThanOrEqualTo(latency.getP99());
        assertThat(latency.getP99()).isLessThanOrEqualTo(latency.getMax());
        assertThat(summary.getTarget().getPeakThreads()).isPositive();
        // The target's own counters, read around the window's edges, see the same throughput as k6.
        ServerSummary server = summary.getServer();
        assertThat(server.getUnavailableReason()).isNull();
        assertThat(server.getRequests()).isPositive();
        assertThat(server.getRpsCheck())
                .as("server %s requests/s, k6 %s", server.getRps(), summary.getRps())
                .isEqualTo(ServerAgreement.AGREES);
        assertThat(server.getP95BucketMs()).isNotNull();
        // The window is where k6 says its measured scenario ran: exactly the spec's duration, whatever the latency.
        assertThat(java.time.Duration.between(
                        java.time.Instant.parse(server.getWindowStart()),
                        java.time.Instant.parse(server.getWindowEnd())))
                .isEqualTo(java.time.Duration.ofSeconds(5));
        // The operator's life cycle and reasons (ModeParityIT compares the two modes side by side).
        assertThat(status.getConditions())
                .extracting(c -> c.getType() + "=" + c.getStatus() + "/" + c.getReason())
                .containsExactlyInAnyOrder(
                        "PoolsAvailable=True/PoolsAcquired",
                        "TargetReady=True/TargetReady",
                        "LoadRunning=False/LoadFinished",
                        "GeneratorSaturated=False/GeneratorKeptUp",
                        "ResultsCollected=True/ResultsCollected",
                        "ThresholdsPassed=True/ThresholdsPassed",
                        "Complete=True/RunSucceeded",
                        "CleanedUp=True/Deleted");
        // 512Mi and no jvmOptions: the JVM the operator would start, proved by what the target's JVM picked up.
        String sizing = "-XX:ActiveProcessorCount=1 -XX:MaxRAM=536870912 -Xmx384m";
        assertThat(status.getEnvironment().getJvmOptions()).isEqualTo(sizing);
        assertThat(status.getEnvironment().getMode()).isEqualTo("local");
        assertThat(status.getEnvironment().getCpuSet()).isNotBlank();

        Path runDir = onlyRunDirectory(results);
        for (String file : List.of(
                "status.json",
                "environment.json",
                "benchmarkrun.yaml",
                "k6-script.js",
                "k6-summary.json",
                "target-metrics.csv",
                "requests-per-second.csv")) {
            assertThat(runDir.resolve(file)).isNotEmptyFile();
        }
        // The per-second timeline, binned by k6's own sample time stamps (its stackbench output; a k6 without it is
        // polled through its REST API), adds up to the measured requests; each second with requests has its latency
        // percentiles.
        List<String[]> seconds = Files.readAllLines(runDir.resolve("requests-per-second.csv")).stream()
                .skip(1)
                .map(line -> line.split(","))
                .toList();
        assertThat(seconds.stream().mapToLong(row -> Long.parseLong(row[1])).sum())
                .isEqualTo(summary.getRequests());
        // Its 5 s of requests spread over the seconds they came in (the summary alone would have put them all into
        // one).
        assertThat(seconds)
                .filteredOn(row -> Long.parseLong(row[1]) > 0)
                .hasSizeGreaterThanOrEqualTo(3)
                .allSatisfy(row -> assertThat(Double.parseDouble(row[5])).isPositive());
        // The scrape file keeps every scrape, the last one taken after the load stopped, past the window's end.
        List<TimedScrape> scrapes = ScrapeLog.read(runDir.resolve("prometheus-scrapes.txt"));
        assertThat(scrapes.get(scrapes.size() - 1).at()).isAfterOrEqualTo(Instant.parse(server.getWindowEnd()));
        assertThat(Files.readString(results.resolve("report.html")))
                .contains("data:image/png;base64,")
                .contains("it-webflux-r2dbc");
        assertThat(cli.err()).contains("it-webflux-r2dbc");

        assertThat(Files.readString(runDir.resolve("target.log"))).contains("Picked up JAVA_TOOL_OPTIONS: " + sizing);
        JsonNode environment = JSON.readTree(runDir.resolve("environment.json").toFile());
        assertThat(environment.path("targetJavaToolOptions").asText()).isEqualTo(sizing);
        List<Long> pids = new ArrayList<>();
        environment.path("startedPids").forEach(pid -> pids.add(pid.asLong()));
        assertThat(pids).as("pids of PostgreSQL, delay service, target and k6").hasSizeGreaterThanOrEqualTo(4);
        for (long pid : pids) {
            assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive))
                    .as("process " + pid + " started by the run is still alive")
                    .isEmpty();
        }
    }

    @Test
    void customScenarioRunsTheModuleNamedByScriptFile() throws Exception {
        Files.copy(REPO_ROOT.resolve("examples/custom/browse.js"), dir.resolve("browse.js"));
        Path spec = dir.resolve("custom.yaml");
        Files.writeString(spec, """
                apiVersion: stackbench.dev/v1alpha1
                kind: BenchmarkRun
                metadata:
                  name: it-custom
                spec:
                  target:
                    variant: webflux-r2dbc
                    resources: {cpu: "1", memory: 512Mi}
                  workload:
                    scenario: custom
                    script: {file: browse.js}
                    load: {executor: constant-arrival-rate, rate: 5, vus: 20}
                    warmup: 2s
                    duration: 4s
                """);
        Path results = dir.resolve("results");

        CliInvocation cli = CliInvocation.run("--results-dir", results.toString(), "--output", "json", spec.toString());

        assertThat(cli.exitCode()).as("exit code; stderr:\n" + cli.err()).isZero();
        BenchmarkRunStatus status = JSON.readValue(cli.out(), BenchmarkRunStatus.class);
        assertThat(status.getPhase()).isEqualTo(Phase.Succeeded);
        // Two requests per iteration, both counted through context.verify.
        assertThat(status.getSummary().getRequests()).isPositive();
        assertThat(status.getSummary().getErrorRate()).isZero();
        assertThat(status.getSummary().getRps()).isPositive();
        Path runDir = onlyRunDirectory(results);
        assertThat(runDir.resolve("custom.js")).hasSameTextualContentAs(dir.resolve("browse.js"));
        assertThat(Files.readString(runDir.resolve("k6-script.js"))).contains("from \"./custom.js\"");
    }

    @Test
    void aCustomScenarioWhoseModuleIsMissingIsRefusedBeforeAnythingStarts() throws Exception {
        Path spec = dir.resolve("custom.yaml");
        Files.writeString(spec, """
                apiVersion: stackbench.dev/v1alpha1
                kind: BenchmarkRun
                metadata: {name: it-custom-missing}
                spec:
                  target: {variant: webflux-r2dbc}
                  workload:
                    scenario: custom
                    script: {file: missing.js}
                    load: {executor: constant-vus, vus: 1}
                ---
                apiVersion: stackbench.dev/v1alpha1
                kind: BenchmarkRun
                metadata: {name: it-custom-configmap-only}
                spec:
                  target: {variant: webflux-r2dbc}
                  workload:
                    scenario: custom
                    script: {configMapRef: {name: browse, key: browse.js}}
                    load: {executor: constant-vus, vus: 1}
                """);
        CliInvocation cli =
                CliInvocation.run("--results-dir", dir.resolve("results").toString(), spec.toString());

        assertThat(cli.exitCode()).isEqualTo(2);
        assertThat(cli.err())
                .contains("BenchmarkRun it-custom-missing: spec.workload.script.file: " + dir.resolve("missing.js")
                        + " does not exist")
                .contains("BenchmarkRun it-custom-configmap-only: spec.workload.script.file is not set")
                .contains("nothing was started");
        assertThat(dir.resolve("results")).doesNotExist();
    }

    @Test
    void aComparisonFileRunsEveryRepetitionOnOneSharedBackendAndGivesVerdicts() throws Exception {
        // One variant, two Tomcat pools, behind a 100 ms upstream at 30 requests/s: 2 threads cap the throughput at
        // 2 / 0.1 s = 20 requests/s, 20 threads do not; a difference no noise can hide, so three runs of each must call
        // it, in each metric's direction: asked at 85 % confidence, since the smallest two-sided p-value of three runs
        // against three is 0.1 (four of each would be the fewest for 95 %). includeFlaggedRuns: a run this machine's
        // host stole CPU from (summary.hostSteal) still counts, since no steal hides a difference of this size and a
        // run left out would leave two of three.
        Path file = Files.writeString(dir.resolve("pools.yaml"), """
                apiVersion: stackbench.dev/v1alpha1
                kind: BenchmarkComparison
                metadata:
                  name: pools
                spec:
                  variants:
                    - {variant: mvc-jdbc, name: t20, env: {SERVER_TOMCAT_THREADS_MAX: "20"}}
                    - {variant: mvc-jdbc, name: t2, env: {SERVER_TOMCAT_THREADS_MAX: "2"}}
                  repetitions: 3
                  confidence: 0.85
                  seed: 7
                  includeFlaggedRuns: true
                  template:
                    target:
                      resources: {cpu: "1", memory: 512Mi}
                    workload:
                      scenario: upstream
                      upstreamDelay: 100ms
                      load: {executor: constant-arrival-rate, rate: 30, vus: 100, preAllocatedVUs: 100}
                      warmup: 1s
                      duration: 3s
                """);
        Path results = dir.resolve("results");
        List<String> temporaryBefore = systemTemporaryEntries();

        CliInvocation cli = CliInvocation.run("--results-dir", results.toString(), "-o", "json", file.toString());

        assertThat(cli.exitCode()).as("exit code; stderr:\n" + cli.err()).isZero();
        assertThat(cli.err())
                .contains("comparison pools: 2 variants x 3 repetitions, interleaved (seed 7); baseline t20")
                .contains("shared between repetitions: PostgreSQL");
        // -o json prints the comparison's status as the operator writes it.
        BenchmarkComparisonStatus status = JSON.readValue(cli.out(), BenchmarkComparisonStatus.class);
        assertThat(status.getPhase()).isEqualTo(ComparisonPhase.Succeeded);
        assertThat(status.getProgress()).isEqualTo("6/6 runs");
        assertThat(status.getShared()).contains("PostgreSQL", "reset by each target at start");
        assertThat(status.getRuns()).hasSize(6).allSatisfy(record -> {
            assertThat(record.getPhase()).isEqualTo(Phase.Succeeded);
            assertThat(record.getCounted()).isTrue();
        });
        assertThat(Files.readString(results.resolve("comparison.json"))).contains("\"verdict\"");
        MetricShift rps = shift(status, "rps");
        MetricShift p50 = shift(status, "p50");
        assertThat(rps.getVerdict()).isEqualTo("worse");
        assertThat(p50.getVerdict()).isEqualTo("worse");
        assertThat(status.getVerdict()).startsWith("t2 rps -");
        String statistics = Files.readString(results.resolve("comparison.txt"));
        assertThat(cli.err()).contains(statistics);
        assertThat(Files.readString(results.resolve("report.html"))).contains("<h2>Comparison</h2>");
        // Every repetition used the one PostgreSQL, reset by its target; nothing is left running afterwards.
        List<Long> pids = new ArrayList<>();
        List<String> verifiedBy = new ArrayList<>();
        try (Stream<Path> runDirs = Files.list(results)) {
            for (Path runDir : runDirs.filter(Files::isDirectory)
                    .filter(d -> !d.endsWith("shared"))
                    .toList()) {
                JsonNode environment =
                        JSON.readTree(runDir.resolve("environment.json").toFile());
                BenchmarkRunStatus runStatus =
                        JSON.readValue(runDir.resolve("status.json").toFile(), BenchmarkRunStatus.class);
                assertThat(runStatus.getEnvironment().getDatabase()).isEqualTo("comparison");
                assertThat(runStatus.getVerification().getVerdict()).isEqualTo("SameWork");
                verifiedBy.add(String.valueOf(runStatus.getVerification().getVerifiedBy()));
                pids.add(environment.path("postgresPid").asLong());
                pids.add(environment.path("delayServicePid").asLong());
                environment.path("startedPids").forEach(pid -> pids.add(pid.asLong()));
            }
        }
        // Each variant (its own spec: another pool size) is verified by its first repetition; the later ones reuse it.
        assertThat(verifiedBy).hasSize(6);
        assertThat(verifiedBy.stream().filter("null"::equals)).hasSize(2);
        assertThat(verifiedBy.stream().filter(run -> !run.equals("null")).distinct())
                .hasSize(2);
        assertThat(pids.stream().distinct()).hasSizeGreaterThan(6);
        for (long pid : pids) {
            assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive))
                    .as("process " + pid + " started by the comparison is still alive")
                    .isEmpty();
        }
        // Nor anything in the machine's /tmp: each JVM had a temporary directory of its own (embedded Tomcat's base
        // and document directories went there), removed with the processes.
        assertThat(systemTemporaryEntries())
                .as("entries the comparison left in /tmp")
                .isSubsetOf(temporaryBefore);
    }

    /** What /tmp holds of the kinds a run's JVMs would leave: their own directories and embedded Tomcat's. */
    private static List<String> systemTemporaryEntries() throws IOException {
        try (Stream<Path> entries = Files.list(Path.of("/tmp"))) {
            return entries.map(path -> path.getFileName().toString())
                    .filter(name -> name.startsWith("tomcat") || name.startsWith("stackbench-"))
                    .filter(name -> !name.equals("stackbench-local-run.lock"))
                    .sorted()
                    .toList();
        }
    }

    @Test
    void repeatedRunsOfTwoFilesAreInterleavedAndCompared() throws Exception {
        // The shortcut: plain BenchmarkRun files become the variants of a comparison, named after their runs.
        String template = """
                apiVersion: stackbench.dev/v1alpha1
                kind: BenchmarkRun
                metadata:
                  name: %s
                spec:
                  target:
                    variant: webflux-r2dbc
                    resources: {cpu: "1", memory: 512Mi}
                  workload:
                    scenario: upstream
                    upstreamDelay: %s
                    load: {executor: constant-arrival-rate, rate: 10, vus: 20}
                    warmup: 1s
                    duration: 3s
                """;
        Path fast = Files.writeString(dir.resolve("fast.yaml"), template.formatted("fast", "20ms"));
        Path slow = Files.writeString(dir.resolve("slow.yaml"), template.formatted("slow", "150ms"));
        Path results = dir.resolve("results");

        CliInvocation cli = CliInvocation.run(
                "--results-dir",
                results.toString(),
                "--repetitions",
                "3",
                "--seed",
                "7",
                // As above: a run the host stole CPU from still counts here.
                "--include-flagged-runs",
                fast.toString(),
                slow.toString());

        assertThat(cli.exitCode()).as("exit code; stderr:\n" + cli.err()).isZero();
        assertThat(cli.err()).contains("2 variants x 3 repetitions, interleaved (seed 7); baseline fast");
        String statistics = Files.readString(results.resolve("comparison.txt"));
        assertThat(cli.out()).contains(statistics);
        List<String> p50 =
                statistics.lines().filter(line -> line.startsWith("p50 ")).toList();
        assertThat(p50).hasSize(2);
        assertThat(p50.get(0)).contains("fast", "3/3", "(baseline)");
        // Three runs of each cannot be significant at 95 % whatever the difference: the table says so.
        assertThat(statistics).contains("smallest p-value the rank test can give is 0.100");
        // Six runs, each in its own directory, named after its file and round, in the interleaved order.
        try (Stream<Path> dirs = Files.list(results)) {
            List<String> names = dirs.filter(Files::isDirectory)
                    .map(p -> p.getFileName().toString())
                    .filter(name -> !name.equals("shared"))
                    .sorted()
                    .toList();
            assertThat(names).hasSize(6);
            for (int round = 1; round <= 3; round++) {
                String suffix = "-r" + round;
                assertThat(names.subList(2 * round - 2, 2 * round))
                        .allMatch(name -> name.endsWith(suffix))
                        .anyMatch(name -> name.contains("fast"))
                        .anyMatch(name -> name.contains("slow"));
            }
        }
    }

    @Test
    void aBurstAFanoutAndALockRunReportTheirOwnFigures() throws Exception {
        String template = """
                apiVersion: stackbench.dev/v1alpha1
                kind: BenchmarkRun
                metadata:
                  name: %s
                spec:
                  target:
                    variant: %s
                    resources: {cpu: "1", memory: 512Mi}
                  workload:
                %s
                """;
        // 40 users at once, each request sleeping 300 ms on boundedElastic (10 threads on one CPU): four rounds.
        Path burst = Files.writeString(
                dir.resolve("burst.yaml"), template.formatted("it-burst", "webflux-jdbc-elastic", """
                    scenario: sleep
                    sleep: 300ms
                    load: {executor: per-vu-iterations, vus: 40}
                    warmup: 2s
                    duration: 30s
                """));
        Path fanout =
                Files.writeString(dir.resolve("fanout.yaml"), template.formatted("it-fanout", "mvc-webclient", """
                    scenario: fanout
                    upstreamDelay: 100ms
                    calls: 3
                    upstreamProtocol: rsocket
                    load: {executor: constant-arrival-rate, rate: 10, vus: 30}
                    warmup: 1s
                    duration: 4s
                """));
        Path lock = Files.writeString(dir.resolve("lock.yaml"), template.formatted("it-lock", "mvc-jdbc", """
                    scenario: lock
                    lockGroup: 3
                    load: {executor: constant-arrival-rate, rate: 5, vus: 20}
                    warmup: 1s
                    duration: 4s
                """));
        Path results = dir.resolve("results");

        CliInvocation cli = CliInvocation.run(
                "--results-dir", results.toString(), burst.toString(), fanout.toString(), lock.toString());

        assertThat(cli.exitCode()).as("exit code; stderr:\n" + cli.err()).isZero();
        RunSummary burstSummary = summaryOf(results, "01-it-burst");
        assertThat(burstSummary.getRequests()).isEqualTo(40);
        assertThat(burstSummary.getStatusCodes()).containsExactly(Map.entry("200", 40L));
        assertThat(burstSummary.getBurst().getPlannedRequests()).isEqualTo(40);
        assertThat(burstSummary.getBurst().getCompletedRequests()).isEqualTo(40);
        // Ten threads for forty 300 ms sleeps: at least four rounds, and the slowest request waited for three.
        assertThat(burstSummary.getBurst().getMakespanMs()).isGreaterThanOrEqualTo(1200.0);
        assertThat(burstSummary.getLatencyMs().getMax()).isGreaterThanOrEqualTo(1200.0);
        assertThat(burstSummary.getLatencyMs().getMin()).isGreaterThanOrEqualTo(300.0);
        assertThat(cli.out()).contains("it-burst: burst: 40 of 40 requests answered, makespan ");

        RunSummary fanoutSummary = summaryOf(results, "02-it-fanout");
        assertThat(fanoutSummary.getErrorRate()).isZero();
        assertThat(fanoutSummary.getChecksFailed()).isZero();
        assertThat(fanoutSummary.getStatusCodes()).containsOnlyKeys("200");
        // The answers k6 checked (each VU's first, then one in 50) said they came over RSocket, and mvc-webclient
        // makes the three calls in parallel: a request takes one delay, not three.
        assertThat(fanoutSummary.getLatencyMs().getP50())
                .isGreaterThanOrEqualTo(100.0)
                .isLessThan(300.0);

        RunSummary lockSummary = summaryOf(results, "03-it-lock");
        LockSummary groups = lockSummary.getLock();
        assertThat(groups.getGroups()).isPositive();
        assertThat(groups.getGroupSize()).isEqualTo(3);
        assertThat(groups.getCorrectGroups()).isEqualTo(groups.getGroups());
        assertThat(groups.correctnessErrors()).isZero();
        assertThat(lockSummary.getStatusCodes())
                .containsEntry("200", groups.getGroups())
                .containsEntry("409", 2 * groups.getGroups());
        assertThat(lockSummary.getErrorRate()).isZero();
        assertThat(groups.getLockWaitMs().getMax())
                .isGreaterThanOrEqualTo(groups.getLockWaitMs().getP50());
        assertThat(groups.getLockWaitMs().getMin()).isGreaterThanOrEqualTo(0.0);
        assertThat(cli.out()).contains("it-lock: lock: " + groups.getGroups() + " groups of 3: ");
    }

    @Test
    void aThreeStepSweepMeasuresEachLevelAgainstTheSameStackAndKeepsTheBestStep() throws Exception {
        // Three open-model levels against a 100 ms upstream, far below what one CPU serves: every step must carry
        // its own rate, and the one with the highest rps is the summary. The target restarts before steps 2 and 3.
        Path sweep = Files.writeString(dir.resolve("sweep.yaml"), """
                apiVersion: stackbench.dev/v1alpha1
                kind: BenchmarkRun
                metadata:
                  name: it-sweep
                spec:
                  target:
                    variant: webflux-r2dbc
                    resources: {cpu: "1", memory: 512Mi}
                  workload:
                    scenario: upstream
                    upstreamDelay: 100ms
                    load: {executor: constant-arrival-rate}
                    sweep: [5, 10, 20]
                    restartBetweenSteps: true
                    thresholds:
                      http_req_duration: ["p(95)<2000"]
                    warmup: 1s
                    duration: 4s
                """);
        Path results = dir.resolve("results");

        CliInvocation cli = CliInvocation.run("--results-dir", results.toString(), sweep.toString());

        assertThat(cli.exitCode()).as("exit code; stderr:\n" + cli.err()).isZero();
        Path runDir = results.resolve("01-it-sweep");
        BenchmarkRunStatus status = JSON.readValue(runDir.resolve("status.json").toFile(), BenchmarkRunStatus.class);
        assertThat(status.getPhase()).isEqualTo(Phase.Succeeded);
        assertThat(status.getSteps()).extracting(StepResult::getLevel).containsExactly(5, 10, 20);
        assertThat(status.getSteps()).extracting(StepResult::getStep).containsExactly(1, 2, 3);
        assertThat(status.getSteps()).extracting(StepResult::getOutcome).containsOnly(StepOutcome.Passed);
        for (StepResult step : status.getSteps()) {
            // An open model offers its rate whatever the target does: 4 s at the level, give or take a request.
            assertThat(step.getRps())
                    .as("rps of step %d", step.getStep())
                    .isCloseTo(step.getLevel(), within(0.15 * step.getLevel() + 0.5));
            assertThat(step.getP50Ms()).as("p50 of step %d", step.getStep()).isGreaterThanOrEqualTo(100.0);
            assertThat(step.getThresholdsPassed()).isTrue();
            assertThat(step.getTargetCpuCores()).isNotNull();
            assertThat(step.getGeneratorCpuCores()).isPositive();
            Path stepDir = runDir.resolve(String.format("step-%02d-%d", step.getStep(), step.getLevel()));
            assertThat(Files.readString(stepDir.resolve("k6-script.js")))
                    .as("the script of step %d", step.getStep())
                    .containsPattern("\"rate\"\\s*:\\s*" + step.getLevel() + "\\b");
            assertThat(stepDir.resolve("k6-summary.json")).isRegularFile();
        }
        assertThat(runDir.resolve("step-02-10").resolve("target.log"))
                .as("the target restarted before step 2")
                .isRegularFile();
        assertThat(status.getSummary().getStep()).isEqualTo(3);
        assertThat(status.getSummary().getRps())
                .isEqualTo(status.getSteps().get(2).getRps());
        assertThat(status.getCapacity()).isNull();
        assertThat(status.getMessage()).contains("all 3 steps ran").contains("the summary is step 3");
    }

    private static RunSummary summaryOf(Path results, String run) throws IOException {
        return JSON.readValue(results.resolve(run).resolve("status.json").toFile(), BenchmarkRunStatus.class)
                .getSummary();
    }

    private static MetricShift shift(BenchmarkComparisonStatus status, String metric) {
        return status.getContenders().getFirst().getMetrics().stream()
                .filter(shift -> metric.equals(shift.getMetric()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + metric + " in " + status.getContenders()));
    }

    private static Path onlyRunDirectory(Path results) throws IOException {
        try (Stream<Path> runs = Files.list(results)) {
            return runs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
    }
}
