package dev.stackbench.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.status.Conditions;
import dev.stackbench.api.status.Phase;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class PhaseAndConditionsTest {

    @Test
    void phaseOnlyMovesForward() {
        assertThat(Phase.canMove(null, Phase.Provisioning)).isTrue();
        assertThat(Phase.canMove(Phase.Provisioning, Phase.Pending)).isFalse();
        assertThat(Phase.canMove(Phase.Provisioning, Phase.Running)).isTrue();
    }

    @Test
    void terminalPhasesAreFinalAndFailedFollowsAnyOther() {
        assertThat(Phase.canMove(Phase.WarmingUp, Phase.Failed)).isTrue();
        assertThat(Phase.canMove(Phase.Failed, Phase.Succeeded)).isFalse();
        assertThat(Phase.canMove(Phase.Failed, Phase.Collecting)).isFalse();
    }

    @Test
    void lastTransitionTimeChangesOnlyWhenTheStatusFlips() {
        List<Condition> conditions = new java.util.ArrayList<>();
        Instant first = Instant.parse("2026-01-01T10:00:00Z");
        Instant later = Instant.parse("2026-01-01T10:05:00Z");

        assertThat(Conditions.set(conditions, Conditions.TARGET_READY, false, "Deploying", "waiting", 1L, first))
                .isTrue();
        assertThat(Conditions.set(conditions, Conditions.TARGET_READY, false, "Deploying", "waiting", 1L, later))
                .isFalse();
        assertThat(Conditions.set(conditions, Conditions.TARGET_READY, false, "Deploying", "1 of 2 ready", 1L, later))
                .isTrue();
        assertThat(conditions.get(0).getLastTransitionTime()).isEqualTo("2026-01-01T10:00:00Z");

        assertThat(Conditions.set(conditions, Conditions.TARGET_READY, true, "Ready", "ready", 1L, later))
                .isTrue();
        assertThat(conditions).hasSize(1);
        assertThat(conditions.get(0).getLastTransitionTime()).isEqualTo("2026-01-01T10:05:00Z");
        assertThat(Conditions.isTrue(conditions, Conditions.TARGET_READY)).isTrue();
    }
}
