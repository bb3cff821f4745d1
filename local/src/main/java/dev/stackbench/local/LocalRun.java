package dev.stackbench.local;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.Durations;
import dev.stackbench.api.Quantities;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.run.Scenario;
import dev.stackbench.api.status.Conditions;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.k6.K6Env;
import dev.stackbench.k6.K6Script;
import dev.stackbench.k6.K6ScriptGenerator;
import dev.stackbench.lifecycle.LoadStep;
import dev.stackbench.lifecycle.ResolvedRun;
import dev.stackbench.lifecycle.RunDriver;
import dev.stackbench.lifecycle.RunFacts;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.lifecycle.SteppedLoad;
import dev.stackbench.model.SpringApp;
import dev.stackbench.report.RequestTimeline;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
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

    /**
     * What a runner lends each of its runs.
     *
     * @param k6PerSecondOutput whether the k6 binary has the stackbench output (hack/k6), which bins the per-second
     *     figures by the samples' own time stamps; without it they are what k6's REST API counted between two polls
     */
    record Tools(
            LocalRunner.Settings settings,
            VariantCatalogue catalogue,
            SpringAppLauncher launcher,
            ProgressPrinter printer,
            boolean k6PerSecondOutput) {}

    private static final String INTERRUPTED = "interrupted (Ctrl-C or SIGTERM): every process the run started was "
            + "stopped; the figures are incomplete";

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

    /** Whether PostgreSQL, the delay service and the target were started and are Ready. */
    private boolean provisioned;
    /** The step the target was last restarted for (spec.workload.restartBetweenSteps); 0 when never. */
    private int restartedForStep;
    /** Where each load's k6 is, by load number: started paused, or finished with an exit code. */
    private final Map<Integer, K6Stage> loads = new LinkedHashMap<>();

    private final LoadCollector collector;
    /** Every port of the run's processes comes from here, so no two of them are ever given the same one. */
    private final FreePorts ports = new FreePorts();

    /** Where a load's k6 process is. */
    private sealed interface K6Stage {}

    private record Paused(K6Script script) implements K6Stage {}

    private record Exited(int exitCode) implements K6Stage {}

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
        this.collector = new LoadCollector(progress, resolved, tools.catalogue(), plan.supportCpus());
        this.stack = new TargetStack(tools, spec, variant, plan, backend, progress, this::say);
    }

    LocalRunner.Result execute() {
        notes.addAll(plan.notes());
        notes.addAll(LocalEnvironment.clusterOnlySettings(spec));
        if (!tools.k6PerSecondOutput()) {
            notes.add("k6 at " + tools.settings().k6Binary()
                    + " has no stackbench output: per-second series sampled from its REST API (hack/setup.sh k6"
                    + " builds a k6 that has it)");
        }
        if (plan.isolated()) {
            notes.add(
                    CpuAffinity.pinThisProcess(plan.supportCpus())
                            ? "the stackbench CLI itself (sampling, progress) also runs on " + plan.supportCpus()
                            : "could not move the stackbench CLI off the target's CPUs (taskset failed): it may"
                                    + " take a little CPU time from the target");
        }
        notes.forEach(note -> say(note));
        try (ProcessSupervisor supervisor = new ProcessSupervisor(plan.supportCpus())) {
            try {
                Files.createDirectories(files.dir());
                Files.writeString(files.spec(), BenchmarkRuns.toYaml(LocalEnvironment.withoutStatus(run)));
                RunDriver.Action action;
                do {
                    if (ProcessSupervisor.interrupted()) {
                        // A load cut short by the signal must not be collected as if it had run its course.
                        throw new LocalRunException(RunProgress.INTERRUPTED, INTERRUPTED);
                    }
                    action = RunDriver.next(progress, resolved, observe());
                    publishEvents();
                    execute(supervisor, action);
                    publishEvents();
                } while (!(action instanceof RunDriver.Fail) && !progress.isTerminal());
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
        publishEvents();
        LocalEnvironment environment = new LocalEnvironment(
                tools,
                new LocalEnvironment.Facts(
                        run, variant, plan, notes, loadAverageBefore, stack, k6, k6Version, observation, pids));
        progress.status().setEnvironment(environment.environment());
        run.setStatus(progress.status());
        LocalManifest manifest = environment.manifest();
        ResultsLayout.writeJson(files.status(), progress.status());
        ResultsLayout.writeJson(files.environment(), manifest);
        ResultsLayout.writeJson(
                files.provenance(),
                Provenance.of(
                        BuildInfo.current(),
                        k6Version,
                        tools.settings().machineCpus().size(),
                        tools.settings().repoRoot(),
                        variant == null ? null : variant.jar()));
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

    /**
     * What this machine shows of the run: its processes and where each load's k6 is. Local mode checks the spec before
     * it starts anything and has this machine's CPUs to itself, so only the processes change from pass to pass.
     */
    private RunFacts observe() {
        java.util.Optional<LoadStep> current = RunDriver.currentLoad(progress, resolved);
        return new RunFacts(
                List.of(),
                new RunFacts.Pools(
                        true,
                        "this machine's CPUs: the target on " + plan.targetCpus()
                                + ", k6, PostgreSQL and the delay service on " + plan.supportCpus()),
                loads.values().stream().anyMatch(stage -> stage instanceof Exited),
                provisioned ? new RunFacts.Ready() : new RunFacts.NotReady("the target has not been started yet"),
                tools.settings().startTimeout(),
                current.map(step -> step.number() <= 1
                                || !Boolean.TRUE.equals(spec.getWorkload().getRestartBetweenSteps())
                                || restartedForStep == step.number()
                                || loads.containsKey(step.number()))
                        .orElse(true),
                current.map(step -> switch (loads.get(step.number())) {
                            case null -> new RunFacts.NotCreated();
                            case Paused paused -> new RunFacts.Starting(java.util.Optional.empty());
                            case Exited exited -> (RunFacts.LoadState) new RunFacts.Finished(1);
                        })
                        .orElseGet(RunFacts.NotCreated::new),
                // Local mode verifies the work as it starts the stack (VerificationStage), before any load.
                true);
    }

    /**
     * Carries out what the run driver decided. Each action blocks until it is done (processes started and healthy, a
     * load sent to its end), so the loop needs no sleep between passes.
     */
    private void execute(ProcessSupervisor supervisor, RunDriver.Action action) throws IOException {
        switch (action) {
            case RunDriver.Provision provision -> provision(supervisor);
            case RunDriver.RestartTarget restart -> restartTarget(supervisor, restart.load());
            case RunDriver.StartLoad start -> prepareLoad(supervisor, start.load());
            case RunDriver.FollowLoad follow -> sendLoad(follow.load());
            case RunDriver.Collect collect -> collect(collect.load());
            case RunDriver.FinishSteps finish -> finishSteps(finish.done());
            case RunDriver.Queue queue -> throw new IllegalStateException("local mode never queues: " + queue);
            case RunDriver.Verify verify ->
                throw new IllegalStateException("local mode verifies as it provisions (VerificationStage): " + verify);
            case RunDriver.Fail fail -> {}
            case RunDriver.CleanUp cleanUp -> {}
        }
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
        // With the stackbench output (which local mode then passes), the output counts the latency buckets.
        K6Script script = K6ScriptGenerator.forK6(tools.k6PerSecondOutput()).generate(load.spec(), customImport);
        Files.writeString(k6Files.k6Script(), script.text());
        return script;
    }

    /**
     * PostgreSQL, the delay service and the target, each started and healthy (or, in a comparison, the target
     * started against the comparison's PostgreSQL and delay service), with the first load's k6 started paused beside
     * them: it compiles the script and makes its VUs while the JVMs start, then waits, sending nothing.
     */
    private void provision(ProcessSupervisor supervisor) throws IOException {
        LoadStep first = RunDriver.currentLoad(progress, resolved).orElseThrow();
        beginLoad(first);
        K6Script script = writeScript();
        String baseUrl = stack.start(supervisor, files, ports);
        startK6Paused(supervisor, baseUrl, script);
        stack.awaitReady();
        provisioned = true;
        stack.readTargetInfo();
        // Before any load: the target must do the work its scenario asks for, or its figures compare other work.
        new VerificationStage(
                        new WorkVerifier(tools, stack, plan.supportCpus()),
                        backend,
                        name,
                        variant.jar(),
                        files,
                        this::say)
                .verify(supervisor, spec, customModule, progress);
    }

    /** Stops the target and starts it again for a cold start at this step (spec.workload.restartBetweenSteps). */
    private void restartTarget(ProcessSupervisor supervisor, LoadStep step) throws IOException {
        beginLoad(step);
        say("restarting target " + variant.name() + " before step " + step.number() + " (restartBetweenSteps)");
        pids.add(stack.stopTarget());
        stack.startTargetAgain(supervisor, k6Files.targetLog());
        restartedForStep = step.number();
    }

    /** A step's script and its k6, started paused; LoadRunning turns False, as a cluster prepares its TestRun. */
    private void prepareLoad(ProcessSupervisor supervisor, LoadStep step) throws IOException {
        beginLoad(step);
        startK6Paused(supervisor, stack.baseUrl(), writeScript());
        progress.condition(
                Conditions.LOAD_RUNNING,
                false,
                "LoadPrepared",
                "started k6 for " + step.label(name) + ", paused until it is told to start");
    }

    private void startK6Paused(ProcessSupervisor supervisor, String baseUrl, K6Script script) throws IOException {
        k6 = new K6Process(tools.settings().k6Binary(), k6Files, ports, tools.k6PerSecondOutput());
        k6.startPaused(supervisor, baseUrl, plan.supportCpus());
        loads.put(load.number(), new Paused(script));
    }

    /** From here on, load and files are this load's: for a step its spec at its level and its own directory. */
    private void beginLoad(LoadStep next) {
        load = next;
        k6Files = next.isStep() ? new ResultsLayout.RunFiles(files.dir().resolve(next.directoryName())) : files;
    }

    /** Resumes the load's k6 and follows it to its end while the target is sampled every second. */
    private void sendLoad(LoadStep step) throws IOException {
        K6Script script = ((Paused) loads.get(step.number())).script();
        k6Version = K6Version.of(tools.settings().k6Binary());

        MetricsSampler sampler = new MetricsSampler(
                SpringAppLauncher.managementUri(stack.targetApp(), SpringApp.PROMETHEUS_PATH),
                stack.target().process().toHandle(),
                plan.isolated() ? plan.supportCpus() : null,
                plan.isolated() ? plan.targetCpus() : null);
        // No per-request output: k6 would spend as much CPU writing it as sending the requests. With the stackbench
        // output k6 writes the per-second series, which also gives the live progress without asking k6 anything;
        // without it, k6's REST API gives both.
        LoadFollower follower = LoadFollower.of(tools.k6PerSecondOutput(), k6.apiAddress(), k6Files.k6PerSecond());
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
        publishEvents();
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
                        publishEvents();
                    });
        } finally {
            sampler.close();
        }
        if (!load.isStep()) {
            // A sweep's load finishes with its last step.
            progress.loadFinished(1);
            publishEvents();
        }
        k6.requireSummary(exitCode);
        follower.finish(k6Files.k6Summary());
        observation = WindowRecorder.observe(
                k6Files,
                script,
                new WindowRecorder.FinishedLoad(
                        exitCode,
                        loadStarted,
                        timeline(follower, K6Env.MEASURE_SCENARIO),
                        timeline(follower, K6Env.WARMUP_SCENARIO),
                        sampler),
                stack.poolThreads());
        loads.put(step.number(), new Exited(exitCode));
    }

    /**
     * A scenario's per-second series: from k6's stackbench output when k6 has it and wrote the scenario, else what the
     * REST API polls counted.
     */
    private RequestTimeline timeline(LoadFollower follower, String scenario) {
        if (tools.k6PerSecondOutput()) {
            RequestTimeline fromOutput =
                    K6PerSecondFile.read(k6Files.k6PerSecond()).get(scenario);
            if (fromOutput != null && !fromOutput.isEmpty()) {
                return fromOutput;
            }
        }
        return follower.timeline(scenario);
    }

    private void collect(LoadStep step) {
        int exitCode = ((Exited) loads.get(step.number())).exitCode();
        collector.collect(step, exitCode, k6Files, observation);
    }

    private void finishSteps(SteppedLoad.Done done) {
        collector.finishSteps(done).ifPresent(kept -> observation = kept);
    }

    private void fail(String reason, String message) {
        if (ProcessSupervisor.interrupted()) {
            progress.fail(RunProgress.INTERRUPTED, INTERRUPTED);
        } else {
            progress.fail(reason, message);
        }
        publishEvents();
    }

    /** Prints the events recorded since the last call, as the operator publishes them as Events. */
    private void publishEvents() {
        for (RunProgress.Event step : progress.takeEvents()) {
            say((step.warning() ? "warning: " : "") + step.reason() + ": " + step.message());
        }
    }

    private void say(String text) {
        tools.printer().message("[" + name + "] " + text);
    }
}
