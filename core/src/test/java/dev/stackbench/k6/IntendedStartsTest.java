package dev.stackbench.k6;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.status.IntendedLatency;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class IntendedStartsTest {

    // Buckets of the k6 output: below 128 µs one per µs; 528 holds 10.24-10.40 ms, 952 holds 983-999 ms.
    private static final String RUNNER_ONE = "{\"intended\":{\"measure\":{\"served\":{\"100\":90},"
            + "\"droppedAtLeast\":{\"952\":8},\"beyondWindowAtLeast\":{\"952\":2},\"lag\":{\"50\":99,\"528\":1},"
            + "\"startUnixNanos\":1}}}";
    private static final String RUNNER_TWO =
            "{\"intended\":{\"measure\":{\"served\":{\"100\":100},\"lag\":{\"50\":100},"
                    + "\"startUnixNanos\":1},\"warmup\":{\"served\":{\"952\":1000}}}}";

    @Test
    void runnersAddUpAndDroppedIterationsMakeTheTailALowerBound() {
        IntendedLatency latency = IntendedStarts.read(
                        Stream.of("{\"second\":1,\"scenarios\":{}}", RUNNER_ONE, "not json", RUNNER_TWO), "measure")
                .summary()
                .orElseThrow();

        assertThat(latency.getIntended()).isEqualTo(200);
        assertThat(latency.getServed()).isEqualTo(190);
        assertThat(latency.getDropped()).isEqualTo(10);
        assertThat(latency.getBeyondWindow()).isEqualTo(2);
        // 190 of 200 at 0.1 ms: p50, p90 and p95 (the 190th) are exact; p99 and max rank among the dropped,
        // known from below.
        assertThat(latency.getP50()).isEqualTo(0.1);
        assertThat(latency.getP95()).isEqualTo(0.1);
        assertThat(latency.getP99()).isBetween(983.0, 999.0);
        assertThat(latency.getLowerBounds()).containsExactly("p99", "max");
        assertThat(latency.getScheduleLagMaxMs()).isBetween(10.2, 10.4);
        assertThat(latency.getNote())
                .contains("10 of 200 intended iterations (5.0 %) were dropped", "2 of them beyond");
    }

    @Test
    void withoutDropsEveryFigureIsExactAndOtherScenariosDoNotCount() {
        IntendedLatency latency =
                IntendedStarts.read(Stream.of(RUNNER_TWO), "measure").summary().orElseThrow();

        assertThat(latency.getIntended()).isEqualTo(100);
        assertThat(latency.getLowerBounds()).isNull();
        assertThat(latency.getMax()).isEqualTo(0.1);
        assertThat(latency.getNote()).startsWith("no intended iteration was dropped");
    }

    @Test
    void iterationsCutOffAtTheEndCountAmongTheIntendedWithALowerBound() {
        // 96 served at 0.1 ms; 4 started and interrupted by k6 at the scenario's end, unanswered for at least a second.
        String cut = "{\"intended\":{\"measure\":{\"served\":{\"100\":96},\"cutOffAtLeast\":{\"952\":4},"
                + "\"startUnixNanos\":1}}}";

        IntendedLatency latency =
                IntendedStarts.read(Stream.of(cut), "measure").summary().orElseThrow();

        assertThat(latency.getIntended()).isEqualTo(100);
        assertThat(latency.getServed()).isEqualTo(96);
        assertThat(latency.getDropped()).isZero();
        assertThat(latency.getCutOff()).isEqualTo(4);
        assertThat(latency.getP95()).isEqualTo(0.1);
        assertThat(latency.getP99()).isBetween(983.0, 999.0);
        assertThat(latency.getLowerBounds()).containsExactly("p99", "max");
        assertThat(latency.getNote())
                .doesNotContain("no intended iteration was dropped")
                .contains("4 of 100 intended iterations (4.0 %) were cut off", "p99, max from the intended start are");
        // Without any, the field is left out of the status.
        assertThat(IntendedStarts.read(Stream.of(RUNNER_TWO), "measure")
                        .summary()
                        .orElseThrow()
                        .getCutOff())
                .isNull();
    }

    @Test
    void aScenarioNoRunnerWroteHasNoFigures() {
        assertThat(IntendedStarts.read(Stream.of(RUNNER_TWO), "other").summary())
                .isEmpty();
        assertThat(IntendedStarts.read(Stream.empty(), "measure").isEmpty()).isTrue();
    }
}
