package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunObservationTest {

    private static RunObservation of(double... steal) {
        Instant start = Instant.parse("2026-12-07T19:00:00Z");
        List<MetricsSampler.Tick> ticks = new java.util.ArrayList<>();
        for (int i = 0; i < steal.length; i++) {
            ticks.add(new MetricsSampler.Tick(start.plusSeconds(i + 1), 0.5, 0.05, null, 0.3, 0.6, steal[i]));
        }
        return new RunObservation(0, null, ticks, start, start.plusSeconds(steal.length), 10, List.of());
    }

    @Test
    void theHostsStealOverTheWindowIsTheMeanOfItsSecondsLeavingOutTheUnread() {
        assertThat(of(0.0, 0.3, Double.NaN, 0.0).hostSteal())
                .hasValueSatisfying(share -> assertThat(share).isCloseTo(0.1, within(1e-9)));
        assertThat(of(Double.NaN, Double.NaN).hostSteal()).isEmpty();
        assertThat(of().hostSteal()).isEmpty();
    }
}
