package dev.stackbench.operator;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * Reads what a user's pods produce with a byte limit, so that no log or page, however large, can fill the operator's
 * heap: one run's 100 runners with 10 MiB logs each, or a target serving a huge metrics page, would otherwise stop
 * the operator of every run with an OutOfMemoryError.
 */
public final class BoundedReads {

    private static final int CHUNK = 64 * 1024;

    private BoundedReads() {}

    /**
     * The end of a text: its last {@code limitBytes} bytes (starting at a line when cut), and whether anything before
     * them was left out.
     *
     * @param totalBytes how many bytes the whole text had
     */
    public record Tail(String text, boolean cut, long totalBytes) {}

    /** A text longer than the limit its reader set: refused whole, nothing of it kept. */
    public static final class TooLarge extends RuntimeException {
        TooLarge(String what, long limitBytes) {
            super(what + " is larger than the operator's limit of " + size(limitBytes) + " for it");
        }
    }

    /**
     * The end of a pod's log (of {@code container}, or of its one container when null): the last {@code lines} lines
     * the kubelet sends, of which at most the last {@code limitBytes} bytes are kept ({@link #tail(InputStream, int)}).
     */
    public static Tail podLogTail(KubernetesClient client, Pod pod, String container, int lines, int limitBytes) {
        var log = client.pods()
                .inNamespace(pod.getMetadata().getNamespace())
                .withName(pod.getMetadata().getName());
        return tail(
                (container == null ? log : log.inContainer(container))
                        .tailingLines(lines)
                        .getLogInputStream(),
                limitBytes);
    }

    /**
     * Reads the stream to its end and keeps only its last {@code limitBytes} bytes, in a ring buffer of that size:
     * the memory used is bounded whatever the stream's length. When the stream was longer, the text starts after the
     * first line break of what was kept (a partial line, or a partial character, is not kept).
     */
    public static Tail tail(InputStream in, int limitBytes) {
        byte[] ring = new byte[limitBytes];
        long total = 0;
        try (in) {
            byte[] chunk = new byte[Math.min(CHUNK, Math.max(1, limitBytes))];
            int read;
            while ((read = in.read(chunk)) >= 0) {
                for (int i = 0; i < read; ) {
                    int at = (int) (total % limitBytes);
                    int n = Math.min(read - i, limitBytes - at);
                    System.arraycopy(chunk, i, ring, at, n);
                    i += n;
                    total += n;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (total <= limitBytes) {
            return new Tail(new String(ring, 0, (int) total, StandardCharsets.UTF_8), false, total);
        }
        int start = (int) (total % limitBytes);
        byte[] kept = new byte[limitBytes];
        System.arraycopy(ring, start, kept, 0, limitBytes - start);
        System.arraycopy(ring, 0, kept, limitBytes - start, start);
        int firstLine = 0;
        while (firstLine < kept.length && kept[firstLine] != '\n') {
            firstLine++;
        }
        byte[] lines = firstLine < kept.length ? Arrays.copyOfRange(kept, firstLine + 1, kept.length) : kept;
        return new Tail(new String(lines, StandardCharsets.UTF_8), true, total);
    }

    /**
     * Reads the whole stream unless it holds more than {@code limitBytes} bytes: then it stops reading at the limit
     * and throws {@link TooLarge}, naming {@code what}.
     */
    public static String whole(InputStream in, int limitBytes, String what) {
        return new String(wholeBytes(in, limitBytes, what), StandardCharsets.UTF_8);
    }

    /** {@link #whole} as bytes. */
    public static byte[] wholeBytes(InputStream in, int limitBytes, String what) {
        try (in) {
            byte[] bytes = in.readNBytes(limitBytes);
            if (bytes.length == limitBytes && in.read() >= 0) {
                throw new TooLarge(what, limitBytes);
            }
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first {@code limitBytes} bytes of the stream (all of it when shorter); the rest is not read. */
    public static String head(InputStream in, int limitBytes) {
        try (in) {
            return new String(in.readNBytes(limitBytes), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A byte count as people read it: "16 MiB", "512 KiB", "300 bytes". */
    public static String size(long bytes) {
        if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0) {
            return bytes / (1024 * 1024) + " MiB";
        }
        if (bytes >= 1024 && bytes % 1024 == 0) {
            return bytes / 1024 + " KiB";
        }
        if (bytes >= 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024));
        }
        return bytes + " bytes";
    }
}
