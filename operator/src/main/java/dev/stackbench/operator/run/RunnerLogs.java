package dev.stackbench.operator.run;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.k6.K6SummaryParser;
import dev.stackbench.operator.BoundedReads;
import dev.stackbench.operator.RunLabels;
import dev.stackbench.operator.RunnerPods;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the end of each runner's log, one runner id after the other, each through a buffer of {@link #TAIL_BYTES}:
 * the summary is the last thing the script's handleSummary prints, and a kubelet keeps up to 10 MiB of a container's
 * log, so 100 runners read whole would need a gigabyte of the operator's heap.
 */
final class RunnerLogs {

    /**
     * The most of a runner's log the operator keeps: the summary (some 100 KiB, more with many custom metrics) and
     * what k6 prints after it on exit.
     */
    static final int TAIL_BYTES = 2 * 1024 * 1024;

    /** The lines asked of the kubelet: the summary is a handful of lines at the end, its JSON one of them. */
    static final int TAIL_LINES = 2_000;

    /** What is kept of the end of a log without a valid summary, for the message that says what it holds instead. */
    static final int KEPT_WITHOUT_SUMMARY = 8 * 1024;

    /**
     * The runners' logs, or why the runners whose logs make the results could not all be found; with each runner's
     * per-second counts, when its k6 printed them ({@link K6PerSecondLog}), in the order of {@code logs}.
     */
    record Read(List<RunnerResults.RunnerLog> logs, Optional<String> problem, List<byte[]> perSecond) {

        Read(List<RunnerResults.RunnerLog> logs, Optional<String> problem) {
            this(logs, problem, List.of());
        }
    }

    private RunnerLogs() {}

    static Read read(RunContext pass, BenchmarkRun load) {
        String name = RunLabels.testRunName(load);
        String namespace = load.getMetadata().getNamespace();
        int parallelism = load.getSpec().getWorkload().getParallelism();
        Optional<GenericKubernetesResource> testRun = pass.secondary(GenericKubernetesResource.class, name);
        if (testRun.isEmpty()) {
            return problem("TestRun " + name + " is gone before its runners' results were read: it was deleted;"
                    + " start the run again");
        }
        String runUid = load.getMetadata().getUid();
        boolean ours = testRun.get().getMetadata().getOwnerReferences() != null
                && testRun.get().getMetadata().getOwnerReferences().stream()
                        .anyMatch(owner -> runUid.equals(owner.getUid()));
        if (!ours) {
            return problem("TestRun " + name + " belongs to another BenchmarkRun of the same name (not uid " + runUid
                    + "), an earlier one that was deleted and whose TestRun is not deleted yet: delete TestRun " + name
                    + " and start the run again");
        }
        List<Job> jobs = pass.client()
                .batch()
                .v1()
                .jobs()
                .inNamespace(namespace)
                .withLabel(RunLabels.K6_TEST_RUN, name)
                .list()
                .getItems();
        RunnerPods.Selection selection =
                RunnerPods.select(name, testRun.get().getMetadata().getUid(), jobs, pass.runnerPods(load), parallelism);
        if (!selection.missing().isEmpty()) {
            return problem("no runner pod of TestRun " + name + " for runner ids " + selection.missing() + " of 1.."
                    + parallelism + " (k6-operator's Jobs " + name + "-<id>, controlled by this TestRun): their"
                    + " results are missing; see kubectl get jobs,pods -l " + RunLabels.K6_TEST_RUN + "=" + name);
        }
        List<RunnerResults.RunnerLog> logs = new ArrayList<>();
        List<byte[]> perSecond = new ArrayList<>();
        for (Map.Entry<Integer, Pod> runner : selection.runners().entrySet()) {
            String pod = runner.getValue().getMetadata().getName();
            BoundedReads.Tail tail = tail(pass, runner.getValue());
            // Only the summary is kept of each log (or, without one, the end that says why): 100 tails of 2 MiB of
            // long lines would otherwise all be held at once.
            String kept = K6SummaryParser.lastValidBlock(tail.text()).orElseGet(() -> tail.text()
                    .substring(Math.max(0, tail.text().length() - KEPT_WITHOUT_SUMMARY)));
            logs.add(new RunnerResults.RunnerLog(pod, runner.getKey(), kept, tail.cut() ? TAIL_BYTES : 0));
            K6PerSecondLog.find(tail.text()).ifPresent(perSecond::add);
        }
        return new Read(logs, Optional.empty(), perSecond);
    }

    /**
     * Whether each of these runner pods' logs ends with a valid summary: k6 prints it after everything else it reports
     * (its per-second counts included), so a log that holds it is complete. A log that cannot be read now counts as
     * not written: the results are then read once the pods are marked finished.
     */
    static boolean summariesWritten(RunContext pass, List<Pod> pods) {
        for (Pod pod : pods) {
            String text;
            try {
                text = tail(pass, pod).text();
            } catch (KubernetesClientException | UncheckedIOException e) {
                return false;
            }
            if (K6SummaryParser.lastValidBlock(text).isEmpty()) {
                return false;
            }
        }
        return true;
    }

    private static BoundedReads.Tail tail(RunContext pass, Pod pod) {
        return BoundedReads.podLogTail(pass.client(), pod, null, TAIL_LINES, TAIL_BYTES);
    }

    private static Read problem(String why) {
        return new Read(List.of(), Optional.of(why));
    }
}
