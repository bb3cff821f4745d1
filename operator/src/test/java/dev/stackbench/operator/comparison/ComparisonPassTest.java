package dev.stackbench.operator.comparison;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.comparison.BenchmarkComparison;
import dev.stackbench.api.comparison.ComparisonPhase;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class ComparisonPassTest {

    private static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");

    @Test
    void theShortestDelayAskedForWins() {
        ComparisonPass pass = newPass();

        pass.checkAgainIn(Duration.ofSeconds(5));
        pass.checkAgainIn(Duration.ofSeconds(1));
        pass.checkAgainIn(Duration.ofSeconds(3));

        assertThat(pass.nextCheck()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void onlyANewMessageChangesTheStatus() {
        ComparisonPass pass = newPass();
        pass.status().setMessage("started run a");

        pass.message("started run a");
        assertThat(pass.hasChanged()).isFalse();

        pass.message("started run b");
        assertThat(pass.hasChanged()).isTrue();
        assertThat(pass.status().getMessage()).isEqualTo("started run b");
    }

    @Test
    void aFailureEndsTheComparisonWithAWarning() {
        ComparisonPass pass = newPass();

        pass.fail("RecordMissing", "the record was deleted");

        assertThat(pass.ended()).isTrue();
        assertThat(pass.status().getPhase()).isEqualTo(ComparisonPhase.Failed);
        assertThat(pass.status().getFinishedAt()).isEqualTo(NOW.toString());
        assertThat(pass.status().getObservedGeneration()).isEqualTo(3L);
        assertThat(pass.events())
                .containsExactly(new ComparisonPass.Event(true, "RecordMissing", "the record was deleted"));
    }

    private static ComparisonPass newPass() {
        BenchmarkComparison comparison = new BenchmarkComparison();
        comparison.setMetadata(new ObjectMetaBuilder()
                .withName("compare")
                .withNamespace("bench")
                .withGeneration(3L)
                .build());
        return new ComparisonPass(comparison, Clock.fixed(NOW, ZoneOffset.UTC));
    }
}
