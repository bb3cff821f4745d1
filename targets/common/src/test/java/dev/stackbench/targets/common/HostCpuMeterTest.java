package dev.stackbench.targets.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostCpuMeterTest {

    @TempDir
    Path dir;

    @Test
    void stealAndAllAreTheAggregateLinesCountersWithoutGuestTime() throws Exception {
        Path stat = dir.resolve("stat");
        // user nice system idle iowait irq softirq steal guest guest_nice
        Files.writeString(stat, """
                cpu  100 2 30 800 5 1 2 60 40 0
                cpu0 50 1 15 400 2 0 1 30 20 0
                cpu1 50 1 15 400 3 1 1 30 20 0
                intr 12345
                """);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new HostCpuMeter(stat).bindTo(registry);

        assertThat(registry.get(HostCpuMeter.NAME)
                        .tag("mode", "steal")
                        .functionCounter()
                        .count())
                .isEqualTo(60);
        assertThat(registry.get(HostCpuMeter.NAME)
                        .tag("mode", "all")
                        .functionCounter()
                        .count())
                .isEqualTo(100 + 2 + 30 + 800 + 5 + 1 + 2 + 60);

        Files.writeString(stat, "cpu  110 2 30 900 5 1 2 80 40 0\n");
        assertThat(registry.get(HostCpuMeter.NAME)
                        .tag("mode", "steal")
                        .functionCounter()
                        .count())
                .as("read at each scrape")
                .isEqualTo(80);
    }

    @Test
    void aMachineWithoutProcStatGetsNoCounter() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new HostCpuMeter(dir.resolve("missing")).bindTo(registry);

        assertThat(registry.find(HostCpuMeter.NAME).meters()).isEmpty();
    }

    @Test
    void anOldKernelsShortLineCountsTheMissingFieldsAsZero() {
        assertThat(HostCpuMeter.parse(List.of("cpu  10 0 5 100"))).containsExactly(10, 0, 5, 100, 0, 0, 0, 0);
        assertThatThrownBy(() -> HostCpuMeter.parse(List.of("cpu0 1 2 3")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theRealProcStatGivesStealBelowAll() {
        assumeTrue(Files.isReadable(Path.of("/proc/stat")), "a Linux machine");
        HostCpuMeter meter = new HostCpuMeter();
        assertThat(meter.ticks(false)).isPositive();
        assertThat(meter.ticks(true)).isBetween(0.0, meter.ticks(false));
    }
}
