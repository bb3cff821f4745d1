package dev.stackbench.local;

import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.model.AppWiring;
import dev.stackbench.model.RunApps;
import dev.stackbench.model.SpringApp;
import dev.stackbench.postgres.LocalPostgres;
import dev.stackbench.results.ActuatorInfo;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * PostgreSQL, the delay service and the target of one run as processes on 127.0.0.1 (in a comparison, the target
 * only, against the comparison's PostgreSQL and delay service). What it started stays known when a later start
 * fails, so the manifest shows how far the run got.
 */
final class TargetStack {

    private final LocalRun.Tools tools;
    private final BenchmarkRunSpec spec;
    private final TargetVariant variant;
    private final IsolationPlan plan;
    private final LocalBackend backend;
    private final RunProgress progress;
    private final Consumer<String> say;

    private LocalPostgres postgres;
    private ManagedProcess delayService;
    private SpringApp delayApp;
    private SpringApp targetApp;
    private SpringAppLauncher.Launch targetLaunch;
    private ManagedProcess target;
    private ActuatorInfo targetInfo;

    /** @param backend the comparison's PostgreSQL and delay service, or null for a run that starts its own */
    TargetStack(
            LocalRun.Tools tools,
            BenchmarkRunSpec spec,
            TargetVariant variant,
            IsolationPlan plan,
            LocalBackend backend,
            RunProgress progress,
            Consumer<String> say) {
        this.tools = tools;
        this.spec = spec;
        this.variant = variant;
        this.plan = plan;
        this.backend = backend;
        this.progress = progress;
        this.say = say;
    }

    /**
     * Starts PostgreSQL, the delay service and the target, without waiting for them to answer: k6 can get ready
     * meanwhile. Returns the target's base URL.
     */
    String start(ProcessSupervisor supervisor, ResultsLayout.RunFiles files, FreePorts ports) throws IOException {
        AppWiring.Endpoint targetEndpoint = new AppWiring.Endpoint(AppWiring.LOOPBACK, ports.next(), ports.next());
        if (backend != null) {
            backend.requireAlive();
            say.accept("starting " + variant.name() + " against the comparison's PostgreSQL and delay service");
            postgres = backend.postgres();
            delayService = backend.delayService();
            delayApp = backend.delayApp();
        } else {
            say.accept("starting PostgreSQL, the delay service and " + variant.name());
            try {
                postgres = LocalBackend.startPostgres(plan, tools.settings().keep());
            } catch (LocalRunException e) {
                progress.targetNotReady(e.getMessage());
                throw e;
            }
            supervisor.register(postgres);
            if (tools.settings().keep()) {
                say.accept("PostgreSQL data directory (kept after the run): " + postgres.dataDir());
            }
            AppWiring.Endpoint delayEndpoint = new AppWiring.Endpoint(AppWiring.LOOPBACK, ports.next(), ports.next());
            delayApp = RunApps.delayService(spec, LocalBackend.wiring(targetEndpoint, delayEndpoint, postgres, false));
            delayService = tools.launcher()
                    .start(
                            supervisor,
                            new SpringAppLauncher.Launch(
                                    "delay service",
                                    tools.catalogue().delayService().jar(),
                                    delayApp,
                                    delayApp.environment(),
                                    plan.supportCpus(),
                                    files.delayServiceLog()),
                            say);
        }
        AppWiring wiring = LocalBackend.wiring(targetEndpoint, delayApp.endpoint(), postgres, backend != null);

        targetApp = RunApps.target(spec, tools.catalogue(), wiring);
        Map<String, String> environment = new LinkedHashMap<>(targetApp.environment());
        // Locally the credentials are plain variables; on a cluster they come from a Secret.
        environment.put(SpringApp.DB_USER_ENV, postgres.user());
        environment.put(SpringApp.DB_PASSWORD_ENV, postgres.password());
        // The JVM starts (and trains its start cache) on every CPU of the run, sized by ActiveProcessorCount
        // all the same, and is pinned to its own CPUs once ready, before any load: startup is not measured.
        CpuSet startCpus = plan.isolated() ? plan.targetCpus().with(plan.supportCpus()) : plan.targetCpus();
        targetLaunch = new SpringAppLauncher.Launch(
                "target " + variant.name(), variant.jar(), targetApp, environment, startCpus, files.targetLog());
        target = tools.launcher().start(supervisor, targetLaunch, say);
        return baseUrl();
    }

    /** Waits for the delay service (unless shared) and the target to answer, then moves the target to its CPUs. */
    void awaitReady() {
        if (backend == null) {
            awaitHealthy(delayService, delayApp);
        }
        awaitTarget();
    }

    /** Reads what the target says of its build (Java and Spring Boot versions). */
    void readTargetInfo() {
        targetInfo = ServiceProbe.get(SpringAppLauncher.managementUri(targetApp, SpringApp.INFO_PATH))
                .map(ActuatorInfo::parse)
                .orElse(null);
    }

    /** Stops the target, for a cold start at the next step; returns its pid. */
    long stopTarget() {
        target.stop(Duration.ofSeconds(20));
        return target.pid();
    }

    /** Starts the target again as it first started, logging into {@code log}, and waits until it is ready. */
    void startTargetAgain(ProcessSupervisor supervisor, Path log) throws IOException {
        targetLaunch = new SpringAppLauncher.Launch(
                targetLaunch.name(),
                targetLaunch.jar(),
                targetLaunch.app(),
                targetLaunch.environment(),
                targetLaunch.cpus(),
                log);
        target = tools.launcher().start(supervisor, targetLaunch, say);
        awaitTarget();
    }

    private void awaitTarget() {
        awaitHealthy(target, targetApp);
        if (!targetLaunch.cpus().equals(plan.targetCpus())) {
            pinTarget(targetLaunch.cpus());
        }
    }

    private void awaitHealthy(ManagedProcess process, SpringApp app) {
        try {
            tools.launcher().awaitHealthy(process, app);
        } catch (LocalRunException e) {
            if (ProcessSupervisor.interrupted()) {
                throw e;
            }
            progress.targetNotReady(e.getMessage());
            throw new LocalRunException(RunProgress.TARGET_NOT_READY, e.getMessage());
        }
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
        say.accept("target " + variant.name() + " started on " + startCpus + " and is now pinned to "
                + plan.targetCpus() + " for the load");
    }

    String baseUrl() {
        return "http://" + AppWiring.LOOPBACK + ":" + targetApp.endpoint().httpPort();
    }

    /** The target's request pool size as configured for this run; null before the target was planned. */
    Integer poolThreads() {
        return targetApp == null ? null : variant.poolThreads(targetApp.activeProcessors(), targetApp.environment());
    }

    LocalPostgres postgres() {
        return postgres;
    }

    ManagedProcess delayService() {
        return delayService;
    }

    SpringApp delayApp() {
        return delayApp;
    }

    SpringApp targetApp() {
        return targetApp;
    }

    ManagedProcess target() {
        return target;
    }

    ActuatorInfo targetInfo() {
        return targetInfo;
    }

    boolean sharesBackend() {
        return backend != null;
    }
}
