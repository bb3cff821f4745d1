package dev.stackbench.local;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.BenchmarkRunSpec;
import dev.stackbench.api.BenchmarkRunStatus;
import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.Conditions;
import dev.stackbench.api.Durations;
import dev.stackbench.api.Phase;
import dev.stackbench.api.Quantities;
import dev.stackbench.api.RunEnvironment;
import dev.stackbench.api.RunSummary;
import dev.stackbench.k6.K6Script;
import dev.stackbench.postgres.LocalPostgres;
import dev.stackbench.report.GaugePoint;
import dev.stackbench.report.ReportRun;
import dev.stackbench.report.RequestTimeline;
import dev.stackbench.results.ActuatorInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs one BenchmarkRun on this machine: PostgreSQL, the delay service and the target variant as local
 * processes on 127.0.0.1 with free ports, the target pinned to its own CPUs, then k6 with the generated script,
 * sampling the target every second. Everything it starts is stopped before {@link #run} returns, whether the run
 * succeeded, failed or was interrupted.
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
    /** k6 may use at most this share of the CPUs it can run on before its figures become suspect. */
    private static final double GENERATOR_CPU_ALARM = 0.85;

    private final Settings settings;
    private final ProgressPrinter progress;
    private final CoreBindings core;

    public LocalRunner(Settings settings, ProgressPrinter progress, CoreBindings core) {
        this.settings = settings;
        this.progress = progress;
        this.core = core;
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
        BenchmarkRunSpec spec = run.getSpec();
        String name = run.getMetadata().getName();
        CoreBindings.Variant variant = core.variant(spec.getTarget().getVariant());
        IsolationPlan plan = IsolationPlanner.plan(
                settings.machineCpus(),
                BigDecimal.valueOf(
                        Quantities.cpuCores(spec.getTarget().getResources().getCpu())));
        List<String> notes = new ArrayList<>(plan.notes());
        notes.addAll(clusterOnlySettings(spec));
        if (plan.isolated()) {
            notes.add(
                    pinThisProcess(plan.supportCpus())
                            ? "the stackbench CLI itself (sampling, progress) also runs on " + plan.supportCpus()
                            : "could not move the stackbench CLI off the target's CPUs (taskset failed): it may take a "
                                    + "little CPU time from the target");
        }
        notes.forEach(note -> progress.message("[" + name + "] " + note));

        Instant runStarted = Instant.now();
        BenchmarkRunStatus status = new BenchmarkRunStatus();
        run.setStatus(status);
        status.setObservedGeneration(run.getMetadata().getGeneration());
        status.advancePhase(Phase.Provisioning);
        Map<String, Object> manifest = new LinkedHashMap<>();
        manifest.put("run", name);
        manifest.put("variant", variant.name());
        manifest.put("host", MachineFacts.hostName());
        manifest.put("kernel", MachineFacts.kernel());
        manifest.put("cpuModel", MachineFacts.cpuModel());
        manifest.put("machineCpus", settings.machineCpus().toList());
        manifest.put("targetCpus", plan.targetCpus().toList());
        manifest.put(
                "supportCpus (k6, PostgreSQL, delay service)",
                plan.supportCpus().toList());
        manifest.put("targetActiveProcessorCount", plan.activeProcessorCount());
        manifest.put("isolated", plan.isolated());
        manifest.put("isolationNotes", notes);
        manifest.put("spec", spec);
        MachineFacts.loadAverage().ifPresent(load -> manifest.put("loadAverageBefore", load));

        List<Long> pids = new ArrayList<>();
        RunObservation observation = null;
        try (ProcessSupervisor supervisor = new ProcessSupervisor()) {
            try {
                Files.createDirectories(files.dir());
                Files.writeString(files.spec(), BenchmarkRuns.toYaml(withoutStatus(run)));
                K6Script script = writeK6Script(spec, files, customModule);
                observation =
                        provisionAndLoad(runStarted, run, variant, plan, files, supervisor, status, manifest, script);
                status.advancePhase(Phase.Collecting);
                RunSummary summary = core.summarize(spec, variant, files.k6Summary(), observation);
                flagLoadGenerator(summary, observation, plan);
                missedScrapesWarning(observation).ifPresent(summary::addWarning);
                status.setSummary(summary);
                Conditions.set(
                        status.conditionsForUpdate(),
                        Conditions.RESULTS_COLLECTED,
                        true,
                        "Aggregated",
                        "k6 summary and " + observation.scrapes().size() + " target scrapes aggregated",
                        status.getObservedGeneration(),
                        Instant.now());
                boolean thresholdsPassed = !Boolean.FALSE.equals(summary.getThresholdsPassed());
                Conditions.set(
                        status.conditionsForUpdate(),
                        Conditions.THRESHOLDS_PASSED,
                        thresholdsPassed,
                        thresholdsPassed ? "ThresholdsPassed" : "ThresholdsFailed",
                        thresholdsPassed ? "every threshold passed" : "at least one threshold failed",
                        status.getObservedGeneration(),
                        Instant.now());
                status.advancePhase(Phase.Succeeded);
                status.setMessage("measured " + summary.getRequests() + " requests in "
                        + Durations.format(Durations.parse(spec.getWorkload().getDuration())));
            } catch (LocalRunException | UncheckedIOException | IOException e) {
                fail(status, ProcessSupervisor.interrupted() ? INTERRUPTED : e.getMessage());
            } catch (RuntimeException e) {
                fail(status, ProcessSupervisor.interrupted() ? INTERRUPTED : "local run failed unexpectedly: " + e);
            } finally {
                pids.addAll(supervisor.startedPids());
                progress.finish();
            }
        }
        if (plan.isolated()) {
            // Give this JVM its CPUs back: an embedding process (a test JVM) and what it starts next keep them.
            pinThisProcess(settings.machineCpus());
        }
        status.setFinishedAt(Conditions.format(Instant.now()));
        Conditions.set(
                status.conditionsForUpdate(),
                Conditions.COMPLETE,
                true,
                status.getPhase().name(),
                status.getMessage(),
                status.getObservedGeneration(),
                Instant.now());
        MachineFacts.loadAverage().ifPresent(load -> manifest.put("loadAverageAfter", load));
        if (manifest.get("postgresPid") instanceof Long postgresPid) {
            pids.add(postgresPid);
        }
        manifest.put("startedPids", pids);
        status.setEnvironment(environment(spec, variant, plan, manifest));
        writeJson(files.status(), status);
        writeJson(files.environment(), manifest);
        return new Result(run, report(run, observation, notes, manifest), pids);
    }

    private RunObservation provisionAndLoad(
            Instant runStarted,
            BenchmarkRun run,
            CoreBindings.Variant variant,
            IsolationPlan plan,
            ResultsLayout.RunFiles files,
            ProcessSupervisor supervisor,
            BenchmarkRunStatus status,
            Map<String, Object> manifest,
            K6Script script)
            throws IOException {
        BenchmarkRunSpec spec = run.getSpec();
        String name = run.getMetadata().getName();
        FreePorts ports = new FreePorts();
        progress.message("[" + name + "] starting PostgreSQL, the delay service and " + variant.name());

        LocalPostgres postgres = startPostgres(plan, files);
        supervisor.register(postgres);
        manifest.put("postgresVersion", postgres.serverVersion());
        manifest.put("postgresPid", postgres.pid());
        if (settings.keep()) {
            manifest.put("postgresDataDir", postgres.dataDir().toString());
            progress.message("[" + name + "] PostgreSQL data directory (kept after the run): " + postgres.dataDir());
        }

        int delayPort = ports.next();
        int delayManagementPort = ports.next();
        Map<String, String> delayEnv = Map.of(
                "PORT",
                Integer.toString(delayPort),
                "MANAGEMENT_PORT",
                Integer.toString(delayManagementPort),
                "BIND_ADDRESS",
                "127.0.0.1");
        JavaProcessSpec delaySpec = JavaProcessSpec.of(
                settings.javaBin(),
                jar(core.delayServiceJar()),
                plan.supportCpus().size(),
                512L << 20,
                null,
                delayEnv,
                List.of());
        ManagedProcess delay = supervisor.start(
                "delay service",
                delaySpec.command(),
                delaySpec.environment(),
                plan.supportCpus(),
                files.delayServiceLog());

        int targetPort = ports.next();
        int targetManagementPort = ports.next();
        Map<String, String> targetEnv = new LinkedHashMap<>();
        targetEnv.put("PORT", Integer.toString(targetPort));
        targetEnv.put("MANAGEMENT_PORT", Integer.toString(targetManagementPort));
        targetEnv.put("BIND_ADDRESS", "127.0.0.1");
        targetEnv.put("DB_HOST", postgres.host());
        targetEnv.put("DB_PORT", Integer.toString(postgres.port()));
        targetEnv.put("DB_NAME", postgres.database());
        targetEnv.put("DB_USER", postgres.user());
        targetEnv.put("DB_PASSWORD", postgres.password());
        targetEnv.put("DELAY_SERVICE_URL", "http://127.0.0.1:" + delayPort);
        targetEnv.put("SPRING_PROFILES_ACTIVE", variant.profile());
        if (spec.getTarget().getEnv() != null) {
            targetEnv.putAll(spec.getTarget().getEnv());
        }
        JavaProcessSpec targetSpec = JavaProcessSpec.of(
                settings.javaBin(),
                jar(variant.jar()),
                plan.activeProcessorCount(),
                Quantities.memoryBytes(spec.getTarget().getResources().getMemory()),
                spec.getTarget().getJvmOptions(),
                targetEnv,
                List.of());
        ManagedProcess target = supervisor.start(
                "target " + variant.name(),
                targetSpec.command(),
                targetSpec.environment(),
                plan.targetCpus(),
                files.targetLog());
        manifest.put("targetCommand", String.join(" ", target.command()));
        manifest.put("targetPid", target.pid());
        manifest.put("delayServicePid", delay.pid());

        ServiceProbe.awaitHealthy(
                delay,
                URI.create("http://127.0.0.1:" + delayManagementPort + "/actuator/health"),
                settings.startTimeout());
        ServiceProbe.awaitHealthy(
                target,
                URI.create("http://127.0.0.1:" + targetManagementPort + "/actuator/health"),
                settings.startTimeout());
        Conditions.set(
                status.conditionsForUpdate(),
                Conditions.TARGET_READY,
                true,
                "Healthy",
                variant.name() + " answers on 127.0.0.1:" + targetPort,
                status.getObservedGeneration(),
                Instant.now());
        ServiceProbe.get(URI.create("http://127.0.0.1:" + targetManagementPort + "/actuator/info"))
                .ifPresent(info -> manifest.put("targetInfo", ActuatorInfo.parse(info)));
        manifest.put("threadPoolSize", variant.poolThreads(plan.activeProcessorCount(), targetEnv));

        String baseUrl = "http://127.0.0.1:" + targetPort;
        int k6ApiPort = ports.next();
        List<String> k6Command = List.of(
                settings.k6Binary().toString(),
                "run",
                "--quiet",
                "--no-color",
                "--address",
                "127.0.0.1:" + k6ApiPort,
                "--out",
                "csv=" + files.k6Requests(),
                files.k6Script().toString());
        Map<String, String> k6Env = new LinkedHashMap<>(core.k6Environment(baseUrl, files.k6Summary()));
        k6Env.put("K6_NO_USAGE_REPORT", "true");
        manifest.put("k6Command", String.join(" ", k6Command));
        manifest.put("k6Version", K6Version.of(settings.k6Binary()));

        MetricsSampler sampler = new MetricsSampler(
                URI.create("http://127.0.0.1:" + targetManagementPort + "/actuator/prometheus"),
                target.process().toHandle());
        K6CsvFollower follower = new K6CsvFollower(files.k6Requests());
        Duration warmup = script.warmup();
        Duration planned = warmup.plus(script.measured());
        // spec.timeout bounds the whole run, as on a cluster; k6 gets what is left of it after provisioning.
        Duration timeout = Durations.parse(spec.getTimeout());
        Duration leftOfTimeout = timeout.minus(Duration.between(runStarted, Instant.now()));
        Duration limit = script.expectedMaxRunTime().plus(K6_OVERRUN);
        if (leftOfTimeout.compareTo(limit) < 0) {
            limit = leftOfTimeout;
        }

        status.setStartedAt(Conditions.format(Instant.now()));
        status.advancePhase(warmup.isZero() ? Phase.Running : Phase.WarmingUp);
        sampler.start();
        ManagedProcess k6 = supervisor.start("k6", k6Command, k6Env, plan.supportCpus(), files.k6Log());
        sampler.watchLoadGenerator(k6.process().toHandle());
        Conditions.set(
                status.conditionsForUpdate(),
                Conditions.LOAD_RUNNING,
                true,
                "K6Started",
                "k6 offers load to " + baseUrl,
                status.getObservedGeneration(),
                Instant.now());
        Instant loadStarted = Instant.now();
        int exitCode;
        try {
            exitCode = followUntilDone(name, k6, follower, loadStarted, warmup, planned, limit, status);
        } finally {
            sampler.close();
        }
        follower.poll();
        Conditions.set(
                status.conditionsForUpdate(),
                Conditions.LOAD_RUNNING,
                false,
                "K6Finished",
                "k6 exited with code " + exitCode,
                status.getObservedGeneration(),
                Instant.now());
        if (!Files.exists(files.k6Summary())) {
            throw new LocalRunException("k6 exited with code " + exitCode + " and wrote no summary; last lines of "
                    + files.k6Log() + ":\n" + ServiceProbe.tail(files.k6Log(), 25));
        }
        RequestTimeline measure = follower.timeline(core.measureScenario());
        Instant windowStart =
                measure.isEmpty() ? loadStarted.plus(warmup) : Instant.ofEpochSecond(measure.firstEpochSecond());
        Instant windowEnd = measure.isEmpty()
                ? Instant.now()
                : Instant.ofEpochSecond(
                        measure.firstEpochSecond() + measure.points().size());
        List<MetricsSampler.Tick> ticks = sampler.ticks();
        writeScrapes(files.scrapes(), ticks);
        List<MetricsSampler.Tick> inWindow = ticks.stream()
                .filter(tick -> !tick.at().isBefore(windowStart) && !tick.at().isAfter(windowEnd))
                .toList();
        RunObservation observation = new RunObservation(
                exitCode,
                measure,
                inWindow,
                windowStart,
                windowEnd,
                variant.poolThreads(plan.activeProcessorCount(), targetEnv));
        writeTimeline(files.timeline(), measure);
        writeMetrics(files.metrics(), observation);
        return observation;
    }

    /** The generated script, and for scenario custom the user's module beside it, written before anything starts. */
    private K6Script writeK6Script(BenchmarkRunSpec spec, ResultsLayout.RunFiles files, String customModule)
            throws IOException {
        String customImport = null;
        if (customModule != null) {
            Files.writeString(files.customModule(), customModule);
            customImport = "./" + files.customModule().getFileName();
        }
        K6Script script = core.k6Script(spec, customImport);
        Files.writeString(files.k6Script(), script.text());
        return script;
    }

    private int followUntilDone(
            String name,
            ManagedProcess k6,
            K6CsvFollower follower,
            Instant started,
            Duration warmupDuration,
            Duration planned,
            Duration limit,
            BenchmarkRunStatus status)
            throws IOException {
        while (true) {
            try {
                if (k6.process().waitFor(1, java.util.concurrent.TimeUnit.SECONDS)) {
                    return k6.process().exitValue();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LocalRunException("interrupted while k6 was running");
            }
            follower.poll();
            Duration sinceStart = Duration.between(started, Instant.now());
            RequestTimeline measure = follower.timeline(core.measureScenario());
            RequestTimeline warmup = follower.timeline(core.warmupScenario());
            // k6 first sets up its VUs (seconds on a busy CPU); the test clock starts with its first sample.
            long firstSample = warmup.isEmpty() ? measure.firstEpochSecond() : warmup.firstEpochSecond();
            Duration elapsed = firstSample < 0
                    ? Duration.ZERO
                    : Duration.between(Instant.ofEpochSecond(firstSample), Instant.now());
            boolean measuring = firstSample >= 0 && elapsed.compareTo(warmupDuration) >= 0;
            if (measuring) {
                status.advancePhase(Phase.Running);
            }
            // k6 writes its per-request output about once a second: the second before last is complete.
            long latestSecond = Instant.now().getEpochSecond() - 2;
            // After the planned end k6 waits (graceful stop) for requests still in flight.
            String phase = firstSample < 0
                    ? "starting"
                    : elapsed.compareTo(planned) > 0 ? "finishing" : measuring ? "measure" : "warmup";
            progress.show(new ProgressPrinter.Progress(
                    name,
                    phase,
                    elapsed,
                    planned,
                    warmup.requestsAt(latestSecond) + measure.requestsAt(latestSecond),
                    warmup.totalRequests() + measure.totalRequests(),
                    warmup.totalFailed() + measure.totalFailed(),
                    warmup.totalDropped() + measure.totalDropped()));
            if (sinceStart.compareTo(limit) > 0) {
                throw new LocalRunException("k6 was still running after " + Durations.format(limit)
                        + " (planned: " + Durations.format(planned) + " plus graceful stop, within spec.timeout); "
                        + "stopped it. Raise spec.timeout or shorten the run; see " + k6.logFile());
            }
        }
    }

    /**
     * Moves this JVM (sampler, k6 output follower, progress) off the target's CPUs, so the tool that measures the
     * target does not take CPU time from it.
     */
    private static boolean pinThisProcess(CpuSet cpus) {
        try {
            Process taskset = new ProcessBuilder(
                            "taskset",
                            "-a",
                            "-p",
                            "-c",
                            cpus.toList(),
                            Long.toString(ProcessHandle.current().pid()))
                    .redirectErrorStream(true)
                    .start();
            taskset.getInputStream().readAllBytes();
            return taskset.waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
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
                && spec.getBackend().getDatabase().getHost() != null) {
            notes.add("local mode starts its own PostgreSQL: spec.backend.database.host "
                    + spec.getBackend().getDatabase().getHost() + " is not used");
        }
        return notes;
    }

    private LocalPostgres startPostgres(IsolationPlan plan, ResultsLayout.RunFiles files) {
        try {
            return LocalPostgres.builder()
                    .cpus(plan.supportCpus().toList())
                    .keepDataDir(settings.keep())
                    .start();
        } catch (RuntimeException e) {
            throw new LocalRunException(
                    "could not start PostgreSQL: " + e.getMessage()
                            + " (run hack/setup.sh postgres, or set STACKBENCH_PG_BIN to the directory with initdb and"
                            + " pg_ctl)",
                    e);
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

    /**
     * Warns loudly when k6 did not offer the load the spec asked for: then the figures describe the generator (or
     * its VU limit), not the target.
     */
    private static void flagLoadGenerator(RunSummary summary, RunObservation observation, IsolationPlan plan) {
        double k6Cores = observation.averageLoadGeneratorCores();
        double k6Share = k6Cores / plan.supportCpus().size();
        long dropped = summary.getDroppedIterations() == null ? 0 : summary.getDroppedIterations();
        String alarm = loadGeneratorAlarm(dropped, k6Cores, k6Share);
        if (alarm != null
                && (summary.getWarnings() == null || !summary.getWarnings().contains(alarm))) {
            summary.addWarning(alarm);
        }
    }

    /** A target too busy to answer its metrics endpoint is itself a finding, and explains missing figures. */
    static java.util.Optional<String> missedScrapesWarning(RunObservation observation) {
        long missed = observation.ticks().stream()
                .filter(tick -> tick.scrape() == null)
                .count();
        if (missed == 0) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(String.format(
                Locale.ROOT,
                "%d of %d once-a-second scrapes of the target's "
                        + "/actuator/prometheus got no answer within 2 s: the target was too busy to serve its metrics, so "
                        + "thread, heap and pool figures cover only the answered scrapes",
                missed,
                observation.ticks().size()));
    }

    static String loadGeneratorAlarm(long dropped, double k6Cores, double k6Share) {
        List<String> reasons = new ArrayList<>();
        if (k6Share >= GENERATOR_CPU_ALARM) {
            reasons.add(String.format(
                    Locale.ROOT, "k6 used %.2f CPU (%.0f%% of the CPUs it may use)", k6Cores, 100 * k6Share));
        }
        if (dropped > 0) {
            reasons.add(dropped + " iterations dropped");
        }
        if (reasons.isEmpty()) {
            return null;
        }
        return "k6 could not generate the requested rate (" + String.join(", ", reasons) + "): this result "
                + (k6Share >= GENERATOR_CPU_ALARM
                        ? "measures the load generator, not the target"
                        : "is for a lower load than requested (k6 ran out of VUs while responses were slow)");
    }

    private RunEnvironment environment(
            BenchmarkRunSpec spec, CoreBindings.Variant variant, IsolationPlan plan, Map<String, Object> manifest) {
        RunEnvironment environment = new RunEnvironment();
        environment.setMode("local");
        environment.setVariant(variant.name());
        environment.setNodeNames(List.of(MachineFacts.hostName()));
        environment.setCpuLimit(spec.getTarget().getResources().getCpu());
        environment.setMemoryLimit(spec.getTarget().getResources().getMemory());
        environment.setCpuSet(plan.targetCpus().toList());
        environment.setJvmOptions(spec.getTarget().getJvmOptions());
        environment.setParallelism(1);
        if (manifest.get("targetInfo") instanceof ActuatorInfo info) {
            environment.setJavaVersion(info.javaVersion());
            environment.setSpringBootVersion(info.springBootVersion());
        }
        if (manifest.get("threadPoolSize") instanceof Integer size) {
            environment.setThreadPoolSize(size);
        }
        if (manifest.get("k6Version") instanceof String version) {
            environment.setK6Version(version);
        }
        Map<String, String> images = new LinkedHashMap<>();
        images.put("target", variant.jar());
        images.put("delay-service", core.delayServiceJar());
        images.put("postgres", String.valueOf(manifest.getOrDefault("postgresVersion", "unknown")));
        environment.setImages(images);
        return environment;
    }

    private ReportRun report(
            BenchmarkRun run, RunObservation observation, List<String> notes, Map<String, Object> manifest) {
        List<RequestTimeline.Point> points =
                observation == null ? List.of() : observation.measure().points();
        List<GaugePoint> threads = new ArrayList<>();
        List<GaugePoint> targetCpu = new ArrayList<>();
        List<GaugePoint> k6Cpu = new ArrayList<>();
        if (observation != null) {
            for (MetricsSampler.Tick tick : observation.ticks()) {
                double second = observation.secondsIntoWindow(tick.at());
                if (tick.scrape() != null) {
                    core.liveThreads(tick.scrape()).ifPresent(value -> threads.add(new GaugePoint(second, value)));
                }
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
                manifest,
                BenchmarkRuns.toYaml(withoutStatus(run)),
                Durations.seconds(Durations.parse(run.getSpec().getWorkload().getDuration())));
    }

    private static void fail(BenchmarkRunStatus status, String message) {
        status.advancePhase(Phase.Failed);
        status.setMessage(message);
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

    private static void writeScrapes(Path file, List<MetricsSampler.Tick> ticks) throws IOException {
        StringBuilder text = new StringBuilder();
        for (MetricsSampler.Tick tick : ticks) {
            if (tick.scrape() != null) {
                text.append("# scraped at ")
                        .append(tick.at())
                        .append('\n')
                        .append(tick.scrape())
                        .append('\n');
            }
        }
        Files.writeString(file, text);
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
        StringBuilder csv = new StringBuilder("second,target_cpu_cores,k6_cpu_cores,live_threads\n");
        for (MetricsSampler.Tick tick : observation.ticks()) {
            String threads = tick.scrape() == null
                    ? ""
                    : core.liveThreads(tick.scrape())
                            .map(value -> String.format(Locale.ROOT, "%.0f", value))
                            .orElse("");
            csv.append(String.format(
                    Locale.ROOT,
                    "%.1f,%.3f,%.3f,%s%n",
                    observation.secondsIntoWindow(tick.at()),
                    tick.targetCores(),
                    tick.loadGeneratorCores(),
                    threads));
        }
        Files.writeString(file, csv);
    }
}
