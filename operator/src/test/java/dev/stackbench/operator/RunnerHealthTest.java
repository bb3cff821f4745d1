package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunnerHealthTest {

    @Test
    void aRunnerThatExitedWithAnErrorFailsTheRunAndNamesThePod() {
        List<Pod> pods = List.of(pod("run-k6-1", "Succeeded", 0), pod("run-k6-2", "Failed", 107));

        assertThat(RunnerHealth.failure(List.of(job("run-k6-2", true)), pods))
                .hasValueSatisfying(message -> assertThat(message).contains("run-k6-2", "code 107"));
    }

    @Test
    void failedThresholdsAreResultsNotARunnerFailure() {
        List<Pod> pods = List.of(pod("run-k6-1", "Failed", 99));

        assertThat(RunnerHealth.failure(List.of(job("run-k6-1", true)), pods)).isEmpty();
        assertThat(RunnerHealth.allFinished(pods, 1)).isTrue();
    }

    @Test
    void aFailedJobWithoutPodsIsAFailure() {
        assertThat(RunnerHealth.failure(List.of(job("run-k6-1", true)), List.of()))
                .hasValueSatisfying(message -> assertThat(message).contains("Job run-k6-1", "BackoffLimitExceeded"));
    }

    @Test
    void aFailedInitializerPointsAtTheScript() {
        assertThat(RunnerHealth.failure(List.of(job("run-k6-initializer", true)), List.of()))
                .hasValueSatisfying(message -> assertThat(message)
                        .contains(
                                "initializer Job run-k6-initializer",
                                "inspect the script",
                                "kubectl logs job/run-k6-initializer"));
    }

    @Test
    void runningRunnersAreNeitherFailedNorFinished() {
        List<Pod> pods = List.of(new PodBuilder()
                .withNewMetadata()
                .withName("run-k6-1")
                .endMetadata()
                .withNewStatus()
                .withPhase("Running")
                .endStatus()
                .build());

        assertThat(RunnerHealth.failure(List.of(job("run-k6-1", false)), pods)).isEmpty();
        assertThat(RunnerHealth.allFinished(pods, 1)).isFalse();
        assertThat(RunnerHealth.allFinished(List.of(pod("run-k6-1", "Succeeded", 0)), 2))
                .isFalse();
    }

    @Test
    void runnersWhoseK6ExitedHaveExitedBeforeTheirPodsAreMarkedFinished() {
        Pod exited = new PodBuilder(pod("run-k6-1", "Running", 0))
                .withNewSpec()
                .withRestartPolicy("Never")
                .addNewContainer()
                .withName("k6")
                .endContainer()
                .endSpec()
                .build();

        assertThat(RunnerHealth.allFinished(List.of(exited), 1)).isFalse();
        assertThat(RunnerHealth.allExited(List.of(exited), 1)).isTrue();
        assertThat(RunnerHealth.allExited(List.of(exited), 2)).isFalse();
        assertThat(RunnerHealth.allExited(List.of(pod("run-k6-1", "Failed", 99)), 1))
                .isTrue();
    }

    private static Pod pod(String job, String phase, int exitCode) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(job + "-abcde")
                .addToLabels("job-name", job)
                .endMetadata()
                .withNewStatus()
                .withPhase(phase)
                .addNewContainerStatus()
                .withName("k6")
                .withNewState()
                .withNewTerminated()
                .withExitCode(exitCode)
                .withReason(exitCode == 0 ? "Completed" : "Error")
                .endTerminated()
                .endState()
                .endContainerStatus()
                .endStatus()
                .build();
    }

    private static Job job(String name, boolean failed) {
        JobBuilder job = new JobBuilder().withNewMetadata().withName(name).endMetadata();
        if (failed) {
            job.withNewStatus()
                    .addNewCondition()
                    .withType("Failed")
                    .withStatus("True")
                    .withReason("BackoffLimitExceeded")
                    .withMessage("Job has reached the specified backoff limit")
                    .endCondition()
                    .endStatus();
        }
        return job.build();
    }
}
