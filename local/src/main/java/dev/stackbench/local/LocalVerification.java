package dev.stackbench.local;

import dev.stackbench.api.Quantities;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.status.VerificationResult;
import dev.stackbench.lifecycle.RunProgress;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.time.Clock;

/**
 * {@code stackbench verify}: one run file's stack started exactly as {@code stackbench run} starts it (its own
 * PostgreSQL, delay service and target, on the CPUs the run would give them), verified, and stopped again without any
 * load.
 */
final class LocalVerification {

    private final LocalRun.Tools tools;

    LocalVerification(LocalRun.Tools tools) {
        this.tools = tools;
    }

    /**
     * @param customModule for scenario custom, the text of the user's k6 module; null otherwise
     * @throws LocalRunException when the stack could not be started or the requests could not be sent
     */
    VerificationResult verify(BenchmarkRun run, ResultsLayout.RunFiles files, String customModule) throws IOException {
        BenchmarkRunSpec spec = run.getSpec();
        String name = run.getMetadata().getName();
        TargetVariant variant =
                TargetVariant.of(tools.catalogue(), spec.getTarget().getVariant());
        IsolationPlan plan = IsolationPlanner.plan(
                tools.settings().machineCpus(),
                BigDecimal.valueOf(
                        Quantities.cpuCores(spec.getTarget().getResources().getCpu())));
        RunProgress progress = new RunProgress(run, Clock.systemUTC());
        TargetStack stack = new TargetStack(tools, spec, variant, plan, null, progress, text -> tools.printer()
                .message("[" + name + "] " + text));
        Files.createDirectories(files.dir());
        try (ProcessSupervisor supervisor = new ProcessSupervisor(plan.supportCpus())) {
            stack.start(supervisor, files, new FreePorts());
            stack.awaitReady();
            return new WorkVerifier(tools, stack, plan.supportCpus()).verify(supervisor, spec, customModule, files);
        } finally {
            tools.printer().finish();
        }
    }
}
