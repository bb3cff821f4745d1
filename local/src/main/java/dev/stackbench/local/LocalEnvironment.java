package dev.stackbench.local;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.Durations;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.status.RunEnvironment;
import dev.stackbench.model.RunApps;
import dev.stackbench.postgres.LocalPostgres;
import dev.stackbench.report.GaugePoint;
import dev.stackbench.report.ReportRun;
import dev.stackbench.report.RequestTimeline;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the status's environment, environment.json and the report say about one run, from what the run learned as
 * far as it got.
 */
final class LocalEnvironment {

    /**
     * What one run learned.
     *
     * @param notes what the run said about its settings and this machine before it started anything
     * @param loadAverageBefore the machine's load average before the run, when it can be read
     * @param k6 the last k6 the run prepared, or null when it got no further than provisioning
     * @param k6Version null when no load was sent
     * @param observation the measured window of the load the summary is from, or null when there is none
     * @param pids every process the run started, its own PostgreSQL included
     */
    record Facts(
            BenchmarkRun run,
            TargetVariant variant,
            IsolationPlan plan,
            List<String> notes,
            String loadAverageBefore,
            TargetStack stack,
            K6Process k6,
            String k6Version,
            RunObservation observation,
            List<Long> pids) {}

    private final LocalRun.Tools tools;
    private final Facts facts;
    private final BenchmarkRunSpec spec;

    LocalEnvironment(LocalRun.Tools tools, Facts facts) {
        this.tools = tools;
        this.facts = facts;
        this.spec = facts.run().getSpec();
    }

    /** What the status records: the contract's part from the shared model, the rest from this machine. */
    RunEnvironment environment() {
        TargetStack stack = facts.stack();
        LocalPostgres postgres = stack.postgres();
        Map<String, String> images = new LinkedHashMap<>();
        images.put(RunApps.TARGET, facts.variant().jar());
        images.put(RunApps.DELAY_SERVICE, tools.catalogue().delayService().jar());
        images.put("postgres", postgres == null ? "unknown" : postgres.serverVersion());
        return RunApps.environment(
                spec,
                stack.targetApp(),
                tools.catalogue(),
                new RunApps.Platform(
                        "local",
                        List.of(MachineFacts.hostName()),
                        facts.plan().targetCpus().toList(),
                        1,
                        images,
                        stack.sharesBackend() ? RunEnvironment.DATABASE_COMPARISON : RunEnvironment.DATABASE_OWN,
                        postgres == null ? null : postgres.serverVersion(),
                        facts.k6Version(),
                        stack.targetInfo() == null ? null : stack.targetInfo().javaVersion(),
                        stack.targetInfo() == null ? null : stack.targetInfo().springBootVersion()));
    }

    LocalManifest manifest() {
        TargetStack stack = facts.stack();
        IsolationPlan plan = facts.plan();
        LocalPostgres postgres = stack.postgres();
        ManagedProcess target = stack.target();
        LocalRunner.Settings settings = tools.settings();
        return new LocalManifest(
                facts.run().getMetadata().getName(),
                facts.variant().name(),
                MachineFacts.hostName(),
                MachineFacts.kernel(),
                MachineFacts.cpuModel(),
                settings.machineCpus().toList(),
                plan.targetCpus().toList(),
                plan.supportCpus().toList(),
                plan.activeProcessorCount(),
                plan.isolated(),
                facts.notes(),
                facts.loadAverageBefore(),
                MachineFacts.loadAverage().orElse(null),
                postgres == null ? null : postgres.serverVersion(),
                postgres == null ? null : postgres.pid(),
                settings.keep() && postgres != null ? postgres.dataDir().toString() : null,
                stack.delayService() == null ? null : stack.delayService().pid(),
                target == null ? null : target.pid(),
                target == null ? null : String.join(" ", target.command()),
                stack.targetApp() == null ? null : stack.targetApp().javaToolOptions(),
                stack.targetInfo(),
                stack.poolThreads(),
                facts.k6() == null ? null : String.join(" ", facts.k6().command()),
                facts.k6Version(),
                List.copyOf(facts.pids()),
                spec);
    }

    ReportRun report(LocalManifest manifest) {
        RunObservation observation = facts.observation();
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
                ReportRows.of(facts.run(), observation),
                points,
                threads,
                targetCpu,
                k6Cpu,
                facts.notes(),
                manifest.rows(),
                BenchmarkRuns.toYaml(withoutStatus(facts.run())),
                Durations.seconds(Durations.parse(spec.getWorkload().getDuration())));
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

    /** The run as the user wrote it, with its defaults, for spec.yaml and the report. */
    static BenchmarkRun withoutStatus(BenchmarkRun run) {
        BenchmarkRun copy = new BenchmarkRun();
        copy.setApiVersion(run.getApiVersion());
        copy.setKind(run.getKind());
        copy.setMetadata(run.getMetadata());
        copy.setSpec(run.getSpec());
        return copy;
    }
}
