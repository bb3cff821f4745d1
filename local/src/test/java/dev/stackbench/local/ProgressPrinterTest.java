package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ProgressPrinterTest {

    @Test
    void plainOutputPrintsWholeLinesAndNotEveryUpdate() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ProgressPrinter printer = new ProgressPrinter(new PrintStream(bytes, true, StandardCharsets.UTF_8), false);
        var progress = new ProgressPrinter.Progress(
                "mvc-jdbc", "measure", Duration.ofSeconds(65), Duration.ofSeconds(80), 245, 9000, 3, 0);

        printer.show(progress);
        printer.show(progress);

        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(out).isEqualTo("[mvc-jdbc] measure   1:05/1:20    245 req/s  9000 requests  3 errors\n");
    }

    @Test
    void droppedIterationsAreCalledOut() {
        var progress = new ProgressPrinter.Progress("r", "measure", Duration.ZERO, Duration.ofSeconds(10), 1, 1, 0, 7);

        assertThat(ProgressPrinter.format(progress)).contains("7 dropped (k6 cannot keep the rate)");
    }

    @Test
    void aBurstShowsItsAnsweredRequestsOutOfThePlanned() {
        var progress = new ProgressPrinter.Progress(
                "r", "measure", Duration.ofSeconds(3), Duration.ofSeconds(60), 300, 420, 0, 0, 350, 1000);

        assertThat(ProgressPrinter.format(progress)).endsWith("0 errors  burst: 350/1000 answered");
    }
}
