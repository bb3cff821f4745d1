package dev.stackbench.results;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.Durations;
import dev.stackbench.api.Quantities;
import dev.stackbench.api.run.BenchmarkRunDefaults;
import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.run.Executor;
import dev.stackbench.api.run.LoadSpec;
import dev.stackbench.api.run.Scenario;
import dev.stackbench.api.run.WorkloadSpec;
import dev.stackbench.api.status.LimitedBy;
import dev.stackbench.api.status.PodResources;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.api.status.TargetSummary;
import dev.stackbench.catalogue.ThreadPool;
import dev.stackbench.catalogue.VariantCatalogue;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * Gathers what {@link LimitingResource} reads from a finished load's summary, its spec and the variant catalogue, the
 * same way in both modes: local mode and the operator call it once the summary holds everything they measured.
 */
public final class LimitEvidence {

    /** The role of the database pod among status.summary.pods. */
    static final String DATABASE_ROLE = "database";

    private LimitEvidence() {}

    /** The role of the delay service pod among status.summary.pods. */
    static final String DELAY_SERVICE_ROLE = "delay-service";

    /** The scenarios that query PostgreSQL. */
    private static final Set<Scenario> DATABASE_SCENARIOS =
            EnumSet.of(Scenario.DB, Scenario.MIXED, Scenario.ROWS, Scenario.ORDERS, Scenario.LOCK);

    /** Judges a cluster run's summary (its pods' CPU in summary.pods) into summary.limitedBy; returns the verdict. */
    public static LimitedBy judge(
            RunSummary summary,
            BenchmarkRunSpec originalSpec,
            VariantCatalogue catalogue,
            GeneratorCheck.Judgement generator) {
        return judge(summary, originalSpec, catalogue, generator, LocalCpus.NONE);
    }

    /**
     * The busy shares of a local run's CPU sets, by every process on them; NaN where not measured.
     *
     * @param backend the CPUs the delay service and PostgreSQL run on (with k6)
     * @param target the CPUs the target runs on
     */
    public record LocalCpus(double backend, double target) {

        static final LocalCpus NONE = new LocalCpus(Double.NaN, Double.NaN);
    }

    /** Judges a local run's summary into summary.limitedBy; returns the verdict. */
    public static LimitedBy judge(
            RunSummary summary,
            BenchmarkRunSpec originalSpec,
            VariantCatalogue catalogue,
            GeneratorCheck.Judgement generator,
            LocalCpus cpus) {
        LimitedBy verdict = LimitingResource.classify(observe(summary, originalSpec, catalogue, generator, cpus));
        summary.setLimitedBy(verdict);
        return verdict;
    }

    static LimitingResource.Observed observe(
            RunSummary summary,
            BenchmarkRunSpec originalSpec,
            VariantCatalogue catalogue,
            GeneratorCheck.Judgement generator,
            LocalCpus localCpus) {
        BenchmarkRunSpec spec = BenchmarkRunDefaults.apply(
                BenchmarkRuns.yamlMapper().convertValue(originalSpec, BenchmarkRunSpec.class));
        WorkloadSpec workload = spec.getWorkload();
        LoadSpec load = workload.getLoad();
        double cpus = Quantities.cpuCores(spec.getTarget().getResources().getCpu());
        TargetSummary target = summary.getTarget() == null ? new TargetSummary() : summary.getTarget();
        Optional<PodResources> database = pod(summary, DATABASE_ROLE);
        Optional<PodResources> upstream = pod(summary, DELAY_SERVICE_ROLE);
        Scenario scenario = workload.getScenario();
        long dropped = summary.getDroppedIterations() == null ? 0 : summary.getDroppedIterations();
        return new LimitingResource.Observed(
                generatorFinding(generator, false),
                generatorFinding(generator, true),
                offeredRps(summary, load),
                load.getExecutor() == Executor.CONSTANT_VUS ? load.getVus() : null,
                summary.getRps() == null ? 0 : summary.getRps(),
                dropped,
                summary.getLatencyMs() == null ? null : summary.getLatencyMs().getP50(),
                pool(spec, catalogue, cpus),
                target.getPeakPoolThreads(),
                target.getPoolAtPeakShare(),
                target.getDbPoolPendingShare(),
                target.getPeakDbPoolPending(),
                dbCap(workload, spec),
                target.getAvgCpuCores(),
                cpus,
                target.getCpuThrottledRatio(),
                target.getGcPauseMs(),
                summary.getMeasuredSeconds(),
                database.map(PodResources::getAvgCpuCores).orElse(null),
                database.map(PodResources::getCpuLimitCores).orElse(null),
                upstream.map(PodResources::getAvgCpuCores).orElse(null),
                upstream.map(PodResources::getCpuLimitCores).orElse(null),
                measured(localCpus.backend()),
                measured(localCpus.target()),
                scenario != null && scenario.callsUpstream(),
                DATABASE_SCENARIOS.contains(scenario),
                burst(summary));
    }

    /** A burst's size and makespan, when the summary has them. */
    private static LimitingResource.Burst burst(RunSummary summary) {
        var burst = summary.getBurst();
        if (burst == null || burst.getPlannedRequests() == null || burst.getMakespanMs() == null) {
            return null;
        }
        return new LimitingResource.Burst(burst.getPlannedRequests(), burst.getMakespanMs());
    }

    private static Double measured(double share) {
        return Double.isNaN(share) ? null : share;
    }

    /** The first pod of the role with a CPU figure (cluster mode). */
    private static Optional<PodResources> pod(RunSummary summary, String role) {
        return summary.getPods() == null
                ? Optional.empty()
                : summary.getPods().stream()
                        .filter(pod -> role.equals(pod.getRole()) && pod.getAvgCpuCores() != null)
                        .findFirst();
    }

    /**
     * The generator check's finding when it judged k6 saturated or throttled ({@code sharedCpusOnly} false) or only the
     * CPUs it shares busy (true); dropped iterations alone are the target's slowness seen from k6, not a finding here.
     */
    private static Optional<String> generatorFinding(GeneratorCheck.Judgement generator, boolean sharedCpusOnly) {
        return generator == null
                ? Optional.empty()
                : generator
                        .finding()
                        .filter(finding -> !GeneratorCheck.ITERATIONS_DROPPED.equals(finding.reason()))
                        .filter(finding -> finding.sharedCpusOnly() == sharedCpusOnly)
                        .map(GeneratorCheck.Finding::message);
    }

    /** The open model's requests per second: the rate times the requests one iteration makes. */
    private static Double offeredRps(RunSummary summary, LoadSpec load) {
        if (load.getExecutor() != Executor.CONSTANT_ARRIVAL_RATE || load.getRate() == null) {
            return null;
        }
        double perIteration = summary.getIterations() != null && summary.getIterations() > 0
                ? summary.getRequests() / (double) summary.getIterations()
                : 1;
        return (double) load.getRate() * Math.max(1, Math.round(perIteration));
    }

    private static LimitingResource.Pool pool(BenchmarkRunSpec spec, VariantCatalogue catalogue, double cpus) {
        String variant = spec.getTarget().getVariant();
        if (catalogue == null || variant == null || catalogue.find(variant).isEmpty()) {
            return null;
        }
        ThreadPool pool = catalogue.find(variant).get().threadPool();
        int size = pool.threads(cpus, spec.getTarget().getEnv());
        Optional<Duration> wait = catalogue.nominalServiceTime(variant, spec.getWorkload());
        Double seconds = wait.map(Durations::seconds).filter(s -> s > 0).orElse(null);
        return new LimitingResource.Pool(
                pool.name(),
                size,
                catalogue.isThreadBound(variant, spec.getWorkload().getScenario()),
                seconds == null ? null : size / seconds,
                seconds);
    }

    /** Connections / database sleep, when the scenario sleeps in the database. */
    private static Double dbCap(WorkloadSpec workload, BenchmarkRunSpec spec) {
        if (workload.getScenario() == null
                || !workload.getScenario().sleepsInDatabase()
                || workload.getDbSleep() == null) {
            return null;
        }
        double sleep = Durations.seconds(Durations.parse(workload.getDbSleep()));
        return sleep > 0 ? VariantCatalogue.dbPoolSize(spec.getTarget().getEnv()) / sleep : null;
    }
}
