package dev.stackbench.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsAndQuantitiesTest {

    @Test
    void parsesGoStyleDurations() {
        assertThat(Durations.parse("300ms")).isEqualTo(Duration.ofMillis(300));
        assertThat(Durations.parse("1m30s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(Durations.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(Durations.parse("2h")).isEqualTo(Duration.ofHours(2));
        assertThat(Durations.parse("0s")).isZero();
        assertThat(Durations.parse("250us")).isEqualTo(Duration.ofNanos(250_000));
    }

    @Test
    void refusesDurationsWithoutUnitOrNegative() {
        assertThatThrownBy(() -> Durations.parse("30")).hasMessageContaining("e.g. 300ms, 20s or 1m30s");
        assertThat(Durations.isValid("-1s")).isFalse();
        assertThat(Durations.isValid("1 s")).isFalse();
        assertThat(Durations.isValid(null)).isFalse();
    }

    @Test
    void everyDurationTheSchemaAcceptsParsesOrIsInvalidNeverThrowsElsewhere() {
        // Go (and k6) drop what is below a nanosecond: "20.5ns" is 20 ns, not an error.
        assertThat(Durations.isValid("20.5ns")).isTrue();
        assertThat(Durations.parse("20.5ns")).isEqualTo(Duration.ofNanos(20));
        assertThat(Durations.parse("1.0000000001s")).isEqualTo(Duration.ofSeconds(1));
        // Longer than Go's duration (int64 nanoseconds, about 2562047 h) matches the pattern but is no duration.
        String tooLong = "99999999999999999999999999999h";
        assertThat(tooLong).matches(SpecRules.DURATION_PATTERN);
        assertThat(Durations.isValid(tooLong)).isFalse();
        assertThat(Durations.tryParse(tooLong)).isEmpty();
        assertThatThrownBy(() -> Durations.parse(tooLong)).hasMessageContaining("longer than");
        assertThat(Durations.isValid("2562047h")).isTrue();
        assertThat(Durations.isValid("2562048h")).isFalse();
    }

    @Test
    void everyMemoryQuantityThePatternAcceptsReadsOrIsInvalid() {
        String huge = "99999999999999T";
        assertThat(huge).matches(SpecRules.MEMORY_PATTERN);
        assertThat(Quantities.isValidMemory(huge)).isFalse();
        assertThatThrownBy(() -> Quantities.memoryBytes(huge)).hasMessageContaining("larger than");
        assertThat(Quantities.memoryBytes("0.5")).isEqualTo(1L);
    }

    @Test
    void formatsInAFormK6Reads() {
        assertThat(Durations.format(Duration.ofSeconds(90))).isEqualTo("1m30s");
        assertThat(Durations.format(Duration.ofMillis(300))).isEqualTo("300ms");
        assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(Durations.format(Duration.ofHours(1).plusSeconds(5))).isEqualTo("1h5s");
        assertThat(Durations.format(Duration.ZERO)).isEqualTo("0s");
        for (String text : new String[] {"20s", "1m30s", "300ms", "2h", "250us"}) {
            assertThat(Durations.parse(Durations.format(Durations.parse(text)))).isEqualTo(Durations.parse(text));
        }
    }

    @Test
    void readsCpuAndMemoryQuantities() {
        assertThat(Quantities.cpuCores("500m")).isEqualTo(0.5);
        assertThat(Quantities.cpuCores("2")).isEqualTo(2.0);
        assertThat(Quantities.cpuCores("1.5")).isEqualTo(1.5);
        assertThat(Quantities.memoryBytes("1Gi")).isEqualTo(1L << 30);
        assertThat(Quantities.memoryBytes("512Mi")).isEqualTo(512L << 20);
        assertThat(Quantities.memoryBytes("2G")).isEqualTo(2_000_000_000L);
        assertThatThrownBy(() -> Quantities.cpuCores("two")).hasMessageContaining("e.g. 2, 1.5 or 500m");
        assertThatThrownBy(() -> Quantities.memoryBytes("1GB")).hasMessageContaining("1Gi");
    }
}
