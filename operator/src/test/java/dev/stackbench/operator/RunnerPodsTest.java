package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Runner pods as k6-operator and the Job controller make them: Jobs {@code <testrun>-<n>} controlled by the TestRun,
 * pods controlled by their Job, all carrying the TestRun's name in their labels.
 */
class RunnerPodsTest {

    private static Job job(String name, String uid, String testRunUid) {
        return new JobBuilder()
                .withNewMetadata()
                .withName(name)
                .withUid(uid)
                .addNewOwnerReference()
                .withKind("TestRun")
                .withName("run-k6")
                .withUid(testRunUid)
                .withController(true)
                .endOwnerReference()
                .endMetadata()
                .build();
    }

    private static Pod pod(String name, String jobUid, String phase, String created) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withCreationTimestamp(created)
                .addNewOwnerReference()
                .withKind("Job")
                .withUid(jobUid)
                .withController(true)
                .endOwnerReference()
                .endMetadata()
                .withNewStatus()
                .withPhase(phase)
                .endStatus()
                .build();
    }

    @Test
    void onePodPerRunnerIdOfThisTestRunAndTheMissingIdsNamed() {
        List<Job> jobs = List.of(
                job("run-k6-1", "job-1", "testrun-new"),
                job("run-k6-2", "job-2", "testrun-new"),
                // the Job of a TestRun of the same name, of a run deleted and created again
                job("run-k6-3", "old-job-3", "testrun-old"),
                job("run-k6-initializer", "job-init", "testrun-new"));
        List<Pod> pods = List.of(
                pod("run-k6-1-aaaaa", "job-1", "Failed", "2026-01-01T00:00:00Z"),
                // the retry of runner 1 that succeeded
                pod("run-k6-1-bbbbb", "job-1", "Succeeded", "2026-01-01T00:00:10Z"),
                pod("run-k6-2-ccccc", "job-2", "Succeeded", "2026-01-01T00:00:00Z"),
                pod("run-k6-3-ddddd", "old-job-3", "Succeeded", "2026-01-01T00:00:00Z"),
                pod("run-k6-initializer-eeeee", "job-init", "Succeeded", "2026-01-01T00:00:00Z"));

        RunnerPods.Selection selection = RunnerPods.select("run-k6", "testrun-new", jobs, pods, 3);

        assertThat(selection.runners()).containsOnlyKeys(1, 2);
        assertThat(selection.runners().get(1).getMetadata().getName()).isEqualTo("run-k6-1-bbbbb");
        assertThat(selection.missing()).containsExactly(3);
    }

    @Test
    void onlyJobsNamedAfterTheTestRunWithANumberAreRunners() {
        assertThat(RunnerPods.runnerId("run-k6", "run-k6-12")).hasValue(12);
        assertThat(RunnerPods.runnerId("run-k6", "run-k6-initializer")).isEmpty();
        assertThat(RunnerPods.runnerId("run-k6", "run-k6-starter")).isEmpty();
        assertThat(RunnerPods.runnerId("run-k6", "run-k6-0")).isEmpty();
        assertThat(RunnerPods.runnerId("run", "run-k6-1")).isEmpty();
    }
}
