package dev.stackbench.operator.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

class PodMilestonesTest {

    @Test
    void aRunnerThatRanToItsEndHasEveryMomentInTimeOrder() {
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withName("run-k6-1-abcde")
                .withCreationTimestamp("2026-11-27T10:00:00Z")
                .endMetadata()
                .withNewStatus()
                .addNewCondition()
                .withType("Ready")
                .withStatus("False")
                .withLastTransitionTime("2026-11-27T10:00:30Z")
                .endCondition()
                .addNewCondition()
                .withType("PodScheduled")
                .withStatus("True")
                .withLastTransitionTime("2026-11-27T10:00:01Z")
                .endCondition()
                .addNewContainerStatus()
                .withName("k6")
                .withNewState()
                .withNewTerminated()
                .withStartedAt("2026-11-27T10:00:03Z")
                .withFinishedAt("2026-11-27T10:00:29Z")
                .withExitCode(0)
                .endTerminated()
                .endState()
                .endContainerStatus()
                .endStatus()
                .build();

        assertThat(PodMilestones.of("k6 runner 1", pod))
                .extracting(m -> m.what() + "@" + m.at())
                .containsExactly(
                        "k6 runner 1 created@2026-11-27T10:00:00Z",
                        "k6 runner 1 scheduled@2026-11-27T10:00:01Z",
                        "k6 runner 1 started@2026-11-27T10:00:03Z",
                        "k6 runner 1 finished@2026-11-27T10:00:29Z");
    }

    @Test
    void aPodWithoutStatusHasOnlyItsCreation() {
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withName("target")
                .withCreationTimestamp("2026-11-27T10:00:00Z")
                .endMetadata()
                .build();

        assertThat(PodMilestones.of("target", pod))
                .extracting(PodMilestones.Milestone::what)
                .containsExactly("target created");
    }
}
