package dev.stackbench.local;

import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.run.Scenario;
import dev.stackbench.api.status.VerificationResult;
import dev.stackbench.k6.K6Env;
import dev.stackbench.k6.K6ScriptGenerator;
import dev.stackbench.k6.K6SummaryParser;
import dev.stackbench.k6.RunnerSummary;
import dev.stackbench.model.SpringApp;
import dev.stackbench.postgres.LocalPostgres;
import dev.stackbench.results.PrometheusTextParser;
import dev.stackbench.verification.VerificationLoad;
import dev.stackbench.verification.VerificationVerdict;
import dev.stackbench.verification.WorkCounts;
import dev.stackbench.verification.WorkQueries;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Sends a run's scenario to its started stack a few times, from a few callers, and counts the work on the real
 * parts: the statements and rows PostgreSQL's pg_stat_statements saw from the applications' role, and the calls the
 * delay service answered. k6 sends the requests with the run's own generated script (every response checked), so
 * the contract checked is the load's. The database's counters and the orders the requests wrote are reset afterwards,
 * so the measured load starts from the state the target started with.
 */
final class WorkVerifier {

    private static final String STATEMENTS = WorkQueries.statementsOf(LocalPostgres.USER, LocalPostgres.DATABASE);

    private final LocalRun.Tools tools;
    private final TargetStack stack;
    private final CpuSet k6Cpus;

    WorkVerifier(LocalRun.Tools tools, TargetStack stack, CpuSet k6Cpus) {
        this.tools = tools;
        this.stack = stack;
        this.k6Cpus = k6Cpus;
    }

    /**
     * Verifies the started stack against {@code spec}'s scenario, writes verification.json beside the run's files
     * and returns the verdict.
     *
     * @param customModule for scenario custom, the text of the user's k6 module; null otherwise
     */
    VerificationResult verify(
            ProcessSupervisor supervisor, BenchmarkRunSpec spec, String customModule, ResultsLayout.RunFiles files)
            throws IOException {
        Path dir = files.verificationDir();
        Files.createDirectories(dir);
        LocalPostgres postgres = stack.postgres();
        sendIterations(supervisor, spec, customModule, dir, "warmup", VerificationLoad.WARMUP_ITERATIONS);
        postgres.query(WorkQueries.RESET_COUNTERS);
        double callsBefore = upstreamCalls();
        RunnerSummary counted =
                sendIterations(supervisor, spec, customModule, dir, "counted", VerificationLoad.COUNTED_ITERATIONS);
        List<VerificationResult.StatementCount> statements = WorkQueries.statements(postgres.query(STATEMENTS));
        long calls = Math.round(upstreamCalls() - callsBefore);
        postgres.query(WorkQueries.RESET_ORDERS);
        postgres.query(WorkQueries.RESET_COUNTERS);
        WorkCounts counts = WorkCounts.of(counted, statements, calls);
        VerificationResult result = VerificationVerdict.judge(
                VerificationLoad.spec(spec, VerificationLoad.COUNTED_ITERATIONS).getWorkload(), counts);
        ResultsLayout.writeJson(files.verification(), result);
        return result;
    }

    /** One pass of k6 with the verification script, to its end; its summary. */
    private RunnerSummary sendIterations(
            ProcessSupervisor supervisor,
            BenchmarkRunSpec spec,
            String customModule,
            Path dir,
            String pass,
            int iterations)
            throws IOException {
        String customImport = null;
        if (spec.getWorkload().getScenario() == Scenario.CUSTOM) {
            if (customModule == null) {
                throw new LocalRunException("scenario custom needs its module: set spec.workload.script.file to the"
                        + " module's path, relative to the BenchmarkRun file");
            }
            Files.writeString(dir.resolve("custom.js"), customModule);
            customImport = "./custom.js";
        }
        Path script = dir.resolve(pass + ".js");
        Files.writeString(
                script,
                K6ScriptGenerator.checkingEveryResponse()
                        .generate(VerificationLoad.spec(spec, iterations), customImport)
                        .text());
        Path summary = dir.resolve(pass + "-summary.json");
        Files.deleteIfExists(summary);
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put(K6Env.BASE_URL, stack.baseUrl());
        environment.put(K6Env.SUMMARY_FILE, summary.toString());
        environment.put(K6Env.NO_USAGE_REPORT, "true");
        ManagedProcess k6 = supervisor.start(
                "k6 (verification, " + pass + ")",
                List.of(tools.settings().k6Binary().toString(), "run", "--quiet", "--no-color", script.toString()),
                environment,
                k6Cpus,
                dir.resolve(pass + "-k6.log"));
        int exitCode;
        try {
            exitCode = k6.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            k6.stop(java.time.Duration.ofSeconds(5));
            throw new LocalRunException("interrupted while verifying the target");
        }
        if (!Files.exists(summary)) {
            throw new LocalRunException(
                    LocalRunException.LOCAL_RUN_FAILED,
                    "k6 sending the verification requests exited with code " + exitCode + " without a summary; see "
                            + k6.logFile() + ":\n" + ServiceProbe.tail(k6.logFile(), 20));
        }
        return K6SummaryParser.parseFile(summary);
    }

    /** Calls the delay service has answered since it started, over both protocols. */
    private double upstreamCalls() {
        SpringApp delay = stack.delayApp();
        String page = ServiceProbe.get(SpringAppLauncher.managementUri(delay, SpringApp.PROMETHEUS_PATH))
                .orElseThrow(() -> new LocalRunException(
                        LocalRunException.LOCAL_RUN_FAILED,
                        "could not read the delay service's " + SpringApp.PROMETHEUS_PATH + " to count upstream"
                                + " calls: see " + stack.delayService().logFile()));
        return PrometheusTextParser.parse(page)
                .sum(WorkQueries.UPSTREAM_CALLS_METRIC)
                .orElseThrow(() -> new LocalRunException(
                        LocalRunException.LOCAL_RUN_FAILED,
                        "the delay service shows no " + WorkQueries.UPSTREAM_CALLS_METRIC
                                + ": it is older than this stackbench;"
                                + " rebuild it (mvn -pl targets/delay-service -am package)"));
    }
}
