package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A CLI killed by SIGKILL (as the OOM killer does) runs no shutdown hook: what it started must still end, by the
 * watchdogs it left beside its processes. A real run in a JVM of its own, killed while the target serves the load.
 */
class KilledCliIT {

    private static final Pattern DATA_DIR = Pattern.compile(" -D (\\S+)/data( |$)");
    private static final Pattern JVM_TMP = Pattern.compile("-Djava[.]io[.]tmpdir=(\\S+)");

    @TempDir
    Path dir;

    @Test
    void everyProcessOfARunEndsWhenTheCliIsKilled() throws Exception {
        Path spec = Files.writeString(dir.resolve("long.yaml"), CliJvm.lowRateRun("it-killed", "300s"));
        List<CliJvm.Seen> started = List.of();
        try (CliJvm cli = CliJvm.startRun(dir, "cli", dir.resolve("results"), spec)) {
            cli.awaitErr("LoadRunning", Duration.ofMinutes(5));
            started = cli.descendants();
            Map<Integer, Long> ports = CliJvm.listeningPorts(started);
            Optional<Path> postgresDir = started.stream()
                    .map(seen -> DATA_DIR.matcher(seen.command()))
                    .filter(Matcher::find)
                    .map(found -> Path.of(found.group(1)))
                    .findFirst();
            assertThat(started)
                    .as("PostgreSQL, the delay service, the target and k6 run while the load is sent")
                    .extracting(CliJvm.Seen::command)
                    .anySatisfy(command -> assertThat(command).contains("postgres"))
                    .anySatisfy(command -> assertThat(command).contains("delay-service"))
                    .anySatisfy(command -> assertThat(command).contains("webflux-app"))
                    .anySatisfy(command -> assertThat(command).contains("k6"));
            assertThat(ports).as("ports the run's processes listen on").hasSizeGreaterThanOrEqualTo(4);
            assertThat(postgresDir)
                    .as("PostgreSQL's directory, from its command line")
                    .isPresent();
            List<Path> jvmTemporaryDirs = started.stream()
                    .map(seen -> JVM_TMP.matcher(seen.command()))
                    .filter(Matcher::find)
                    .map(found -> Path.of(found.group(1)))
                    .distinct()
                    .toList();
            assertThat(jvmTemporaryDirs)
                    .as("the temporary directories of the delay service's and the target's JVMs")
                    .hasSize(2)
                    .allSatisfy(tmp -> assertThat(tmp).isDirectory());

            cli.process().destroyForcibly();
            assertThat(cli.awaitExit(Duration.ofSeconds(30)))
                    .as("SIGKILL's exit code")
                    .isEqualTo(137);

            List<CliJvm.Seen> left = CliJvm.awaitGone(started, Duration.ofSeconds(20));
            assertThat(left)
                    .as("processes the killed CLI started, still running 20 s after it died:\n" + CliJvm.describe(left))
                    .isEmpty();
            assertThat(CliJvm.stillAccepting(ports.keySet()))
                    .as("ports still accepting connections (owners: " + ports + ")")
                    .isEmpty();
            assertThat(postgresDir.get()).as("PostgreSQL's data directory").doesNotExist();
            assertThat(jvmTemporaryDirs)
                    .as("the JVMs' temporary directories, removed by their watchdogs")
                    .allSatisfy(tmp -> assertThat(tmp).doesNotExist());
            try (RunLock free = RunLock.acquire(CliJvm.lockFile(dir))) {
                assertThat(free).as("the kernel released the killed CLI's lock").isNotNull();
            }
        } finally {
            CliJvm.killAll(started);
        }
    }
}
