package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Moves a real multi-threaded process (a JVM) between CPUs, as a local run does with its target once it is ready. */
class CpuAffinityTest {

    @Test
    void movesEveryThreadOfARunningJvmAndChecksThem() throws Exception {
        CpuSet machine = CpuSet.ofThisProcess();
        assumeTrue(machine.size() >= 2, "needs two CPUs to move a process between them");
        Process jvm = startIdleJvm(machine);
        try {
            long threads;
            try (var tasks = Files.list(Path.of("/proc", Long.toString(jvm.pid()), "task"))) {
                threads = tasks.count();
            }
            assertThat(threads).as("a JVM runs many threads").isGreaterThan(5);
            CpuSet last = machine.last(1);

            CpuAffinity.pin(jvm.pid(), last);

            assertThat(CpuAffinity.threadsOutside(jvm.pid(), last)).isEmpty();
            assertThat(CpuAffinity.threadsOutside(jvm.pid(), machine)).hasSize((int) threads);
        } finally {
            jvm.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void saysWhyWhenTheCpuDoesNotExist() throws Exception {
        CpuSet machine = CpuSet.ofThisProcess();
        Process jvm = startIdleJvm(machine);
        try {
            CpuSet missing = CpuSet.of(machine.cpus().get(machine.size() - 1) + 4096);
            assertThatThrownBy(() -> CpuAffinity.pin(jvm.pid(), missing))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("taskset -a -p -c " + missing.toList() + " " + jvm.pid() + " failed");
        } finally {
            jvm.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void saysWhenTheProcessIsGone() throws Exception {
        Process done = new ProcessBuilder("true").start();
        done.waitFor(10, TimeUnit.SECONDS);
        assertThatThrownBy(() -> CpuAffinity.threadsOutside(done.pid(), CpuSet.ofThisProcess()))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("process " + done.pid() + " is gone");
    }

    /** A JVM that waits on its stdin: started and with all its runtime threads before it is moved. */
    private static Process startIdleJvm(CpuSet cpus) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path source = Files.createTempFile("idle", ".java");
        Files.writeString(
                source,
                "class Idle { public static void main(String[] a) throws Exception { System.out.println(\"up\");"
                        + " System.in.read(); } }");
        Process jvm = new ProcessBuilder("taskset", "-c", cpus.toList(), java.toString(), source.toString())
                .redirectErrorStream(true)
                .start();
        source.toFile().deleteOnExit();
        byte[] up = jvm.getInputStream().readNBytes(2);
        assertThat(new String(up)).as("the child JVM started").isEqualTo("up");
        return jvm;
    }
}
