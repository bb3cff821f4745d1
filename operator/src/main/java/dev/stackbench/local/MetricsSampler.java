package dev.stackbench.local;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * Once a second: scrapes the target's /actuator/prometheus and reads the CPU time of the target and of k6 from
 * /proc. Each scrape goes to the given consumer (the status aggregation); the CPU figures are kept here as
 * per-second rates so the report can show them over time.
 */
public final class MetricsSampler implements AutoCloseable {

    /** CPU use of the watched processes during one sampling interval, in cores (1.0 = one CPU busy). */
    public record CpuSample(Instant at, double targetCores, double loadGeneratorCores) {
    }

    private static final Duration INTERVAL = Duration.ofSeconds(1);

    private final URI prometheusUri;
    private final ProcessHandle target;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "stackbench-metrics-sampler");
        thread.setDaemon(true);
        return thread;
    });
    private final List<CpuSample> cpuSamples = Collections.synchronizedList(new ArrayList<>());
    private final BiConsumer<Instant, String> scrapeConsumer;
    private volatile ProcessHandle loadGenerator;
    private volatile int failedScrapes;
    private double lastTargetCpu;
    private double lastLoadGeneratorCpu;
    private long lastNanos;

    public MetricsSampler(URI prometheusUri, ProcessHandle target, BiConsumer<Instant, String> scrapeConsumer) {
        this.prometheusUri = prometheusUri;
        this.target = target;
        this.scrapeConsumer = scrapeConsumer;
    }

    public void watchLoadGenerator(ProcessHandle k6) {
        this.loadGenerator = k6;
    }

    public void start() {
        lastNanos = System.nanoTime();
        lastTargetCpu = ProcessCpuClock.cpuSeconds(target);
        scheduler.scheduleAtFixedRate(this::sampleQuietly, INTERVAL.toMillis(), INTERVAL.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    public List<CpuSample> cpuSamples() {
        synchronized (cpuSamples) {
            return List.copyOf(cpuSamples);
        }
    }

    public int failedScrapes() {
        return failedScrapes;
    }

    private void sampleQuietly() {
        try {
            sample();
        } catch (RuntimeException e) {
            failedScrapes++;
        }
    }

    private synchronized void sample() {
        Instant now = Instant.now();
        long nanos = System.nanoTime();
        double seconds = (nanos - lastNanos) / 1e9;
        double targetCpu = ProcessCpuClock.cpuSeconds(target);
        ProcessHandle k6 = loadGenerator;
        double k6Cpu = k6 == null ? 0 : ProcessCpuClock.cpuSeconds(k6);
        if (seconds > 0) {
            double k6Cores = lastLoadGeneratorCpu == 0 ? 0 : Math.max(0, (k6Cpu - lastLoadGeneratorCpu) / seconds);
            cpuSamples.add(new CpuSample(now, Math.max(0, (targetCpu - lastTargetCpu) / seconds), k6Cores));
        }
        lastNanos = nanos;
        lastTargetCpu = targetCpu;
        lastLoadGeneratorCpu = k6Cpu;
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(prometheusUri).timeout(Duration.ofSeconds(2)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 200) {
                scrapeConsumer.accept(now, response.body());
            } else {
                failedScrapes++;
            }
        } catch (IOException e) {
            failedScrapes++;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        try {
            scheduler.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
