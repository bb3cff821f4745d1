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
    void theMachinesStolenShareComesFromTheAggregateLinesStealColumn() {
        List<String> before = List.of("cpu  500 0 100 9000 10 0 0 40 0 0", "cpu0 500 0 100 9000 10 0 0 40 0 0");
        List<String> after = List.of("cpu  560 0 110 9100 10 0 0 70 0 0", "cpu0 560 0 110 9100 10 0 0 70 0 0");

        // 60 user, 10 system, 100 idle and 30 stolen ticks between the readings: 15 % of the time stolen.
        assertThat(CpuBusy.parseMachine(after).stolenSince(CpuBusy.parseMachine(before)))
                .hasValueSatisfying(steal -> assertThat(steal).isCloseTo(0.15, within(1e-9)));
        assertThat(CpuBusy.parseMachine(before).steal()).isEqualTo(40);
        assertThat(CpuBusy.parse(after, CpuSet.of(0)).steal()).isEqualTo(70);
        assertThat(CpuBusy.readMachine())
                .hasValueSatisfying(reading -> assertThat(reading.total()).isGreaterThanOrEqualTo(reading.steal()));
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
