package dev.stackbench.operator.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

class K6PerSecondLogTest {

    private static final String SECONDS = "{\"second\":1800000000,\"scenarios\":{\"measure\":{\"requests\":30}}}\n";

    @Test
    void findsTheLastCompleteLineBeforeOrAfterTheSummary() throws IOException {
        String encoded = Base64.getEncoder().encodeToString(gzip(SECONDS));
        String log =
                "time=... level=info msg=starting\n" + K6PerSecondLog.PREFIX + encoded + "\n" + "{\"metrics\":{}}\n";
        byte[] expected = gzip(SECONDS);
        assertThat(K6PerSecondLog.find(log))
                .hasValueSatisfying(bytes -> assertThat(bytes).isEqualTo(expected));
    }

    @Test
    void ignoresACutOffOrDamagedLine() throws IOException {
        String encoded = Base64.getEncoder().encodeToString(gzip(SECONDS));
        // k6 was killed while printing it: no line end.
        assertThat(K6PerSecondLog.find("x\n" + K6PerSecondLog.PREFIX + encoded)).isEmpty();
        // Not base64, or base64 of something that is not gzip.
        assertThat(K6PerSecondLog.find(K6PerSecondLog.PREFIX + "%%%\n")).isEmpty();
        assertThat(K6PerSecondLog.find(K6PerSecondLog.PREFIX
                        + Base64.getEncoder().encodeToString(SECONDS.getBytes(StandardCharsets.UTF_8)) + "\n"))
                .isEmpty();
        // The prefix inside another line (a script's own log message) is not the output's.
        assertThat(K6PerSecondLog.find("msg=\"" + K6PerSecondLog.PREFIX + encoded + "\n"))
                .isEmpty();
        assertThat(K6PerSecondLog.find("no per-second line\n")).isEmpty();
    }

    @Test
    void theRunnersLinesGiveTheLatencyFromTheIntendedStartsOfBoth() throws IOException {
        String first =
                SECONDS + "{\"intended\":{\"measure\":{\"served\":{\"100\":3},\"droppedAtLeast\":{\"900\":1}}}}\n";
        String second = "{\"intended\":{\"measure\":{\"served\":{\"100\":4}}}}\n";
        byte[] damaged = {0x1f, (byte) 0x8b, 1, 2, 3};

        List<String> lines = K6PerSecondLog.lines(List.of(gzip(first), damaged, gzip(second)));

        var intended = dev.stackbench.k6.IntendedStarts.read(lines.stream(), "measure")
                .summary()
                .orElseThrow();
        assertThat(intended.getServed()).isEqualTo(7);
        assertThat(intended.getDropped()).isEqualTo(1);
        // 8 intended, the eighth dropped: p90 (the 8th by rank) and above are lower bounds.
        assertThat(intended.getLowerBounds()).containsExactly("p90", "p95", "p99", "max");
    }

    @Test
    void refusesMoreThanItsBound() {
        String huge = "H4sI" + "A".repeat(K6PerSecondLog.MAX_BYTES / 3 * 4 + 8);
        assertThat(K6PerSecondLog.find(K6PerSecondLog.PREFIX + huge + "\n")).isEmpty();
    }

    private static byte[] gzip(String text) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return bytes.toByteArray();
    }
}
