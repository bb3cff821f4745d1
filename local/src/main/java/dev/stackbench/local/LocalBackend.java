package dev.stackbench.local;

import dev.stackbench.api.Quantities;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.model.AppWiring;
import dev.stackbench.model.RunApps;
import dev.stackbench.model.SpringApp;
import dev.stackbench.postgres.LocalPostgres;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * PostgreSQL and the delay service, started once for the repetitions of a comparison and shared by their runs, on
 * the CPUs the runs give to them. Each run's target resets the database's schema and data when it starts (as on a
 * cluster with a shared database), so every repetition still begins from the same state; the delay service keeps no
 * state between requests. {@link #close} stops both.
 */
public final class LocalBackend implements AutoCloseable {

    private final ProcessSupervisor supervisor;
    private final LocalPostgres postgres;
    private final ManagedProcess delayService;
    private final SpringApp delayApp;
    /** The verification of each (spec, target jar) a repetition already verified, by what it verified. */
    private final java.util.Map<String, Verified> verified = new java.util.concurrent.ConcurrentHashMap<>();

    /** A verification one repetition made, which later repetitions of the same spec and jar reuse. */
    record Verified(String run, dev.stackbench.api.status.VerificationResult result) {}

    private LocalBackend(
            ProcessSupervisor supervisor, LocalPostgres postgres, ManagedProcess delayService, SpringApp delayApp) {
        this.supervisor = supervisor;
        this.postgres = postgres;
        this.delayService = delayService;
        this.delayApp = delayApp;
    }

    /**
     * The verification an earlier repetition made of the same work: the same spec (apart from the run's name) against
     * the same target jar, so the same code sending the same requests; its counts stand for this repetition too.
     */
    java.util.Optional<Verified> verifiedBefore(String key) {
        return java.util.Optional.ofNullable(verified.get(key));
    }

    /** Keeps a repetition's verification for the later repetitions of the same spec and jar. */
    void verifiedNow(String key, String run, dev.stackbench.api.status.VerificationResult result) {
        verified.putIfAbsent(key, new Verified(run, result));
    }

    /**
     * Starts the PostgreSQL and delay service the repetitions of a comparison share, sized and placed as for
     * {@code first} (every repetition has the template's backend and CPUs), logging into {@code dir}.
     */
    static LocalBackend start(
            BenchmarkRun first,
            Path dir,
            LocalRunner.Settings settings,
            VariantCatalogue catalogue,
            SpringAppLauncher launcher,
            Consumer<String> say)
            throws IOException {
        IsolationPlan plan = IsolationPlanner.plan(
                settings.machineCpus(),
                BigDecimal.valueOf(Quantities.cpuCores(
                        first.getSpec().getTarget().getResources().getCpu())));
        ProcessSupervisor supervisor = new ProcessSupervisor(plan.supportCpus());
        try {
            LocalPostgres postgres = startPostgres(plan, settings.keep());
            supervisor.register(postgres);
            FreePorts ports = new FreePorts();
            AppWiring.Endpoint delayEndpoint = new AppWiring.Endpoint(AppWiring.LOOPBACK, ports.next(), ports.next());
            SpringApp delayApp =
                    RunApps.delayService(first.getSpec(), wiring(delayEndpoint, delayEndpoint, postgres, true));
            ManagedProcess delayService = launcher.start(
                    supervisor,
                    new SpringAppLauncher.Launch(
                            "delay service",
                            catalogue.delayService().jar(),
                            delayApp,
                            delayApp.environment(),
                            plan.supportCpus(),
                            dir.resolve("delay-service.log")),
                    say);
            launcher.awaitHealthy(delayService, delayApp);
            return new LocalBackend(supervisor, postgres, delayService, delayApp);
        } catch (IOException | RuntimeException e) {
            supervisor.close();
            throw e;
        }
    }

    /** PostgreSQL on the CPUs the target does not use, with the reason it could not start said in full. */
    static LocalPostgres startPostgres(IsolationPlan plan, boolean keepDataDir) {
        try {
            return LocalPostgres.builder()
                    .cpus(plan.supportCpus().toList())
                    .keepDataDir(keepDataDir)
                    .start();
        } catch (RuntimeException e) {
            throw new LocalRunException(
                    RunProgress.TARGET_NOT_READY,
                    "could not start PostgreSQL: " + e.getMessage()
                            + " (run hack/setup.sh postgres, or set STACKBENCH_PG_BIN to the directory with initdb"
                            + " and pg_ctl)");
        }
    }

    /** How the apps of a run find each other and the database on 127.0.0.1. */
    static AppWiring wiring(
            AppWiring.Endpoint target, AppWiring.Endpoint delay, LocalPostgres postgres, boolean sharedDatabase) {
        return new AppWiring(
                target,
                delay,
                "http://" + AppWiring.LOOPBACK + ":" + delay.httpPort(),
                new AppWiring.Database(postgres.host(), postgres.port(), postgres.database(), sharedDatabase));
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

    LocalPostgres postgres() {
        return postgres;
    }

    ManagedProcess delayService() {
        return delayService;
    }

    SpringApp delayApp() {
        return delayApp;
    }

    void requireAlive() {
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
