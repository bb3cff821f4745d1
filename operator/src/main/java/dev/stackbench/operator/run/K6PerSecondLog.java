package dev.stackbench.operator.run;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.zip.GZIPInputStream;

/**
 * The per-second counts a runner's k6 prints at the end of its log with stackbench's output ({@code --out
 * stackbench=-}, hack/k6): one line, {@value #PREFIX} and then JSON lines, one per second of the samples' own time
 * stamps, gzip-compressed and base64-encoded. Kept compressed: the operator stores them, it does not read them (a
 * reader sums the lines of every runner by second, so the runners' streams are simply concatenated).
 */
final class K6PerSecondLog {

    static final String PREFIX = "stackbench-per-second-gzip-base64: ";

    /** The most one runner's compressed seconds may take: some 10 hours of a steady load. */
    static final int MAX_BYTES = 1024 * 1024;

    private K6PerSecondLog() {}

    /**
     * The gzip-compressed seconds in the end of a runner's log, if it holds a complete, well-formed line (the last one
     * when there are several); empty otherwise, or when it is larger than {@link #MAX_BYTES}.
     */
    static Optional<byte[]> find(String logTail) {
        int at = logTail.lastIndexOf(PREFIX);
        if (at < 0 || (at > 0 && logTail.charAt(at - 1) != '\n')) {
            return Optional.empty();
        }
        int end = logTail.indexOf('\n', at);
        if (end < 0) {
            // Cut off: k6 did not finish printing it.
            return Optional.empty();
        }
        String encoded = logTail.substring(at + PREFIX.length(), end).strip();
        if (encoded.length() > MAX_BYTES / 3 * 4 + 4) {
            return Optional.empty();
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(encoded);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        boolean gzip = bytes.length > 2 && (bytes[0] & 0xff) == 0x1f && (bytes[1] & 0xff) == 0x8b;
        return gzip ? Optional.of(bytes) : Optional.empty();
    }

    /**
     * The lines of the runners' kept seconds, one stream after the other; a stream that does not decompress ends
     * early (what came before it is kept).
     */
    static List<String> lines(List<byte[]> kept) {
        List<String> lines = new ArrayList<>();
        for (byte[] gzip : kept) {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(
                    new GZIPInputStream(new ByteArrayInputStream(gzip)), StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // A damaged stream: the lines read before the damage stay.
            }
        }
        return lines;
    }
}
