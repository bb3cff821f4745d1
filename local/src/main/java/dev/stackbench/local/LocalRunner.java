package dev.stackbench.local;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.VerificationResult;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.model.RunApps;
import dev.stackbench.report.ReportRun;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

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

    private final LocalRun.Tools tools;

    public LocalRunner(Settings settings, ProgressPrinter printer, VariantCatalogue catalogue) {
        this.tools = new LocalRun.Tools(
                settings,
                catalogue,
                new SpringAppLauncher(settings),
                printer,
                K6Version.hasStackbenchOutput(settings.k6Binary()));
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
        return new LocalRun(tools, run, files, customModule, null).execute();
    }

    /**
     * Runs one repetition of a comparison against the comparison's PostgreSQL and delay service; the target resets
     * the database when it starts.
     */
    public Result run(BenchmarkRun run, ResultsLayout.RunFiles files, String customModule, LocalBackend backend) {
        return new LocalRun(tools, run, files, customModule, backend).execute();
    }

    /**
     * Starts one run's stack as {@link #run} does, checks that the target does its scenario's work per request
     * (verification.json in {@code files}) and stops it again, sending no load.
     */
    public VerificationResult verify(BenchmarkRun run, ResultsLayout.RunFiles files, String customModule)
            throws IOException {
        return new LocalVerification(tools).verify(run, files, customModule);
    }

    /**
     * Starts the PostgreSQL and delay service the repetitions of a comparison share, sized and placed as for
     * {@code first} (every repetition has the template's backend and CPUs), logging into {@code dir}.
     */
    public LocalBackend startBackend(BenchmarkRun first, Path dir) throws IOException {
        return LocalBackend.start(
                first, dir, tools.settings(), tools.catalogue(), tools.launcher(), tools.printer()::message);
    }
}
