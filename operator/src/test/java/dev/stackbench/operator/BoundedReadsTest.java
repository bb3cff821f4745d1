package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BoundedReadsTest {

    /** A stream of {@code length} bytes of log lines that is never held in memory whole. */
    private static InputStream lines(long length, String last) {
        byte[] end = last.getBytes(StandardCharsets.UTF_8);
        return new InputStream() {
            private long position;

            @Override
            public int read() {
                if (position >= length + end.length) {
                    return -1;
                }
                long at = position++;
                if (at >= length) {
                    return end[(int) (at - length)];
                }
                return at % 100 == 99 ? '\n' : 'x';
            }

            @Override
            public int read(byte[] buffer, int offset, int count) {
                int n = 0;
                int next;
                while (n < count && (next = read()) >= 0) {
                    buffer[offset + n++] = (byte) next;
                }
                return n == 0 && count > 0 ? -1 : n;
            }
        };
    }

    @Test
    void aShortTextIsKeptWhole() {
        BoundedReads.Tail tail =
                BoundedReads.tail(new ByteArrayInputStream("one\ntwo\n".getBytes(StandardCharsets.UTF_8)), 1024);

        assertThat(tail.text()).isEqualTo("one\ntwo\n");
        assertThat(tail.cut()).isFalse();
        assertThat(tail.totalBytes()).isEqualTo(8);
    }

    @Test
    void aLongTextKeepsOnlyItsLastWholeLinesWithinTheLimit() {
        // 200 MiB through a 1 MiB buffer: the text at the end survives, the memory used stays at the limit.
        long length = 200L * 1024 * 1024;

        BoundedReads.Tail tail = BoundedReads.tail(lines(length, "the summary\n"), 1024 * 1024);

        assertThat(tail.cut()).isTrue();
        assertThat(tail.totalBytes()).isEqualTo(length + "the summary\n".length());
        assertThat(tail.text()).endsWith("\nthe summary\n").hasSizeLessThanOrEqualTo(1024 * 1024);
        assertThat(tail.text().split("\n", -1)[0]).hasSize(99);
    }

    @Test
    void aPageOverItsLimitIsRefusedNamingWhatAndTheLimit() {
        assertThatThrownBy(() -> BoundedReads.whole(lines(200L * 1024 * 1024, ""), 16 * 1024 * 1024, "the page"))
                .isInstanceOf(BoundedReads.TooLarge.class)
                .hasMessage("the page is larger than the operator's limit of 16 MiB for it");
        assertThat(BoundedReads.whole(lines(1000, "end"), 1003, "the page")).endsWith("xx\nend");
    }
}
