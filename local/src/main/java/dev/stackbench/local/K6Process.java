package dev.stackbench.local;

import dev.stackbench.api.Durations;
import dev.stackbench.k6.K6Env;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.model.AppWiring;
import dev.stackbench.report.RequestTimeline;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One k6 process sending one load: started paused, so it compiles the script and makes its VUs while the target
 * starts, resumed through its REST API once the target is ready, and followed until it exits.
 */
public final class K6Process {

    /** A k6 process still running this long after its planned end (graceful stop included) is stopped. */
    static final Duration OVERRUN = Duration.ofSeconds(60);
    /** k6 made its VUs while the target started; this long more for a machine that is slow to. */
    private static final Duration RESUME_TIMEOUT = Duration.ofSeconds(60);

    /**
     * What following a load shows, and how long it may take.
     *
     * @param label the load's name in the progress line
     * @param planned warmup plus measured duration
     * @param limit how long after the load started k6 is stopped
     * @param burstPlannedRequests the requests a burst load plans in all, for the progress line; 0 otherwise
     */
    record Schedule(String label, Duration warmup, Duration planned, Duration limit, long burstPlannedRequests) {}

    private final int apiPort;
    private final List<String> command;
    private final ResultsLayout.RunFiles files;
    private ManagedProcess process;

    /**
     * k6 for the script in {@code files}, on a free port for its REST API from the run's {@code ports} (one source of
     * ports per run, so k6 never gets the port of a target JVM that has not bound it yet); {@link #startPaused} starts
     * it.
     *
     * @param perSecondOutput whether the binary has the stackbench output (hack/k6): it then writes the per-second
     *     figures to {@link ResultsLayout.RunFiles#k6PerSecond}
     */
    K6Process(Path k6Binary, ResultsLayout.RunFiles files, FreePorts ports, boolean perSecondOutput) {
        this.apiPort = ports.next();
        List<String> command = new ArrayList<>();
        command.add(k6Binary.toString());
        command.addAll(k6RunArguments(
                AppWiring.LOOPBACK + ":" + apiPort,
                files.k6Script().toString(),
                perSecondOutput ? files.k6PerSecond().toString() : null));
        this.command = List.copyOf(command);
        this.files = files;
    }

    /**
     * What local mode passes to k6 after the binary: a quiet run, paused until the target is ready (resumed through the
     * REST API at {@code apiAddress}, which also gives the live counts), with no per-request output; with
     * {@code perSecondFile}, the stackbench output writes per-second figures there, binned by the samples' own time
     * stamps.
     *
     * @param perSecondFile null for a k6 without the stackbench output
     */
    public static List<String> k6RunArguments(String apiAddress, String script, String perSecondFile) {
        List<String> arguments =
                new ArrayList<>(List.of("run", "--quiet", "--no-color", "--paused", "--address", apiAddress));
        if (perSecondFile != null) {
            arguments.addAll(List.of("--out", "stackbench=" + perSecondFile));
        }
        arguments.add(script);
        return List.copyOf(arguments);
    }

    /** Starts k6 against {@code baseUrl}, paused until {@link #resume}. */
    void startPaused(ProcessSupervisor supervisor, String baseUrl, CpuSet cpus) throws IOException {
        Map<String, String> environment = new LinkedHashMap<>(Map.of(
                K6Env.BASE_URL, baseUrl, K6Env.SUMMARY_FILE, files.k6Summary().toString()));
        environment.put(K6Env.NO_USAGE_REPORT, "true");
        process = supervisor.start("k6", command, environment, cpus, files.k6Log());
    }

    /** The k6 command, without the CPU pinning it runs under. */
    List<String> command() {
        return command;
    }

    ManagedProcess process() {
        return process;
    }

    /** Where k6's REST API answers, host:port. */
    String apiAddress() {
        return AppWiring.LOOPBACK + ":" + apiPort;
    }

    /** Unpauses k6 through its REST API, waiting for the API if k6 is still making its VUs. */
    void resume() {
        URI status = URI.create("http://" + AppWiring.LOOPBACK + ":" + apiPort + "/v1/status");
        HttpRequest resume = HttpRequest.newBuilder(status)
                .timeout(Duration.ofSeconds(5))
                .header("Content-Type", "application/json")
                .method(
                        "PATCH",
                        HttpRequest.BodyPublishers.ofString("{\"data\":{\"type\":\"status\",\"id\":\"default\","
                                + "\"attributes\":{\"paused\":false}}}"))
                .build();
        Instant deadline = Instant.now().plus(RESUME_TIMEOUT);
        String last = "no answer";
        try (HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()) {
            while (true) {
                if (!process.isAlive()) {
                    throw new LocalRunException(
                            RunProgress.LOAD_GENERATOR_FAILED,
                            "k6 exited before the load began (code "
                                    + process.process().exitValue()
                                    + "); last lines of " + files.k6Log() + ":\n"
                                    + ServiceProbe.tail(files.k6Log(), 25));
                }
                try {
                    HttpResponse<String> answer = http.send(resume, HttpResponse.BodyHandlers.ofString());
                    if (answer.statusCode() == 200) {
                        return;
                    }
                    last = "HTTP " + answer.statusCode() + ": " + answer.body();
                } catch (IOException e) {
                    last = e.toString();
                }
                if (Instant.now().isAfter(deadline)) {
                    throw new LocalRunException(
                            RunProgress.LOAD_GENERATOR_FAILED,
                            "k6 did not start its load within " + RESUME_TIMEOUT.toSeconds()
                                    + " s of being asked (its REST API at " + status + " said: " + last
                                    + "); see " + files.k6Log());
                }
                Thread.sleep(100);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LocalRunException(RunProgress.LOAD_GENERATOR_FAILED, "interrupted while starting k6");
        }
    }

    /**
     * Shows the load's progress once a second until k6 exits, and stops it when it overruns {@code schedule}'s
     * limit. Returns k6's exit code.
     *
     * @param whileMeasuring told the time since the load's first sample, each second of the measured part
     */
    int followUntilDone(
            LoadFollower follower,
            Instant loadStarted,
            Schedule schedule,
            ProgressPrinter printer,
            Consumer<Duration> whileMeasuring)
            throws IOException {
        while (true) {
            try {
                if (process.process().waitFor(1, TimeUnit.SECONDS)) {
                    return process.process().exitValue();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LocalRunException(RunProgress.INTERRUPTED, "interrupted while k6 was running");
            }
            follower.poll();
            Duration sinceStart = Duration.between(loadStarted, Instant.now());
            RequestTimeline measure = follower.timeline(K6Env.MEASURE_SCENARIO);
            RequestTimeline warmup = follower.timeline(K6Env.WARMUP_SCENARIO);
            // k6 first sets up its VUs (seconds on a busy CPU); the test clock starts with its first sample.
            long firstSample = warmup.isEmpty() ? measure.firstEpochSecond() : warmup.firstEpochSecond();
            Duration elapsed = firstSample < 0
                    ? Duration.ZERO
                    : Duration.between(Instant.ofEpochSecond(firstSample), Instant.now());
            boolean measuring = firstSample >= 0 && elapsed.compareTo(schedule.warmup()) >= 0;
            if (measuring) {
                whileMeasuring.accept(elapsed);
            }
            long latestSecond = follower.latestSecond();
            // After the planned end k6 waits (graceful stop) for requests still in flight.
            String phase = firstSample < 0
                    ? "starting"
                    : elapsed.compareTo(schedule.planned()) > 0 ? "finishing" : measuring ? "measure" : "warmup";
            printer.show(new ProgressPrinter.Progress(
                    schedule.label(),
                    phase,
                    elapsed,
                    schedule.planned(),
                    warmup.requestsAt(latestSecond) + measure.requestsAt(latestSecond),
                    warmup.totalRequests() + measure.totalRequests(),
                    warmup.totalFailed() + measure.totalFailed(),
                    warmup.totalDropped() + measure.totalDropped(),
                    measure.totalRequests(),
                    schedule.burstPlannedRequests()));
            if (sinceStart.compareTo(schedule.limit()) > 0) {
                throw new LocalRunException(
                        RunProgress.TIMED_OUT,
                        "k6 was still running after " + Durations.format(schedule.limit()) + " (planned: "
                                + Durations.format(schedule.planned())
                                + " plus graceful stop, within spec.timeout); stopped it. Raise spec.timeout"
                                + " or shorten the run; see " + process.logFile());
            }
        }
    }

    /** Fails the load when k6 wrote no summary, with the end of its log. */
    void requireSummary(int exitCode) {
        if (!Files.exists(files.k6Summary())) {
            throw new LocalRunException(
                    RunProgress.LOAD_GENERATOR_FAILED,
                    "k6 exited with code " + exitCode + " and wrote no summary; last lines of " + files.k6Log() + ":\n"
                            + ServiceProbe.tail(files.k6Log(), 25));
        }
    }
}
