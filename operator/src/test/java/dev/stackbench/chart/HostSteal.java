package dev.stackbench.chart;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The share of this machine's CPU time its hypervisor took (steal in /proc/stat), sampled every second on a thread of
 * its own while a judged test measures. The real-node cluster's nodes are this machine's CPUs: when the host takes a
 * fifth of them during a run's window, the run's figures measure the host, not the stack, and no bound on them can
 * hold. The quiet hold between the test JVMs cannot keep the hypervisor out; this says when it came in.
 */
final class HostSteal implements AutoCloseable {

    private record Sample(Instant at, long steal, long total) {}

    private final List<Sample> samples = new ArrayList<>();
    private final Thread sampler;
    private volatile boolean stopped;

    private HostSteal() {
        sampler = new Thread(this::sampleEverySecond, "host-steal-sampler");
        sampler.setDaemon(true);
    }

    /** Starts sampling now; an empty answer later where /proc/stat cannot be read. */
    static HostSteal sample() {
        HostSteal steal = new HostSteal();
        steal.sampler.start();
        return steal;
    }

    private void sampleEverySecond() {
        while (!stopped) {
            read().ifPresent(sample -> {
                synchronized (samples) {
                    samples.add(sample);
                }
            });
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static Optional<Sample> read() {
        try {
            String[] fields =
                    Files.readAllLines(Path.of("/proc/stat")).getFirst().trim().split("\\s+");
            long total = 0;
            for (int i = 1; i <= Math.min(8, fields.length - 1); i++) {
                total += Long.parseLong(fields[i]);
            }
            return Optional.of(new Sample(Instant.now(), fields.length > 8 ? Long.parseLong(fields[8]) : 0, total));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The share of CPU time stolen between the last sample at or before {@code from} and the first at or after {@code to}. */
    Optional<Double> share(Instant from, Instant to) {
        synchronized (samples) {
            Sample first = null;
            Sample last = null;
            for (Sample sample : samples) {
                if (!sample.at().isAfter(from)) {
                    first = sample;
                }
                if (last == null && !sample.at().isBefore(to)) {
                    last = sample;
                }
            }
            if (first == null || last == null || last.total() <= first.total()) {
                return Optional.empty();
            }
            return Optional.of((double) (last.steal() - first.steal()) / (last.total() - first.total()));
        }
    }

    @Override
    public void close() {
        stopped = true;
        sampler.interrupt();
    }
}
