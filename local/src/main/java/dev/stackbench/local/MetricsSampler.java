package dev.stackbench.local;

import dev.stackbench.results.PrometheusTextParser;
import dev.stackbench.results.TargetSample;
import dev.stackbench.results.TimedScrape;
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
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Once a second: reads the CPU time of the target and of k6 from /proc and scrapes the target's
 * /actuator/prometheus. The ticks are kept in memory (a scrape is a few kB) so that, once k6 has said when the
 * measured window started and ended, only the ticks inside it are aggregated. Closing it scrapes the target once
 * more, after the load has stopped, so that the scrapes bracket the measured window's end.
 */
public final class MetricsSampler implements AutoCloseable {

    /**
     * One sampling tick: CPU use of the watched processes since the previous tick, in cores (1.0 = one CPU busy),
     * and the Prometheus text the target answered, or null when the scrape failed.
     */
    /**
     * One sample.
     *
     * @param generatorCpusBusy the busy share (0..1) of the CPUs k6 runs on, by every process on them, since the
     *     previous sample; NaN where it could not be read
     * @param targetCpusBusy the same for the CPUs the target runs on: a target below its CPU while these were busy
     *     lost the CPU to other processes
     * @param hostSteal the share (0..1) of the whole machine's CPU time its hypervisor took since the previous
     *     sample (steal); NaN where it could not be read
     */
    public record Tick(
            Instant at,
            double targetCores,
            double loadGeneratorCores,
            String scrape,
            double generatorCpusBusy,
            double targetCpusBusy,
            double hostSteal) {

        public Tick(
                Instant at,
                double targetCores,
                double loadGeneratorCores,
                String scrape,
                double generatorCpusBusy,
                double targetCpusBusy) {
            this(at, targetCores, loadGeneratorCores, scrape, generatorCpusBusy, targetCpusBusy, Double.NaN);
        }

        public Tick(Instant at, double targetCores, double loadGeneratorCores, String scrape) {
            this(at, targetCores, loadGeneratorCores, scrape, Double.NaN);
        }

        public Tick(
                Instant at, double targetCores, double loadGeneratorCores, String scrape, double generatorCpusBusy) {
            this(at, targetCores, loadGeneratorCores, scrape, generatorCpusBusy, Double.NaN);
        }

        /** The target's live JVM threads in this tick's scrape; empty when the scrape failed or has no figure. */
        public Optional<Double> liveThreads() {
            if (scrape == null) {
                return Optional.empty();
            }
            double threads = TargetSample.of(Instant.EPOCH, scrape).liveThreads();
            return Double.isNaN(threads) ? Optional.empty() : Optional.of(threads);
        }
    }

    private static final Duration INTERVAL = Duration.ofSeconds(1);

    private final URI prometheusUri;
    private final ProcessHandle target;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "stackbench-metrics-sampler");
        thread.setDaemon(true);
        return thread;
    });
    private final List<Tick> ticks = Collections.synchronizedList(new ArrayList<>());
    private final List<TimedScrape> scrapes = Collections.synchronizedList(new ArrayList<>());
    private volatile ProcessHandle loadGenerator;
    private volatile int failedScrapes;
    private double lastTargetCpu;
    private double lastLoadGeneratorCpu;
    private long lastNanos;
    private final BusyShare generatorCpus;
    private final BusyShare targetCpus;
    private CpuBusy.Reading lastMachine;

    /** The busy share of a CPU set between two readings; NaN without a set or a reading. */
    private static final class BusyShare {
        private final CpuSet cpus;
        private CpuBusy.Reading last;

        BusyShare(CpuSet cpus) {
            this.cpus = cpus;
        }

        void start() {
            last = cpus == null ? null : CpuBusy.read(cpus).orElse(null);
        }

        double sinceLast() {
            if (cpus == null) {
                return Double.NaN;
            }
            CpuBusy.Reading reading = CpuBusy.read(cpus).orElse(null);
            double busy =
                    reading != null && last != null ? reading.busySince(last).orElse(Double.NaN) : Double.NaN;
            last = reading;
            return busy;
        }
    }

    public MetricsSampler(URI prometheusUri, ProcessHandle target) {
        this(prometheusUri, target, null);
    }

    /** @param generatorCpus the CPUs k6 runs on, whose busy share every tick records; null for none */
    public MetricsSampler(URI prometheusUri, ProcessHandle target, CpuSet generatorCpus) {
        this(prometheusUri, target, generatorCpus, null);
    }

    /** @param targetCpus the CPUs the target runs on, whose busy share every tick records too; null for none */
    public MetricsSampler(URI prometheusUri, ProcessHandle target, CpuSet generatorCpus, CpuSet targetCpus) {
        this.prometheusUri = prometheusUri;
        this.target = target;
        this.generatorCpus = new BusyShare(generatorCpus);
        this.targetCpus = new BusyShare(targetCpus);
    }

    public void watchLoadGenerator(ProcessHandle k6) {
        this.loadGenerator = k6;
    }

    public void start() {
        lastNanos = System.nanoTime();
        lastTargetCpu = ProcessCpuClock.cpuSeconds(target);
        generatorCpus.start();
        targetCpus.start();
        lastMachine = CpuBusy.readMachine().orElse(null);
        scheduler.scheduleAtFixedRate(
                this::sampleQuietly, INTERVAL.toMillis(), INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }

    public List<Tick> ticks() {
        synchronized (ticks) {
            return List.copyOf(ticks);
        }
    }

    /** Every answered scrape of the run, in order, the closing one included. */
    public List<TimedScrape> scrapes() {
        synchronized (scrapes) {
            return List.copyOf(scrapes);
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
        double targetCores = seconds > 0 ? Math.max(0, (targetCpu - lastTargetCpu) / seconds) : 0;
        // The first tick after k6 started has no earlier reading of k6 to subtract.
        double k6Cores =
                seconds > 0 && lastLoadGeneratorCpu > 0 ? Math.max(0, (k6Cpu - lastLoadGeneratorCpu) / seconds) : 0;
        lastNanos = nanos;
        lastTargetCpu = targetCpu;
        lastLoadGeneratorCpu = k6Cpu;
        double generatorBusy = generatorCpus.sinceLast();
        double targetBusy = targetCpus.sinceLast();
        double hostSteal = stolenSinceLast();
        String scrape = scrape();
        ticks.add(new Tick(now, targetCores, k6Cores, scrape, generatorBusy, targetBusy, hostSteal));
        if (scrape != null) {
            scrapes.add(new TimedScrape(now, scrape));
        }
    }

    /** The share of the machine's CPU time its hypervisor took since the last sample; NaN without two readings. */
    private double stolenSinceLast() {
        CpuBusy.Reading reading = CpuBusy.readMachine().orElse(null);
        double stolen = reading != null && lastMachine != null
                ? reading.stolenSince(lastMachine).orElse(Double.NaN)
                : Double.NaN;
        lastMachine = reading;
        return stolen;
    }

    /**
     * Whether an answer is Prometheus text: any other 200 (another process on a reused port, a proxy page) counts as a
     * missed scrape instead of failing the run when its figures are read.
     */
    static boolean isPrometheusText(String body) {
        try {
            PrometheusTextParser.parse(body);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private String scrape() {
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(prometheusUri)
                            .timeout(Duration.ofSeconds(2))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 200 && isPrometheusText(response.body())) {
                return response.body();
            }
        } catch (IOException e) {
            // Counted below; a busy target may miss a scrape now and then.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        failedScrapes++;
        return null;
    }

    /**
     * Stops sampling, then, unless the run is being interrupted, scrapes the target a last time: it is still up, the
     * load has stopped, so this scrape lies after the measured window and lets the server-side check read the
     * target's request counters at the window's end. It is no tick: the CPU of a finished k6 cannot be read.
     */
    @Override
    public void close() {
        scheduler.shutdownNow();
        try {
            scheduler.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!Thread.currentThread().isInterrupted() && !ProcessSupervisor.interrupted()) {
            Instant now = Instant.now();
            String scrape = scrape();
            if (scrape != null) {
                scrapes.add(new TimedScrape(now, scrape));
            }
        }
    }
}
