package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Following the per-second file while k6 writes it: only whole lines are read, a line's rest is read at a later poll,
 * and what the polls add up to equals one read of the whole file (LocalRunIT and SteadyLoadSeriesIT follow a real
 * k6's file).
 */
class K6PerSecondTailTest {

    @TempDir
    Path dir;

    @Test
    void readsOnlyWholeLinesAndTheirRestAtALaterPoll() throws IOException {
        Path file = dir.resolve("k6-per-second.ndjson");
        K6PerSecondTail tail = new K6PerSecondTail(file);

        assertThat(tail.poll()).as("no file yet").isFalse();
        assertThat(tail.latestSecond()).isEqualTo(-1);

        append(file, """
                {"second":100,"scenarios":{"warmup":{"requests":5,"failed":0,"dropped":0,"latency":{"100":5}}}}
                {"second":101,"scenarios":{"measure":{"requests":60,"failed":2,"dropped":1,"latency":{"526":60}}}}
                {"second":102,"scenarios":{"measure":{"reque""");
        assertThat(tail.poll()).isTrue();
        assertThat(tail.latestSecond()).isEqualTo(101);
        assertThat(tail.timeline("measure").totalRequests()).isEqualTo(60);
        assertThat(tail.timeline("warmup").totalRequests()).isEqualTo(5);
        assertThat(tail.poll()).as("nothing appended").isFalse();

        append(file, """
                sts":59,"failed":0,"dropped":0,"latency":{"526":59}}}}
                {"second":101,"scenarios":{"measure":{"requests":1,"failed":0,"dropped":0,"latency":{"526":1}}}}
                """);
        assertThat(tail.poll()).isTrue();
        assertThat(tail.latestSecond()).isEqualTo(102);
        assertThat(tail.timeline("measure").totalRequests()).isEqualTo(120);
        assertThat(tail.timeline("measure").totalFailed()).isEqualTo(2);
        assertThat(tail.timeline("measure").totalDropped()).isEqualTo(1);
        assertThat(tail.timeline("measure").points())
                .isEqualTo(K6PerSecondFile.read(file).get("measure").points());
    }

    @Test
    void aLineThatIsNotASecondsIsSkipped() throws IOException {
        Path file = dir.resolve("k6-per-second.ndjson");
        append(file, """
                {"intended":{"measure":{"requests":3}}}
                not json
                {"second":7,"scenarios":{"measure":{"requests":4,"failed":0,"dropped":0,"latency":{}}}}
                """);
        K6PerSecondTail tail = new K6PerSecondTail(file);

        assertThat(tail.poll()).isTrue();
        assertThat(tail.latestSecond()).isEqualTo(7);
        assertThat(tail.timeline("measure").totalRequests()).isEqualTo(4);
    }

    private static void append(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
}
