package dev.stackbench.local;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.BenchmarkRunSpec;
import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.Conditions;
import dev.stackbench.api.Durations;
import dev.stackbench.api.Quantities;
import dev.stackbench.api.RunSummary;
import dev.stackbench.api.Scenario;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.k6.K6Script;
import dev.stackbench.k6.K6ScriptGenerator;
import dev.stackbench.k6.K6SummaryParser;
import dev.stackbench.lifecycle.LoadStep;
import dev.stackbench.lifecycle.ResolvedRun;
import dev.stackbench.lifecycle.RunDriver;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.lifecycle.SteppedLoad;
import dev.stackbench.model.SpringApp;
import dev.stackbench.results.GeneratorCheck;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One run, stage by stage: its files, its processes, the load (one, or the steps of a sweep or a capacity search),
 * the results into the status, then status.json, environment.json and the report's data. Holds what the stages learn
 * for those.
 */
final class LocalRun {

    /** What a runner lends each of its runs. */
    record Tools(
            LocalRunner.Settings settings,
            VariantCatalogue catalogue,
            SpringAppLauncher launcher,
            ProgressPrinter printer) {}

    private static final String INTERRUPTED = "interrupted (Ctrl-C or SIGTERM): every process the run started was "
            + "stopped; the figures are incomplete";
    private static final ObjectMapper JSON =
            new ObjectMapper().findAndRegisterModules().enable(SerializationFeature.INDENT_OUTPUT);

    private final Tools tools;
    private final BenchmarkRun run;
    private final BenchmarkRunSpec spec;
    private final String name;
    private final ResultsLayout.RunFiles files;
    private final String customModule;
    private final TargetVariant variant;
    private final IsolationPlan plan;
    private final List<String> notes = new ArrayList<>();
    private final RunProgress progress;
    private final ResolvedRun resolved;
    private final String loadAverageBefore;
    private final Instant started = Instant.now();
    private final LocalBackend backend;
    private final TargetStack stack;
    private final List<Long> pids = new ArrayList<>();

    /** The load being sent: the run's only one, or the step of a sweep or a capacity search under way. */
    private LoadStep load;
    /** Where the files of the load being sent go: the run's directory, or the step's. */
    private ResultsLayout.RunFiles k6Files;

    private K6Process k6;
    private String k6Version;
    private RunObservation observation;

    /**
     * @param customModule for scenario custom, the text of the user's k6 module; null otherwise
     * @param backend the comparison's PostgreSQL and delay service, or null for a run that starts its own
     */
    LocalRun(Tools tools, BenchmarkRun run, ResultsLayout.RunFiles files, String customModule, LocalBackend backend) {
        this.tools = tools;
        this.backend = backend;
        this.run = run;
        this.spec = run.getSpec();
        this.name = run.getMetadata().getName();
        this.files = files;
        this.customModule = customModule;
        this.variant = TargetVariant.of(tools.catalogue(), spec.getTarget().getVariant());
        this.plan = IsolationPlanner.plan(
                tools.settings().machineCpus(),
                BigDecimal.valueOf(
                        Quantities.cpuCores(spec.getTarget().getResources().getCpu())));
        run.setStatus(null);
        this.progress = new RunProgress(run, Clock.systemUTC());
        this.resolved = ResolvedRun.of(run);
        this.load = resolved.plainLoad();
        this.k6Files = files;
        this.loadAverageBefore = MachineFacts.loadAverage().orElse(null);
        this.stack = new TargetStack(tools, spec, variant, plan, backend, progress, this::say);
    }

    LocalRunner.Result execute() {
        notes.addAll(plan.notes());
        notes.addAll(LocalEnvironment.clusterOnlySettings(spec));
        if (plan.isolated()) {
            notes.add(
                    CpuAffinity.pinThisProcess(plan.supportCpus())
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
                provision(supervisor);
                if (spec.getWorkload().isStepped()) {
                    runSteps(supervisor, script);
                } else {
                    int exitCode = sendLoad(script);
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
                tools.printer().finish();
            }
        }
        if (plan.isolated()) {
            // Give this JVM its CPUs back: an embedding process (a test JVM) and what it starts next keep them.
            CpuAffinity.pinThisProcess(tools.settings().machineCpus());
        }
        if (stack.postgres() != null && backend == null) {
            pids.add(stack.postgres().pid());
        }
        progress.cleanedUp(true, cleanupNote());
        publishSteps();
        LocalEnvironment environment = new LocalEnvironment(
                tools,
                new LocalEnvironment.Facts(
                        run, variant, plan, notes, loadAverageBefore, stack, k6, k6Version, observation, pids));
        progress.status().setEnvironment(environment.environment());
        run.setStatus(progress.status());
        LocalManifest manifest = environment.manifest();
        writeJson(files.status(), progress.status());
        writeJson(files.environment(), manifest);
        return new LocalRunner.Result(run, environment.report(manifest), List.copyOf(pids));
    }

    private String cleanupNote() {
        return (backend == null
                        ? "stopped every process the run started"
                        : "stopped the target and k6; the comparison's PostgreSQL and delay service"
                                + " stay up for its next repetition")
                + (tools.settings().keep() && stack.postgres() != null && backend == null
                        ? "; PostgreSQL's data directory is kept in "
                                + stack.postgres().dataDir()
                        : "")
                + "; the results stay in " + files.dir();
    }

    /** The spec as run and the k6 script (with a custom module beside it), before anything starts. */
    private K6Script writeFiles() throws IOException {
        Files.createDirectories(files.dir());
        Files.writeString(files.spec(), BenchmarkRuns.toYaml(LocalEnvironment.withoutStatus(run)));
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
     * PostgreSQL, the delay service and the target, each started and healthy (or, in a comparison, the target
     * started against the comparison's PostgreSQL and delay service); the target is Ready after.
     */
    private void provision(ProcessSupervisor supervisor) throws IOException {
        String baseUrl = stack.start(supervisor, files);
        // k6 compiles the script and makes its VUs while the JVMs start, then waits, paused, sending nothing.
        startK6Paused(supervisor, baseUrl);
        stack.awaitReady();
        progress.targetReady();
        publishSteps();
        stack.readTargetInfo();
    }

    private void startK6Paused(ProcessSupervisor supervisor, String baseUrl) throws IOException {
        k6 = new K6Process(tools.settings().k6Binary(), k6Files);
        k6.startPaused(supervisor, baseUrl, plan.supportCpus());
    }

    /**
     * The steps of a sweep or a capacity search against the target already running: each step's k6 runs, is read
     * and judged, and {@link SteppedLoad} picks the next level from the steps so far. The best step so far is the
     * run's summary from the first step on, so a failure later loses nothing already measured.
     */
    private void runSteps(ProcessSupervisor supervisor, K6Script firstScript) throws IOException {
        Map<Integer, GeneratorCheck.Judgement> judgements = new LinkedHashMap<>();
        Map<Integer, RunObservation> observations = new LinkedHashMap<>();
        K6Script script = firstScript;
        while (true) {
            int exitCode = sendLoad(script);
            RunSummary summary;
            try {
                summary = LocalSummary.summarize(load.spec(), tools.catalogue(), k6Files.k6Summary(), observation);
            } catch (RuntimeException e) {
                progress.loadFinished(1);
                progress.resultsUnreadable("step " + load.number() + ": the k6 summary " + k6Files.k6Summary()
                        + " (k6 exit code " + exitCode + ") could not be read: " + e.getMessage() + "; see "
                        + k6Files.k6Log());
                publishSteps();
                return;
            }
            GeneratorCheck.Judgement judgement = LocalSummary.judgeGenerator(summary, observation, plan.supportCpus());
            LocalSummary.missedScrapesWarning(observation).ifPresent(summary::addWarning);
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
                say("restarting target " + variant.name() + " before step " + load.number() + " (restartBetweenSteps)");
                pids.add(stack.stopTarget());
                stack.startTargetAgain(supervisor, k6Files.targetLog());
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

    /** k6 with the generated script; the target is sampled every second. Returns k6's exit code. */
    private int sendLoad(K6Script script) throws IOException {
        k6Version = K6Version.of(tools.settings().k6Binary());

        MetricsSampler sampler = new MetricsSampler(
                SpringAppLauncher.managementUri(stack.targetApp(), SpringApp.PROMETHEUS_PATH),
                stack.target().process().toHandle(),
                plan.isolated() ? plan.supportCpus() : null);
        // No per-request output: k6 would spend as much CPU writing it as sending the requests.
        K6ApiFollower follower = new K6ApiFollower(k6.apiAddress());
        Duration warmup = script.warmup();
        Duration planned = warmup.plus(script.measured());
        // spec.timeout bounds the whole run, as on a cluster; k6 gets what is left of it after provisioning.
        Duration leftOfTimeout = Durations.parse(spec.getTimeout()).minus(Duration.between(started, Instant.now()));
        Duration limit = script.expectedMaxRunTime().plus(K6Process.OVERRUN);
        if (leftOfTimeout.compareTo(limit) < 0) {
            limit = leftOfTimeout;
        }

        sampler.start();
        k6.resume();
        sampler.watchLoadGenerator(k6.process().process().toHandle());
        RunDriver.loadStarted(progress, load, 1, stack.baseUrl());
        RunDriver.loadElapsed(progress, load, Duration.ZERO);
        publishSteps();
        Instant loadStarted = Instant.now();
        int exitCode;
        try {
            long burstPlannedRequests = spec.getWorkload().getLoad().burstIterations()
                    * K6ScriptGenerator.requestsPerIteration(spec.getWorkload());
            exitCode = k6.followUntilDone(
                    follower,
                    loadStarted,
                    new K6Process.Schedule(load.label(name), warmup, planned, limit, burstPlannedRequests),
                    tools.printer(),
                    elapsed -> {
                        RunDriver.loadElapsed(progress, load, elapsed);
                        publishSteps();
                    });
        } finally {
            sampler.close();
        }
        if (!load.isStep()) {
            // A sweep's load finishes with its last step.
            progress.loadFinished(1);
            publishSteps();
        }
        k6.requireSummary(exitCode);
        try {
            follower.finish(K6SummaryParser.parseFile(k6Files.k6Summary()));
        } catch (RuntimeException e) {
            // An unreadable summary fails the run when it is collected, with the reason.
        }
        observation = WindowRecorder.observe(
                k6Files,
                script,
                new WindowRecorder.FinishedLoad(exitCode, loadStarted, follower, sampler),
                stack.poolThreads());
        return exitCode;
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

    /** The k6 summary and the target samples into the status; the run succeeded. */
    private void collect(int exitCode) {
        RunSummary summary;
        try {
            summary = LocalSummary.summarize(load.spec(), tools.catalogue(), k6Files.k6Summary(), observation);
        } catch (RuntimeException e) {
            progress.resultsUnreadable("the k6 summary " + k6Files.k6Summary() + " (k6 exit code " + exitCode
                    + ") could not be read: " + e.getMessage() + "; see " + k6Files.k6Log());
            return;
        }
        LocalSummary.missedScrapesWarning(observation).ifPresent(summary::addWarning);
        RunDriver.loadMeasured(
                progress, measured(summary, LocalSummary.judgeGenerator(summary, observation, plan.supportCpus())));
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

    /** Prints the steps taken since the last call, as the operator publishes them as Events. */
    private void publishSteps() {
        for (RunProgress.Step step : progress.takeSteps()) {
            say((step.warning() ? "warning: " : "") + step.reason() + ": " + step.message());
        }
    }

    private void say(String text) {
        tools.printer().message("[" + name + "] " + text);
    }

    private static void writeJson(Path file, Object value) {
        try {
            Files.createDirectories(file.getParent());
            JSON.writeValue(file.toFile(), value);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write " + file + ": " + e.getMessage(), e);
        }
    }
}
