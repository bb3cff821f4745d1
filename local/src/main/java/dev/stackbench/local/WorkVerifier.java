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
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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

    /** The delay service's call counter as Prometheus shows it (UpstreamCalls in the delay service). */
    static final String UPSTREAM_CALLS_METRIC = "stackbench_delay_calls_total";

    private static final String STATEMENTS = "select s.calls || E'\\t' || s.rows || E'\\t'"
            + " || regexp_replace(s.query, '\\s+', ' ', 'g') from pg_stat_statements s"
            + " join pg_roles r on r.oid = s.userid join pg_database d on d.oid = s.dbid"
            + " where r.rolname = '" + LocalPostgres.USER + "' and d.datname = '" + LocalPostgres.DATABASE + "'"
            + " order by s.calls desc, s.query";
    private static final String RESET_COUNTERS = "select pg_stat_statements_reset()";
    /** As the targets' own reset at start (afterMigrate.sql): no orders, the seeded items untouched. */
    private static final String RESET_ORDERS = "do $$ begin if to_regclass('public.orders') is not null then"
            + " truncate table order_lines, orders restart identity; end if; end $$";

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
        postgres.query(RESET_COUNTERS);
        double callsBefore = upstreamCalls();
        RunnerSummary counted =
                sendIterations(supervisor, spec, customModule, dir, "counted", VerificationLoad.COUNTED_ITERATIONS);
        List<VerificationResult.StatementCount> statements = statements(postgres.query(STATEMENTS));
        List<VerificationResult.StatementCount> connectionStatements = statements.stream()
                .filter(statement -> WorkCounts.opensConnection(statement.getQuery()))
                .toList();
        statements = statements.stream()
                .filter(statement -> !WorkCounts.opensConnection(statement.getQuery()))
                .toList();
        long calls = Math.round(upstreamCalls() - callsBefore);
        postgres.query(RESET_ORDERS);
        postgres.query(RESET_COUNTERS);
        WorkCounts counts = new WorkCounts(
                counted.requests(),
                counted.iterations(),
                counted.statusCodes(),
                counted.checksPassed(),
                counted.checksFailed(),
                statements,
                connectionStatements,
                calls);
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
                .sum(UPSTREAM_CALLS_METRIC)
                .orElseThrow(() -> new LocalRunException(
                        LocalRunException.LOCAL_RUN_FAILED,
                        "the delay service shows no " + UPSTREAM_CALLS_METRIC + ": it is older than this stackbench;"
                                + " rebuild it (mvn -pl targets/delay-service -am package)"));
    }

    /** psql's lines of calls, rows and the normalised statement, separated by tabs. */
    static List<VerificationResult.StatementCount> statements(String psqlOutput) {
        List<VerificationResult.StatementCount> counts = new ArrayList<>();
        for (String line : psqlOutput.lines().filter(line -> !line.isBlank()).toList()) {
            String[] fields = line.split("\t", 3);
            VerificationResult.StatementCount count = new VerificationResult.StatementCount();
            count.setCalls(Long.parseLong(fields[0].strip()));
            count.setRows(Long.parseLong(fields[1].strip()));
            count.setQuery(fields.length > 2 ? fields[2].strip() : "");
            counts.add(count);
        }
        return counts;
    }
}
