package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class CpuBusyTest {

    private static List<String> stat(long cpu1User, long cpu1Idle) {
        return List.of(
                "cpu  500 0 100 9000 10 0 0 0 0 0",
                "cpu0 100 0 50 4000 5 0 0 0 0 0",
                "cpu1 " + cpu1User + " 0 50 " + cpu1Idle + " 5 0 5 0 0 0",
                "intr 12345",
                "ctxt 999");
    }

    @Test
    void theBusyShareOfTheChosenCpusIsEverythingButIdleAndIowait() {
        CpuBusy.Reading before = CpuBusy.parse(stat(400, 4000), CpuSet.of(1));
        CpuBusy.Reading after = CpuBusy.parse(stat(490, 4010), CpuSet.of(1));

        // 90 ticks of user time and 10 idle between the readings: 90% busy.
        assertThat(after.busySince(before))
                .hasValueSatisfying(busy -> assertThat(busy).isCloseTo(0.9, within(1e-9)));
        assertThat(before.total()).isEqualTo(400 + 50 + 4000 + 5 + 5);
        assertThat(before.busy()).isEqualTo(400 + 50 + 5);
    }

    @Test
    void noTimeBetweenTwoReadingsGivesNoShare() {
        CpuBusy.Reading reading = CpuBusy.parse(stat(400, 4000), CpuSet.of(0, 1));

        assertThat(reading.busySince(reading)).isEmpty();
    }

    @Test
    void thisMachinesCountersCanBeRead() {
        assertThat(CpuBusy.read(CpuSet.of(0)))
                .hasValueSatisfying(reading -> assertThat(reading.total()).isPositive());
    }
}
