package dev.stackbench.local;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.BenchmarkRunSpec;
import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.Conditions;
import dev.stackbench.api.Durations;
import dev.stackbench.api.Quantities;
import dev.stackbench.api.RunEnvironment;
import dev.stackbench.api.RunSummary;
import dev.stackbench.api.Scenario;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.k6.K6Env;
import dev.stackbench.k6.K6Script;
import dev.stackbench.k6.K6ScriptGenerator;
import dev.stackbench.k6.K6SummaryParser;
import dev.stackbench.lifecycle.LoadStep;
import dev.stackbench.lifecycle.ResolvedRun;
import dev.stackbench.lifecycle.RunDriver;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.lifecycle.SteppedLoad;
import dev.stackbench.model.AppWiring;
import dev.stackbench.model.RunApps;
import dev.stackbench.model.SpringApp;
import dev.stackbench.postgres.LocalPostgres;
import dev.stackbench.report.GaugePoint;
import dev.stackbench.report.ReportRun;
import dev.stackbench.report.RequestTimeline;
import dev.stackbench.results.ActuatorInfo;
import dev.stackbench.results.GeneratorCheck;
import dev.stackbench.results.ScrapeLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs one BenchmarkRun on this machine through the same life cycle as the operator ({@link RunProgress}): the run is
 * accepted, takes this machine's CPUs as its pools, provisions PostgreSQL, the delay service and the target as local
 * processes on 127.0.0.1 (the same apps the operator deploys, from {@link RunApps}), sends load with k6, and collects
 * the k6 summary and the target's metrics into the status. Everything it starts is stopped before {@link #run}
 * returns, whether the run succeeded, failed or was interrupted.
 */
public final class LocalRunner {

    /** What a user or a test can choose about how local processes are started. */
    public record Settings(
            Path repoRoot, Path javaBin, Path k6Binary, CpuSet machineCpus, boolean keep, Duration startTimeout) {}

    /** The outcome of one run: the run with its status filled in, and what the report plots. */
    public record Result(BenchmarkRun run, ReportRun report, List<Long> startedPids) {}

    private static final String INTERRUPTED = "interrupted (Ctrl-C or SIGTERM): every process the run started was "
            + "stopped; the figures are incomplete";
    private static final ObjectMapper JSON =
            new ObjectMapper().findAndRegisterModules().enable(SerializationFeature.INDENT_OUTPUT);
    /** A k6 process still running this long after its planned end (graceful stop included) is stopped. */
    private static final Duration K6_OVERRUN = Duration.ofSeconds(60);
    /** k6 made its VUs while the target started; this long more for a machine that is slow to. */
    private static final Duration K6_RESUME_TIMEOUT = Duration.ofSeconds(60);

    private final Settings settings;
    private final ProgressPrinter printer;
    private final VariantCatalogue catalogue;
    private final JvmStartCache startCache;

    public LocalRunner(Settings settings, ProgressPrinter printer, VariantCatalogue catalogue) {
        this.settings = settings;
        this.printer = printer;
        this.catalogue = catalogue;
        String tools = System.getenv("STACKBENCH_TOOLS");
        this.startCache = new JvmStartCache(
                settings.javaBin(),
                (tools == null || tools.isBlank() ? settings.repoRoot().resolve(".tools") : Path.of(tools))
                        .resolve("jvm-start"));
    }

    /**
     * @param run a valid BenchmarkRun with defaults applied
     * @param files where this run's files go
     */
    public Result run(BenchmarkRun run, ResultsLayout.RunFiles files) {
        return run(run, files, null);
    }

    /**
     * Runs one BenchmarkRun.
     *
     * @param customModule for scenario custom, the text of the user's k6 module (spec.workload.script.file); it is
     *     written next to the generated script, as the operator puts it next to the script in the ConfigMap
     */
    public Result run(BenchmarkRun run, ResultsLayout.RunFiles files, String customModule) {
        return new LocalRun(run, files, customModule, null).execute();
    }

    /**
     * Runs one repetition of a comparison against the comparison's PostgreSQL and delay service; the target resets
     * the database when it starts.
     */
    public Result run(BenchmarkRun run, ResultsLayout.RunFiles files, String customModule, Backend backend) {
        return new LocalRun(run, files, customModule, backend).execute();
    }

    /**
     * PostgreSQL and the delay service, started once for the repetitions of a comparison and shared by their runs,
     * on the CPUs the runs give to them. Each run's target resets the database's schema and data when it starts (as
     * on a cluster with a shared database), so every repetition still begins from the same state; the delay service
     * keeps no state between requests. {@link #close} stops both.
     */
    public static final class Backend implements AutoCloseable {

        private final ProcessSupervisor supervisor;
        private final LocalPostgres postgres;
        private final ManagedProcess delayService;
        private final SpringApp delayApp;

        private Backend(
                ProcessSupervisor supervisor, LocalPostgres postgres, ManagedProcess delayService, SpringApp delayApp) {
            this.supervisor = supervisor;
            this.postgres = postgres;
            this.delayService = delayService;
            this.delayApp = delayApp;
        }

        /** What the repetitions share, for the comparison's status and output. */
        public String describe() {
            return "PostgreSQL " + postgres.serverVersion() + " (pid " + postgres.pid() + ", schema and data reset"
                    + " by each target at start) and the delay service (pid " + delayService.pid() + "), kept up"
                    + " from the first repetition to the last; every repetition starts its own target and k6";
        }

        /** Pids of the shared processes, which outlive each run but not the comparison. */
        public List<Long> pids() {
            List<Long> pids = new ArrayList<>(supervisor.startedPids());
            pids.add(postgres.pid());
            return pids;
        }

        private void requireAlive() {
            if (!postgres.isRunning() || !delayService.isAlive()) {
                throw new LocalRunException(
                        RunProgress.TARGET_NOT_READY,
                        "the comparison's " + (postgres.isRunning() ? "delay service" : "PostgreSQL")
                                + " has stopped (see "
                                + (postgres.isRunning() ? delayService.logFile() : postgres.logFile())
                                + "): the remaining repetitions cannot run");
            }
        }

        @Override
        public void close() {
            supervisor.close();
        }
    }

    /**
     * Starts the PostgreSQL and delay service the repetitions of a comparison share, sized and placed as for
     * {@code first} (every repetition has the template's backend and CPUs), logging into {@code dir}.
     */
    public Backend startBackend(BenchmarkRun first, Path dir) throws IOException {
        IsolationPlan plan = IsolationPlanner.plan(
                settings.machineCpus(),
                BigDecimal.valueOf(Quantities.cpuCores(
                        first.getSpec().getTarget().getResources().getCpu())));
        ProcessSupervisor supervisor = new ProcessSupervisor();
        try {
            LocalPostgres postgres = startPostgres(plan);
            supervisor.register(postgres);
            FreePorts ports = new FreePorts();
            AppWiring.Endpoint delayEndpoint = new AppWiring.Endpoint(AppWiring.LOOPBACK, ports.next(), ports.next());
            SpringApp delayApp =
                    RunApps.delayService(first.getSpec(), wiringFor(delayEndpoint, delayEndpoint, postgres, true));
            ManagedProcess delayService = startSpringApp(
                    supervisor,
                    "delay service",
                    jar(catalogue.delayService().jar()),
                    delayApp,
                    delayApp.environment(),
                    plan.supportCpus(),
                    dir.resolve("delay-service.log"),
                    printer::message);
            ServiceProbe.awaitHealthy(
                    delayService, managementUri(delayApp, SpringApp.HEALTH_PATH), settings.startTimeout());
            return new Backend(supervisor, postgres, delayService, delayApp);
        } catch (IOException | RuntimeException e) {
            supervisor.close();
            throw e;
        }
    }

    private static AppWiring wiringFor(
            AppWiring.Endpoint target, AppWiring.Endpoint delay, LocalPostgres postgres, boolean sharedDatabase) {
        return new AppWiring(
                target,
                delay,
                "http://" + AppWiring.LOOPBACK + ":" + delay.httpPort(),
                new AppWiring.Database(postgres.host(), postgres.port(), postgres.database(), sharedDatabase));
    }

    /** The processes a run started and where they answer. */
    private record Stack(ManagedProcess target, SpringApp targetApp, String baseUrl) {}

    /** One run, step by step; holds what the steps learn for the status, the manifest and the report. */
    private final class LocalRun {

        private final BenchmarkRun run;
        private final BenchmarkRunSpec spec;
        private final String name;
        private final ResultsLayout.RunFiles files;
        private final String customModule;
        private final TargetVariant variant;
        private final IsolationPlan plan;
        private final List<String> notes = new ArrayList<>();
        private final RunProgress progress;
        private final String loadAverageBefore;
        private final Instant started = Instant.now();
        private final Backend backend;

        private SpringApp targetApp;
        private LocalPostgres postgres;
        private ManagedProcess delayService;
        private ManagedProcess target;
        private ActuatorInfo targetInfo;
        private List<String> k6Command;
        private ManagedProcess k6;
        private int k6ApiPort;
        private String k6Version;
        private RunObservation observation;
        private final List<Long> pids = new ArrayList<>();
        private final ResolvedRun resolved;
        /** The load being sent: the run's only one, or the step of a sweep or a capacity search under way. */
        private LoadStep load;
        /** Where the files of the load being sent go: the run's directory, or the step's. */
        private ResultsLayout.RunFiles k6Files;

        private Map<String, String> targetEnv;
        private CpuSet targetStartCpus;

        LocalRun(BenchmarkRun run, ResultsLayout.RunFiles files, String customModule, Backend backend) {
            this.backend = backend;
            this.run = run;
            this.spec = run.getSpec();
            this.name = run.getMetadata().getName();
            this.files = files;
            this.customModule = customModule;
            this.variant = TargetVariant.of(catalogue, spec.getTarget().getVariant());
            this.plan = IsolationPlanner.plan(
                    settings.machineCpus(),
                    BigDecimal.valueOf(
                            Quantities.cpuCores(spec.getTarget().getResources().getCpu())));
            run.setStatus(null);
            this.progress = new RunProgress(run, Clock.systemUTC());
            this.resolved = ResolvedRun.of(run);
            this.load = resolved.plainLoad();
            this.k6Files = files;
            this.loadAverageBefore = MachineFacts.loadAverage().orElse(null);
        }

        Result execute() {
            notes.addAll(plan.notes());
            notes.addAll(clusterOnlySettings(spec));
            if (plan.isolated()) {
                notes.add(
                        pinThisProcess(plan.supportCpus())
                                ? "the stackbench CLI itself (sampling, progress) also runs on " + plan.supportCpus()
                                : "could not move the stackbench CLI off the target's CPUs (taskset failed): it may"
                                        + " take a little CPU time from the target");
            }
            notes.forEach(note -> say(note));
            progress.accepted();
            progress.poolsAcquired("this machine's CPUs: the target on " + plan.targetCpus()
                    + ", k6, PostgreSQL and the delay service on " + plan.supportCpus());
            publishSteps();
            try (ProcessSupervisor supervisor = new ProcessSupervisor()) {
                try {
                    K6Script script = writeFiles();
                    Stack stack = provision(supervisor);
                    if (spec.getWorkload().isStepped()) {
                        runSteps(supervisor, stack, script);
                    } else {
                        int exitCode = sendLoad(stack, script);
                        collect(exitCode);
                    }
                } catch (LocalRunException e) {
                    fail(e.reason(), e.getMessage());
                } catch (UncheckedIOException | IOException e) {
                    fail(LocalRunException.LOCAL_RUN_FAILED, e.getMessage());
                } catch (RuntimeException e) {
                    fail(LocalRunException.LOCAL_RUN_FAILED, "local run failed unexpectedly: " + e);
                } finally {
                    pids.addAll(supervisor.startedPids());
                    printer.finish();
                }
            }
            if (plan.isolated()) {
                // Give this JVM its CPUs back: an embedding process (a test JVM) and what it starts next keep them.
                pinThisProcess(settings.machineCpus());
            }
            if (postgres != null && backend == null) {
                pids.add(postgres.pid());
            }
            progress.cleanedUp(
                    true,
                    (backend == null
                                    ? "stopped every process the run started"
                                    : "stopped the target and k6; the comparison's PostgreSQL and delay service"
                                            + " stay up for its next repetition")
                            + (settings.keep() && postgres != null && backend == null
                                    ? "; PostgreSQL's data directory is kept in " + postgres.dataDir()
                                    : "")
                            + "; the results stay in " + files.dir());
            publishSteps();
            progress.status().setEnvironment(environment());
            run.setStatus(progress.status());
            LocalManifest manifest = manifest();
            writeJson(files.status(), progress.status());
            writeJson(files.environment(), manifest);
            return new Result(run, report(manifest), List.copyOf(pids));
        }

        /** The spec as run and the k6 script (with a custom module beside it), before anything starts. */
        private K6Script writeFiles() throws IOException {
            Files.createDirectories(files.dir());
            Files.writeString(files.spec(), BenchmarkRuns.toYaml(withoutStatus(run)));
            if (resolved.stepped()) {
                beginStep(((RunDriver.Send) RunDriver.nextLoad(resolved, List.of())).load());
            }
            return writeScript();
        }

        /** The k6 script of the load about to be sent (with a custom module beside it), in its directory. */
        private K6Script writeScript() throws IOException {
            Files.createDirectories(k6Files.dir());
            String customImport = null;
            if (customModule != null) {
                Files.writeString(k6Files.customModule(), customModule);
                customImport = "./" + k6Files.customModule().getFileName();
            }
            if (load.spec().getWorkload().getScenario() == Scenario.CUSTOM && customImport == null) {
                throw new LocalRunException("scenario custom needs its module: set spec.workload.script.file to the"
                        + " module's path, relative to the BenchmarkRun file");
            }
            K6Script script = new K6ScriptGenerator().generate(load.spec(), customImport);
            Files.writeString(k6Files.k6Script(), script.text());
            return script;
        }

        /** From here on, load and files are the step's: its spec at its level, its own directory. */
        private void beginStep(LoadStep step) {
            load = step;
            k6Files = new ResultsLayout.RunFiles(files.dir().resolve(step.directoryName()));
        }

        /**
         * The steps of a sweep or a capacity search against the target already running: each step's k6 runs, is
         * read and judged, and {@link SteppedLoad} picks the next level from the steps so far. The best step so far
         * is the run's summary from the first step on, so a failure later loses nothing already measured.
         */
        private void runSteps(ProcessSupervisor supervisor, Stack stack, K6Script firstScript) throws IOException {
            Map<Integer, GeneratorCheck.Judgement> judgements = new LinkedHashMap<>();
            Map<Integer, RunObservation> observations = new LinkedHashMap<>();
            K6Script script = firstScript;
            while (true) {
                int exitCode = sendLoad(stack, script);
                RunSummary summary;
                try {
                    summary = LocalSummary.summarize(load.spec(), catalogue, k6Files.k6Summary(), observation);
                } catch (RuntimeException e) {
                    progress.loadFinished(1);
                    progress.resultsUnreadable("step " + load.number() + ": the k6 summary " + k6Files.k6Summary()
                            + " (k6 exit code " + exitCode + ") could not be read: " + e.getMessage() + "; see "
                            + k6Files.k6Log());
                    publishSteps();
                    return;
                }
                GeneratorCheck.Judgement judgement = judgeGenerator(summary, observation);
                missedScrapesWarning(observation).ifPresent(summary::addWarning);
                RunDriver.StepRecorded recorded =
                        RunDriver.stepMeasured(progress, resolved, load, measured(summary, judgement));
                publishSteps();
                judgements.put(load.number(), judgement);
                observations.put(load.number(), observation);
                writeJson(k6Files.dir().resolve("step.json"), recorded.result());
                writeJson(k6Files.dir().resolve("summary.json"), summary);

                if (recorded.next() instanceof RunDriver.Finished finished) {
                    int kept = SteppedLoad.best(progress.status().getSteps())
                            .orElseThrow()
                            .getStep();
                    observation = observations.get(kept);
                    RunDriver.stepsFinished(progress, finished.done(), keptSummary -> judgements.get(kept), 1);
                    publishSteps();
                    return;
                }
                beginStep(((RunDriver.Send) recorded.next()).load());
                script = writeScript();
                if (Boolean.TRUE.equals(spec.getWorkload().getRestartBetweenSteps())) {
                    stack = restartTarget(supervisor, stack);
                }
                startK6Paused(supervisor, stack.baseUrl());
                // Each step's load is prepared with LoadRunning False, as a cluster prepares its TestRun.
                progress.condition(
                        Conditions.LOAD_RUNNING,
                        false,
                        "LoadPrepared",
                        "started k6 for " + load.label(name) + ", paused until it is told to start");
            }
        }

        private RunDriver.MeasuredLoad measured(RunSummary summary, GeneratorCheck.Judgement judgement) {
            return new RunDriver.MeasuredLoad(
                    summary,
                    judgement,
                    observation.averageLoadGeneratorCores(),
                    1,
                    Conditions.format(observation
                            .windowStart()
                            .minus(Durations.parse(load.spec().getWorkload().getWarmup()))),
                    Conditions.format(Instant.now()));
        }

        /** Stops the target and starts it again, for a cold start at every step (restartBetweenSteps). */
        private Stack restartTarget(ProcessSupervisor supervisor, Stack stack) throws IOException {
            say("restarting target " + variant.name() + " before step " + load.number() + " (restartBetweenSteps)");
            stack.target().stop(Duration.ofSeconds(20));
            pids.add(stack.target().pid());
            target = startSpringApp(
                    supervisor,
                    "target " + variant.name(),
                    jar(variant.jar()),
                    targetApp,
                    targetEnv,
                    targetStartCpus,
                    k6Files.targetLog(),
                    this::say);
            awaitHealthy(target, targetApp);
            if (!targetStartCpus.equals(plan.targetCpus())) {
                pinTarget(targetStartCpus);
            }
            return new Stack(target, targetApp, stack.baseUrl());
        }

        /**
         * PostgreSQL, the delay service and the target, each started and healthy (or, in a comparison, the target
         * started against the comparison's PostgreSQL and delay service); the target is Ready after.
         */
        private Stack provision(ProcessSupervisor supervisor) throws IOException {
            FreePorts ports = new FreePorts();
            AppWiring.Endpoint targetEndpoint = new AppWiring.Endpoint(AppWiring.LOOPBACK, ports.next(), ports.next());
            SpringApp delayApp;
            if (backend != null) {
                backend.requireAlive();
                say("starting " + variant.name() + " against the comparison's PostgreSQL and delay service");
                postgres = backend.postgres;
                delayService = backend.delayService;
                delayApp = backend.delayApp;
            } else {
                say("starting PostgreSQL, the delay service and " + variant.name());
                try {
                    postgres = startPostgres(plan);
                } catch (LocalRunException e) {
                    progress.targetNotReady(e.getMessage());
                    throw e;
                }
                supervisor.register(postgres);
                if (settings.keep()) {
                    say("PostgreSQL data directory (kept after the run): " + postgres.dataDir());
                }
                AppWiring.Endpoint delayEndpoint =
                        new AppWiring.Endpoint(AppWiring.LOOPBACK, ports.next(), ports.next());
                delayApp = RunApps.delayService(spec, wiringFor(targetEndpoint, delayEndpoint, postgres, false));
                delayService = startSpringApp(
                        supervisor,
                        "delay service",
                        jar(catalogue.delayService().jar()),
                        delayApp,
                        delayApp.environment(),
                        plan.supportCpus(),
                        files.delayServiceLog(),
                        this::say);
            }
            AppWiring wiring = wiringFor(targetEndpoint, delayApp.endpoint(), postgres, backend != null);

            targetApp = RunApps.target(spec, catalogue, wiring);
            Map<String, String> targetEnv = new LinkedHashMap<>(targetApp.environment());
            // Locally the credentials are plain variables; on a cluster they come from a Secret.
            targetEnv.put(SpringApp.DB_USER_ENV, postgres.user());
            targetEnv.put(SpringApp.DB_PASSWORD_ENV, postgres.password());
            // The JVM starts (and trains its start cache) on every CPU of the run, sized by ActiveProcessorCount
            // all the same, and is pinned to its own CPUs once ready, before any load: startup is not measured.
            CpuSet startCpus = plan.isolated() ? plan.targetCpus().with(plan.supportCpus()) : plan.targetCpus();
            this.targetEnv = targetEnv;
            this.targetStartCpus = startCpus;
            target = startSpringApp(
                    supervisor,
                    "target " + variant.name(),
                    jar(variant.jar()),
                    targetApp,
                    targetEnv,
                    startCpus,
                    files.targetLog(),
                    this::say);

            String baseUrl =
                    "http://" + AppWiring.LOOPBACK + ":" + targetApp.endpoint().httpPort();
            // k6 compiles the script and makes its VUs while the JVMs start, then waits, paused, sending nothing.
            startK6Paused(supervisor, baseUrl);

            if (backend == null) {
                awaitHealthy(delayService, delayApp);
            }
            awaitHealthy(target, targetApp);
            if (!startCpus.equals(plan.targetCpus())) {
                pinTarget(startCpus);
            }
            progress.targetReady();
            publishSteps();
            targetInfo = ServiceProbe.get(managementUri(targetApp, SpringApp.INFO_PATH))
                    .map(ActuatorInfo::parse)
                    .orElse(null);
            return new Stack(target, targetApp, baseUrl);
        }

        private void pinTarget(CpuSet startCpus) {
            try {
                CpuAffinity.pin(target.process().pid(), plan.targetCpus());
            } catch (IOException e) {
                throw new LocalRunException(
                        LocalRunException.LOCAL_RUN_FAILED,
                        "the target started on " + startCpus + " but could not be moved to its own "
                                + plan.targetCpus() + ", so no load was sent (it would have shared CPUs with k6): "
                                + e.getMessage() + ". Check that taskset (util-linux) works for this user.");
            }
            say("target " + variant.name() + " started on " + startCpus + " and is now pinned to " + plan.targetCpus()
                    + " for the load");
        }

        private void startK6Paused(ProcessSupervisor supervisor, String baseUrl) throws IOException {
            k6ApiPort = new FreePorts().next();
            List<String> command = new ArrayList<>();
            command.add(settings.k6Binary().toString());
            command.addAll(k6RunArguments(
                    AppWiring.LOOPBACK + ":" + k6ApiPort, k6Files.k6Script().toString()));
            k6Command = List.copyOf(command);
            Map<String, String> k6Env = new LinkedHashMap<>(Map.of(
                    K6Env.BASE_URL,
                    baseUrl,
                    K6Env.SUMMARY_FILE,
                    k6Files.k6Summary().toString()));
            k6Env.put(K6Env.NO_USAGE_REPORT, "true");
            k6 = supervisor.start("k6", k6Command, k6Env, plan.supportCpus(), k6Files.k6Log());
        }

        /** Unpauses k6 through its REST API, waiting for the API if k6 is still making its VUs. */
        private void resumeK6() {
            URI status = URI.create("http://" + AppWiring.LOOPBACK + ":" + k6ApiPort + "/v1/status");
            HttpRequest resume = HttpRequest.newBuilder(status)
                    .timeout(Duration.ofSeconds(5))
                    .header("Content-Type", "application/json")
                    .method(
                            "PATCH",
                            HttpRequest.BodyPublishers.ofString("{\"data\":{\"type\":\"status\",\"id\":\"default\","
                                    + "\"attributes\":{\"paused\":false}}}"))
                    .build();
            Instant deadline = Instant.now().plus(K6_RESUME_TIMEOUT);
            String last = "no answer";
            try (HttpClient http = HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(2))
                    .build()) {
                while (true) {
                    if (!k6.isAlive()) {
                        throw new LocalRunException(
                                RunProgress.LOAD_GENERATOR_FAILED,
                                "k6 exited before the load began (code "
                                        + k6.process().exitValue()
                                        + "); last lines of " + k6Files.k6Log() + ":\n"
                                        + ServiceProbe.tail(k6Files.k6Log(), 25));
                    }
                    try {
                        HttpResponse<String> answer = http.send(resume, HttpResponse.BodyHandlers.ofString());
                        if (answer.statusCode() == 200) {
                            return;
                        }
                        last = "HTTP " + answer.statusCode() + ": " + answer.body();
                    } catch (IOException e) {
                        last = e.toString();
                    }
                    if (Instant.now().isAfter(deadline)) {
                        throw new LocalRunException(
                                RunProgress.LOAD_GENERATOR_FAILED,
                                "k6 did not start its load within " + K6_RESUME_TIMEOUT.toSeconds()
                                        + " s of being asked (its REST API at " + status + " said: " + last
                                        + "); see " + k6Files.k6Log());
                    }
                    Thread.sleep(100);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LocalRunException(RunProgress.LOAD_GENERATOR_FAILED, "interrupted while starting k6");
            }
        }

        private void awaitHealthy(ManagedProcess process, SpringApp app) {
            try {
                ServiceProbe.awaitHealthy(process, managementUri(app, SpringApp.HEALTH_PATH), settings.startTimeout());
            } catch (LocalRunException e) {
                if (ProcessSupervisor.interrupted()) {
                    throw e;
                }
                progress.targetNotReady(e.getMessage());
                throw new LocalRunException(RunProgress.TARGET_NOT_READY, e.getMessage());
            }
        }

        /** k6 with the generated script; the target is sampled every second. Returns k6's exit code. */
        private int sendLoad(Stack stack, K6Script script) throws IOException {
            k6Version = K6Version.of(settings.k6Binary());

            MetricsSampler sampler = new MetricsSampler(
                    managementUri(stack.targetApp(), SpringApp.PROMETHEUS_PATH),
                    stack.target().process().toHandle(),
                    plan.isolated() ? plan.supportCpus() : null);
            // No per-request output: k6 would spend as much CPU writing it as sending the requests.
            K6ApiFollower follower = new K6ApiFollower(AppWiring.LOOPBACK + ":" + k6ApiPort);
            Duration warmup = script.warmup();
            Duration planned = warmup.plus(script.measured());
            // spec.timeout bounds the whole run, as on a cluster; k6 gets what is left of it after provisioning.
            Duration leftOfTimeout = Durations.parse(spec.getTimeout()).minus(Duration.between(started, Instant.now()));
            Duration limit = script.expectedMaxRunTime().plus(K6_OVERRUN);
            if (leftOfTimeout.compareTo(limit) < 0) {
                limit = leftOfTimeout;
            }

            sampler.start();
            resumeK6();
            sampler.watchLoadGenerator(k6.process().toHandle());
            RunDriver.loadStarted(progress, load, 1, stack.baseUrl());
            RunDriver.loadElapsed(progress, load, Duration.ZERO);
            publishSteps();
            Instant loadStarted = Instant.now();
            int exitCode;
            try {
                exitCode = followUntilDone(k6, follower, loadStarted, warmup, planned, limit);
            } finally {
                sampler.close();
            }
            if (!load.isStep()) {
                // A sweep's load finishes with its last step.
                progress.loadFinished(1);
                publishSteps();
            }
            if (!Files.exists(k6Files.k6Summary())) {
                throw new LocalRunException(
                        RunProgress.LOAD_GENERATOR_FAILED,
                        "k6 exited with code " + exitCode + " and wrote no summary; last lines of " + k6Files.k6Log()
                                + ":\n" + ServiceProbe.tail(k6Files.k6Log(), 25));
            }
            try {
                follower.finish(K6SummaryParser.parseFile(k6Files.k6Summary()));
            } catch (RuntimeException e) {
                // An unreadable summary fails the run when it is collected, with the reason.
            }
            observation = observe(exitCode, follower, sampler, loadStarted, script);
            return exitCode;
        }

        /** The measured window as k6 saw it, and the target samples inside it. */
        private RunObservation observe(
                int exitCode, K6ApiFollower follower, MetricsSampler sampler, Instant loadStarted, K6Script script)
                throws IOException {
            RequestTimeline measure = follower.timeline(K6Env.MEASURE_SCENARIO);
            Instant windowStart;
            Instant windowEnd;
            Optional<Instant> measuredFrom = measuredWindowStart();
            if (measuredFrom.isPresent()) {
                // k6 says when its scenarios started, so the window is exact whatever the latency.
                windowStart = measuredFrom.get();
                windowEnd = windowStart.plus(script.measured());
            } else if (measure.isEmpty()) {
                windowStart = loadStarted.plus(script.warmup());
                windowEnd = Instant.now();
            } else {
                // k6 stamps a request when it completes: an estimate that starts late when responses are slow.
                windowStart = Instant.ofEpochSecond(measure.firstEpochSecond());
                windowEnd = Instant.ofEpochSecond(
                        measure.firstEpochSecond() + measure.points().size());
            }
            List<MetricsSampler.Tick> ticks = sampler.ticks();
            ScrapeLog.write(k6Files.scrapes(), sampler.scrapes());
            List<MetricsSampler.Tick> inWindow = ticks.stream()
                    .filter(tick ->
                            !tick.at().isBefore(windowStart) && !tick.at().isAfter(windowEnd))
                    .toList();
            RunObservation result = new RunObservation(
                    exitCode, measure, inWindow, windowStart, windowEnd, threadPoolSize(), sampler.scrapes());
            writeTimeline(k6Files.timeline(), measure);
            writeMetrics(k6Files.metrics(), result);
            return result;
        }

        /** Where k6's summary puts the measured window, if it says when the load started. */
        private Optional<Instant> measuredWindowStart() {
            try {
                return K6SummaryParser.parseFile(k6Files.k6Summary()).measuredWindowStart();
            } catch (RuntimeException e) {
                // An unreadable summary fails the run when it is collected, with the reason.
                return Optional.empty();
            }
        }

        /**
         * What k6's CPU over the CPUs it may use (local mode has no CPU limit, so no throttling), the busy share of the
         * CPUs it shares with the delay service and PostgreSQL, and the dropped iterations say about the generator.
         */
        private GeneratorCheck.Judgement judgeGenerator(RunSummary summary, RunObservation observation) {
            long dropped = summary.getDroppedIterations() == null ? 0 : summary.getDroppedIterations();
            return GeneratorCheck.judge(
                    List.of(GeneratorCheck.Generator.localProcess(
                            observation.averageLoadGeneratorCores(),
                            plan.supportCpus().size(),
                            observation.averageGeneratorCpusBusy(),
                            "the delay service and PostgreSQL (" + plan.supportCpus() + ")")),
                    dropped,
                    List.of());
        }

        /** The k6 summary and the target samples into the status; the run succeeded. */
        private void collect(int exitCode) {
            RunSummary summary;
            try {
                summary = LocalSummary.summarize(load.spec(), catalogue, k6Files.k6Summary(), observation);
            } catch (RuntimeException e) {
                progress.resultsUnreadable("the k6 summary " + k6Files.k6Summary() + " (k6 exit code " + exitCode
                        + ") could not be read: " + e.getMessage() + "; see " + k6Files.k6Log());
                return;
            }
            missedScrapesWarning(observation).ifPresent(summary::addWarning);
            RunDriver.loadMeasured(progress, measured(summary, judgeGenerator(summary, observation)));
            publishSteps();
        }

        private void fail(String reason, String message) {
            if (ProcessSupervisor.interrupted()) {
                progress.fail(RunProgress.INTERRUPTED, INTERRUPTED);
            } else {
                progress.fail(reason, message);
            }
            publishSteps();
        }

        private int followUntilDone(
                ManagedProcess k6,
                K6ApiFollower follower,
                Instant loadStarted,
                Duration warmupDuration,
                Duration planned,
                Duration limit)
                throws IOException {
            while (true) {
                try {
                    if (k6.process().waitFor(1, java.util.concurrent.TimeUnit.SECONDS)) {
                        return k6.process().exitValue();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new LocalRunException(RunProgress.INTERRUPTED, "interrupted while k6 was running");
                }
                follower.poll();
                long burstPlannedRequests = spec.getWorkload().getLoad().burstIterations()
                        * K6ScriptGenerator.requestsPerIteration(spec.getWorkload());
                Duration sinceStart = Duration.between(loadStarted, Instant.now());
                RequestTimeline measure = follower.timeline(K6Env.MEASURE_SCENARIO);
                RequestTimeline warmup = follower.timeline(K6Env.WARMUP_SCENARIO);
                // k6 first sets up its VUs (seconds on a busy CPU); the test clock starts with its first sample.
                long firstSample = warmup.isEmpty() ? measure.firstEpochSecond() : warmup.firstEpochSecond();
                Duration elapsed = firstSample < 0
                        ? Duration.ZERO
                        : Duration.between(Instant.ofEpochSecond(firstSample), Instant.now());
                boolean measuring = firstSample >= 0 && elapsed.compareTo(warmupDuration) >= 0;
                if (measuring) {
                    RunDriver.loadElapsed(progress, load, elapsed);
                    publishSteps();
                }
                // The follower counts what k6 counted since its previous poll a second ago.
                long latestSecond = Instant.now().getEpochSecond();
                // After the planned end k6 waits (graceful stop) for requests still in flight.
                String phase = firstSample < 0
                        ? "starting"
                        : elapsed.compareTo(planned) > 0 ? "finishing" : measuring ? "measure" : "warmup";
                printer.show(new ProgressPrinter.Progress(
                        load.label(name),
                        phase,
                        elapsed,
                        planned,
                        warmup.requestsAt(latestSecond) + measure.requestsAt(latestSecond),
                        warmup.totalRequests() + measure.totalRequests(),
                        warmup.totalFailed() + measure.totalFailed(),
                        warmup.totalDropped() + measure.totalDropped(),
                        measure.totalRequests(),
                        burstPlannedRequests));
                if (sinceStart.compareTo(limit) > 0) {
                    throw new LocalRunException(
                            RunProgress.TIMED_OUT,
                            "k6 was still running after " + Durations.format(limit) + " (planned: "
                                    + Durations.format(planned)
                                    + " plus graceful stop, within spec.timeout); stopped it. Raise spec.timeout"
                                    + " or shorten the run; see " + k6.logFile());
                }
            }
        }

        private Integer threadPoolSize() {
            return targetApp == null
                    ? null
                    : variant.poolThreads(targetApp.activeProcessors(), targetApp.environment());
        }

        /** What the status records: the contract's part from the shared model, the rest from this machine. */
        private RunEnvironment environment() {
            RunEnvironment environment;
            if (targetApp != null) {
                environment = RunApps.environment(spec, targetApp, catalogue);
            } else {
                environment = new RunEnvironment();
                environment.setVariant(variant.name());
                environment.setCpuLimit(spec.getTarget().getResources().getCpu());
                environment.setMemoryLimit(spec.getTarget().getResources().getMemory());
            }
            environment.setMode("local");
            environment.setNodeNames(List.of(MachineFacts.hostName()));
            environment.setCpuSet(plan.targetCpus().toList());
            environment.setParallelism(1);
            if (targetInfo != null) {
                environment.setJavaVersion(targetInfo.javaVersion());
                environment.setSpringBootVersion(targetInfo.springBootVersion());
            }
            environment.setK6Version(k6Version);
            Map<String, String> images = new LinkedHashMap<>();
            images.put(RunApps.TARGET, variant.jar());
            images.put(RunApps.DELAY_SERVICE, catalogue.delayService().jar());
            images.put("postgres", postgres == null ? "unknown" : postgres.serverVersion());
            environment.setImages(images);
            environment.setDatabase(backend == null ? RunEnvironment.DATABASE_OWN : RunEnvironment.DATABASE_COMPARISON);
            if (postgres != null) {
                environment.setPostgresVersion(postgres.serverVersion());
            }
            return environment;
        }

        private LocalManifest manifest() {
            return new LocalManifest(
                    name,
                    variant.name(),
                    MachineFacts.hostName(),
                    MachineFacts.kernel(),
                    MachineFacts.cpuModel(),
                    settings.machineCpus().toList(),
                    plan.targetCpus().toList(),
                    plan.supportCpus().toList(),
                    plan.activeProcessorCount(),
                    plan.isolated(),
                    notes,
                    loadAverageBefore,
                    MachineFacts.loadAverage().orElse(null),
                    postgres == null ? null : postgres.serverVersion(),
                    postgres == null ? null : postgres.pid(),
                    settings.keep() && postgres != null ? postgres.dataDir().toString() : null,
                    delayService == null ? null : delayService.pid(),
                    target == null ? null : target.pid(),
                    target == null ? null : String.join(" ", target.command()),
                    targetApp == null ? null : targetApp.javaToolOptions(),
                    targetInfo,
                    threadPoolSize(),
                    k6Command == null ? null : String.join(" ", k6Command),
                    k6Version,
                    List.copyOf(pids),
                    spec);
        }

        private ReportRun report(LocalManifest manifest) {
            List<RequestTimeline.Point> points =
                    observation == null ? List.of() : observation.measure().points();
            List<GaugePoint> threads = new ArrayList<>();
            List<GaugePoint> targetCpu = new ArrayList<>();
            List<GaugePoint> k6Cpu = new ArrayList<>();
            if (observation != null) {
                for (MetricsSampler.Tick tick : observation.ticks()) {
                    double second = observation.secondsIntoWindow(tick.at());
                    tick.liveThreads().ifPresent(value -> threads.add(new GaugePoint(second, value)));
                    targetCpu.add(new GaugePoint(second, tick.targetCores()));
                    k6Cpu.add(new GaugePoint(second, tick.loadGeneratorCores()));
                }
            }
            return new ReportRun(
                    ReportRows.of(run, observation),
                    points,
                    threads,
                    targetCpu,
                    k6Cpu,
                    notes,
                    manifest.rows(),
                    BenchmarkRuns.toYaml(withoutStatus(run)),
                    Durations.seconds(Durations.parse(spec.getWorkload().getDuration())));
        }

        /** Prints the steps taken since the last call, as the operator publishes them as Events. */
        private void publishSteps() {
            for (RunProgress.Step step : progress.takeSteps()) {
                say((step.warning() ? "warning: " : "") + step.reason() + ": " + step.message());
            }
        }

        private void say(String text) {
            printer.message("[" + name + "] " + text);
        }
    }

    private LocalPostgres startPostgres(IsolationPlan plan) {
        try {
            return LocalPostgres.builder()
                    .cpus(plan.supportCpus().toList())
                    .keepDataDir(settings.keep())
                    .start();
        } catch (RuntimeException e) {
            throw new LocalRunException(
                    RunProgress.TARGET_NOT_READY,
                    "could not start PostgreSQL: " + e.getMessage()
                            + " (run hack/setup.sh postgres, or set STACKBENCH_PG_BIN to the directory with initdb"
                            + " and pg_ctl)");
        }
    }

    /** Settings that only mean something on a cluster, said out loud so nobody reads them into a local result. */
    static List<String> clusterOnlySettings(BenchmarkRunSpec spec) {
        List<String> notes = new ArrayList<>();
        Integer replicas = spec.getTarget().getReplicas();
        if (replicas != null && replicas > 1) {
            notes.add("local mode runs one target process: spec.target.replicas " + replicas + " is not applied");
        }
        Integer parallelism = spec.getWorkload().getParallelism();
        if (parallelism != null && parallelism > 1) {
            notes.add("local mode runs one k6 process carrying the whole load: spec.workload.parallelism " + parallelism
                    + " is not applied");
        }
        if (spec.getBackend() != null
                && spec.getBackend().getDatabase() != null
                && spec.getBackend().getDatabase().getExternal() != null) {
            notes.add("local mode starts a PostgreSQL of its own for every run: spec.backend.database.external ("
                    + spec.getBackend().getDatabase().getExternal().getHost() + ") is not used");
        }
        return notes;
    }

    /**
     * The command that starts a Spring Boot app whose JVM options come through JAVA_TOOL_OPTIONS, as in a pod: from
     * an unpacked copy with a class archive when this JVM can make one (see {@link JvmStartCache}). When the archive
     * is missing, a training start makes it first, on the CPUs and with the environment the app gets, and logs
     * next to the app's log; if that fails the app starts without it.
     */
    private ManagedProcess startSpringApp(
            ProcessSupervisor supervisor,
            String name,
            Path jar,
            SpringApp app,
            Map<String, String> environment,
            CpuSet cpus,
            Path log,
            java.util.function.Consumer<String> say)
            throws IOException {
        JvmStartCache.Start start = startCache.prepare(jar, app.javaToolOptions());
        if (start.training() == null) {
            return supervisor.start(name, start.command(), environment, cpus, log);
        }
        say.accept("making the start cache of the " + name + " (once per build of " + jar.getFileName()
                + ", JVM and JVM options; it shortens startup only)");
        Path trainingLog =
                log.resolveSibling(log.getFileName().toString().replaceAll("\\.log$", "") + "-start-cache.log");
        ManagedProcess training =
                supervisor.start(name + " start cache", start.training(), environment, cpus, trainingLog);
        boolean made = false;
        try {
            made = training.process().waitFor(settings.startTimeout().toSeconds() + 60, TimeUnit.SECONDS)
                    && training.process().exitValue() == 0
                    && Files.isRegularFile(start.cache());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (training.isAlive()) {
                training.stop(Duration.ofSeconds(5));
            }
        }
        if (!made) {
            JvmStartCache.discard(start);
            say.accept("warning: could not make the start cache of the " + name + " (see " + trainingLog
                    + "); it starts without one");
            return supervisor.start(
                    name, List.of(settings.javaBin().toString(), "-jar", jar.toString()), environment, cpus, log);
        }
        return supervisor.start(name, start.command(), environment, cpus, log);
    }

    private static URI managementUri(SpringApp app, String path) {
        return URI.create("http://" + AppWiring.LOOPBACK + ":" + app.endpoint().managementPort() + path);
    }

    /**
     * Moves this JVM (sampler, k6 output follower, progress) off the target's CPUs, so the tool that measures the
     * target does not take CPU time from it.
     */
    private static boolean pinThisProcess(CpuSet cpus) {
        try {
            CpuAffinity.pin(ProcessHandle.current().pid(), cpus);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private Path jar(String relative) {
        Path jar = settings.repoRoot().resolve(relative);
        if (!Files.isRegularFile(jar)) {
            throw new LocalRunException(jar + " does not exist: build it with ./stackbench (it builds missing jars)"
                    + " or mvn -pl targets/mvc-app,targets/webflux-app,targets/delay-service -am package");
        }
        return jar;
    }

    /** A target too busy to answer its metrics endpoint is itself a finding, and explains missing figures. */
    static Optional<String> missedScrapesWarning(RunObservation observation) {
        long missed = observation.ticks().stream()
                .filter(tick -> tick.scrape() == null)
                .count();
        if (missed == 0) {
            return Optional.empty();
        }
        return Optional.of(String.format(
                Locale.ROOT,
                "%d of %d once-a-second scrapes of the target's "
                        + "/actuator/prometheus got no answer within 2 s: the target was too busy to serve its"
                        + " metrics, so thread, heap and pool figures cover only the answered scrapes",
                missed,
                observation.ticks().size()));
    }

    private static BenchmarkRun withoutStatus(BenchmarkRun run) {
        BenchmarkRun copy = new BenchmarkRun();
        copy.setApiVersion(run.getApiVersion());
        copy.setKind(run.getKind());
        copy.setMetadata(run.getMetadata());
        copy.setSpec(run.getSpec());
        return copy;
    }

    private static void writeJson(Path file, Object value) {
        try {
            Files.createDirectories(file.getParent());
            JSON.writeValue(file.toFile(), value);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * What local mode passes to k6 after the binary: a quiet run, paused until the target is ready (resumed through the
     * REST API at {@code apiAddress}, which also gives the live counts), with no per-request output.
     */
    public static List<String> k6RunArguments(String apiAddress, String script) {
        return List.of("run", "--quiet", "--no-color", "--paused", "--address", apiAddress, script);
    }

    private static void writeTimeline(Path file, RequestTimeline timeline) throws IOException {
        StringBuilder csv = new StringBuilder("second,requests,failed,dropped,p50_ms,p95_ms,p99_ms\n");
        for (RequestTimeline.Point point : timeline.points()) {
            csv.append(String.format(
                    Locale.ROOT,
                    "%d,%d,%d,%d,%.3f,%.3f,%.3f%n",
                    point.second(),
                    point.requests(),
                    point.failed(),
                    point.dropped(),
                    point.p50Ms(),
                    point.p95Ms(),
                    point.p99Ms()));
        }
        Files.writeString(file, csv);
    }

    private void writeMetrics(Path file, RunObservation observation) throws IOException {
        StringBuilder csv = new StringBuilder("second,target_cpu_cores,k6_cpu_cores,live_threads,k6_cpus_busy\n");
        for (MetricsSampler.Tick tick : observation.ticks()) {
            String threads = tick.liveThreads()
                    .map(value -> String.format(Locale.ROOT, "%.0f", value))
                    .orElse("");
            csv.append(String.format(
                    Locale.ROOT,
                    "%.1f,%.3f,%.3f,%s,%s%n",
                    observation.secondsIntoWindow(tick.at()),
                    tick.targetCores(),
                    tick.loadGeneratorCores(),
                    threads,
                    Double.isNaN(tick.generatorCpusBusy())
                            ? ""
                            : String.format(Locale.ROOT, "%.3f", tick.generatorCpusBusy())));
        }
        Files.writeString(file, csv);
    }
}
