package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CpuSetTest {

    @Test
    void parsesAndWritesTheTasksetListFormat() {
        CpuSet cpus = CpuSet.parse("0-2,5,7-8\n");

        assertThat(cpus.cpus()).containsExactly(0, 1, 2, 5, 7, 8);
        assertThat(cpus.toList()).isEqualTo("0-2,5,7-8");
        assertThat(CpuSet.of(3).toList()).isEqualTo("3");
    }

    @Test
    void joinsTwoSetsInOrder() {
        assertThat(CpuSet.of(3).with(CpuSet.parse("0-1,3")).toList()).isEqualTo("0-1,3");
    }

    @Test
    void thisProcessHasAtLeastOneCpu() {
        assertThat(CpuSet.ofThisProcess().size()).isPositive();
    }
}
