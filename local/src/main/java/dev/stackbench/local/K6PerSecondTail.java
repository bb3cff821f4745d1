package dev.stackbench.local;

import dev.stackbench.k6.K6Env;
import dev.stackbench.report.RequestTimeline;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Follows a running k6 through the per-second file its stackbench output writes ({@link K6PerSecondFile}), reading
 * only what was appended since the previous poll and only whole lines. Unlike {@link K6ApiFollower} it asks k6 for
 * nothing: every {@code GET /v1/metrics} makes k6 compute its trends' percentiles again, CPU taken from the requests
 * on the load generator's core. The output writes a second about two seconds after it ended (samples reach it late),
 * so the progress line is that much behind the API's; the per-second series and the run's figures are the same,
 * read from the whole file once k6 has exited.
 */
final class K6PerSecondTail implements LoadFollower {

    /** The most one poll reads: a run writes a few kilobytes a second, a backlog is read over the next polls. */
    private static final int MAX_READ_BYTES = 4 * 1024 * 1024;
    /** A line longer than this is not the output's: it is skipped up to its end. */
    private static final int MAX_LINE_BYTES = 16 * 1024 * 1024;

    private final Path file;
    private final Map<String, RequestTimeline> timelines = new HashMap<>();
    private final ByteArrayOutputStream partLine = new ByteArrayOutputStream();
    private long offset;
    private boolean skippingLongLine;
    private long newestSecond = -1;

    K6PerSecondTail(Path file) {
        this.file = file;
    }

    @Override
    public synchronized boolean poll() {
        ByteBuffer appended;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size < offset) {
                // Not the file this tail began on (k6 writes it once, from the start): read it again from the start.
                reset();
            }
            if (size == offset) {
                return false;
            }
            appended = ByteBuffer.allocate((int) Math.min(MAX_READ_BYTES, size - offset));
            int read;
            do {
                read = channel.read(appended, offset + appended.position());
            } while (read > 0 && appended.hasRemaining());
        } catch (NoSuchFileException e) {
            return false;
        } catch (IOException e) {
            // Read again at the next poll; the figures come from the whole file after k6 exits.
            return false;
        }
        appended.flip();
        offset += appended.limit();
        takeLines(appended);
        return true;
    }

    private void takeLines(ByteBuffer appended) {
        while (appended.hasRemaining()) {
            byte b = appended.get();
            if (b != '\n') {
                if (!skippingLongLine) {
                    partLine.write(b);
                    if (partLine.size() > MAX_LINE_BYTES) {
                        partLine.reset();
                        skippingLongLine = true;
                    }
                }
                continue;
            }
            if (!skippingLongLine) {
                long second = K6PerSecondFile.addLine(partLine.toString(StandardCharsets.UTF_8), timelines);
                newestSecond = Math.max(newestSecond, second);
            }
            partLine.reset();
            skippingLongLine = false;
        }
    }

    private void reset() {
        offset = 0;
        partLine.reset();
        skippingLongLine = false;
        timelines.clear();
        newestSecond = -1;
    }

    @Override
    public synchronized RequestTimeline timeline(String scenario) {
        return timelines.computeIfAbsent(scenario, name -> new RequestTimeline());
    }

    /** The newest second in the file: the last one whose requests are known. */
    @Override
    public synchronized long latestSecond() {
        return newestSecond;
    }

    /**
     * Follows the per-second file of the k6 with the given process id as a local run does, one poll a second, until
     * that process has exited, and prints the measure scenario's requests read at each poll. hack/bench-k6-cost.sh
     * follows k6 this way, so that it measures what local mode costs k6.
     */
    public static void main(String[] args) throws InterruptedException {
        if (args.length != 2 || !args[1].matches("[0-9]+")) {
            System.err.println("usage: K6PerSecondTail FILE PID (k6's --out stackbench=FILE, and its process id)");
            System.exit(2);
        }
        K6PerSecondTail tail = new K6PerSecondTail(Path.of(args[0]));
        Optional<ProcessHandle> k6 = ProcessHandle.of(Long.parseLong(args[1]));
        Instant giveUp = Instant.now().plus(Duration.ofMinutes(30));
        while (k6.map(ProcessHandle::isAlive).orElse(false) && Instant.now().isBefore(giveUp)) {
            Thread.sleep(1000);
            if (tail.poll()) {
                System.out.println(tail.timeline(K6Env.MEASURE_SCENARIO).totalRequests());
            }
        }
    }
}
