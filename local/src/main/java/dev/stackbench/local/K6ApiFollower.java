package dev.stackbench.local;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stackbench.k6.K6ApiCounts;
import dev.stackbench.k6.K6Env;
import dev.stackbench.k6.K6SummaryParser;
import dev.stackbench.k6.LatencyBuckets;
import dev.stackbench.k6.RunnerSummary;
import dev.stackbench.report.RequestTimeline;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * Follows a running k6 that has no stackbench output (a k6 other than hack/k6's) through its REST API ({@code GET
 * /v1/metrics}, cumulative counts), turning the counts that grew since the previous poll into one {@link
 * RequestTimeline} per scenario: the live progress line and, at the end, the plots over time. k6 writes no per-request
 * output, which would cost it as much CPU as the requests' checks. Each poll costs k6 CPU (it computes its trends'
 * percentiles for the answer); a k6 with the stackbench output is followed through its file instead ({@link
 * K6PerSecondTail}).
 *
 * <p>The measure scenario's requests, failures and drops are its tagged sub-metrics; its latencies per second come
 * from the generated script's latency buckets (so a second's percentiles are accurate to one bucket,
 * {@value LatencyBuckets#GROWTH}x wide). The warmup is what the whole test counted less the measure scenario. k6's API
 * is gone when k6 exits, so {@link #finish} adds what the last poll missed from the summary k6 wrote.
 */
public final class K6ApiFollower implements LoadFollower {

    private final URI metrics;
    private final HttpClient http;
    private final Map<String, RequestTimeline> timelines = new HashMap<>();
    private K6ApiCounts last = K6ApiCounts.ZERO;
    private long lastEpochSecond = -1;

    /** @param apiAddress k6's --address, e.g. 127.0.0.1:6565; null for a follower fed only by tests */
    public K6ApiFollower(String apiAddress) {
        this.metrics = apiAddress == null ? null : URI.create("http://" + apiAddress + "/v1/metrics");
        this.http = apiAddress == null
                ? null
                : HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    }

    /** The timeline of one scenario (e.g. "measure"); empty until k6 counted a request of it. */
    @Override
    public synchronized RequestTimeline timeline(String scenario) {
        return timelines.computeIfAbsent(scenario, name -> new RequestTimeline());
    }

    /**
     * Asks k6 for its counts; a k6 not answering yet (or any more) changes nothing.
     *
     * @return whether k6 answered
     */
    @Override
    public boolean poll() {
        if (metrics == null) {
            return false;
        }
        HttpRequest request =
                HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(2)).build();
        try {
            HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() == 200) {
                accept(Instant.now().getEpochSecond(), K6ApiCounts.parse(answer.body()));
                return true;
            }
        } catch (IOException | RuntimeException e) {
            // k6 is starting or has just exited: the next poll, or finish, catches up.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    /**
     * Follows the k6 whose REST API listens at the given address (its {@code --address}) as a local run does, one
     * poll a second, until it stops answering (or has not answered for 2 minutes), and prints the measure scenario's
     * requests counted at each poll: what local mode costs a k6 without the stackbench output.
     */
    public static void main(String[] args) throws InterruptedException {
        if (args.length != 1 || !args[0].matches("[^:/]+:[0-9]+")) {
            System.err.println("usage: K6ApiFollower HOST:PORT (the --address of a running k6)");
            System.exit(2);
        }
        K6ApiFollower follower = new K6ApiFollower(args[0]);
        Instant giveUp = Instant.now().plus(Duration.ofMinutes(2));
        boolean answered = false;
        while (true) {
            Thread.sleep(1000);
            if (follower.poll()) {
                answered = true;
                System.out.println(follower.timeline(K6Env.MEASURE_SCENARIO).totalRequests());
            } else if (answered || Instant.now().isAfter(giveUp)) {
                return;
            }
        }
    }

    /** What grew since the previous poll is counted in the poll's second, so the current rate is this second's. */
    @Override
    public long latestSecond() {
        return Instant.now().getEpochSecond();
    }

    /** Adds what the last poll missed from the summary k6 wrote; an unreadable one fails the run when collected. */
    @Override
    public void finish(Path k6Summary) {
        try {
            finish(K6SummaryParser.parseFile(k6Summary));
        } catch (RuntimeException e) {
            // The run's collection reads the summary again and says why it cannot.
        }
    }

    /** What k6's summary counted that the polls did not see, in the second of the last poll. */
    public synchronized void finish(RunnerSummary summary) {
        JsonNode metrics = summary.k6Summary().path("metrics");
        long requests = count(metrics.path("http_reqs"));
        long failed =
                metrics.path("http_req_failed").path("values").path("passes").asLong();
        long dropped = count(metrics.path("dropped_iterations"));
        K6ApiCounts total = new K6ApiCounts(
                Math.max(requests, summary.requests()),
                Math.max(failed, summary.failedRequests()),
                Math.max(dropped, summary.droppedIterations()),
                summary.requests(),
                summary.failedRequests(),
                summary.droppedIterations(),
                summary.latencyBuckets());
        accept(lastEpochSecond < 0 ? Instant.now().getEpochSecond() : lastEpochSecond, total);
    }

    private static long count(JsonNode metric) {
        return metric.path("values").path("count").asLong();
    }

    /** Adds what grew since the previous counts to the second they were polled in. */
    synchronized void accept(long epochSecond, K6ApiCounts now) {
        long measureRequests = grown(now.measureRequests(), last.measureRequests());
        long warmupRequests = grown(now.requests() - now.measureRequests(), last.requests() - last.measureRequests());
        if (measureRequests > 0 || !timeline(K6Env.MEASURE_SCENARIO).isEmpty()) {
            RequestTimeline measure = timeline(K6Env.MEASURE_SCENARIO);
            measure.recordRequests(epochSecond, measureRequests);
            measure.recordFailed(epochSecond, grown(now.measureFailed(), last.measureFailed()));
            measure.recordDropped(epochSecond, grown(now.measureDropped(), last.measureDropped()));
            for (int i = 0; i < LatencyBuckets.COUNT; i++) {
                long grown = grown(now.measureBuckets()[i], last.measureBuckets()[i]);
                if (grown > 0) {
                    measure.recordLatency(epochSecond, representativeMs(i), grown);
                }
            }
        }
        if (warmupRequests > 0 || !timeline(K6Env.WARMUP_SCENARIO).isEmpty()) {
            RequestTimeline warmup = timeline(K6Env.WARMUP_SCENARIO);
            warmup.recordRequests(epochSecond, warmupRequests);
            warmup.recordFailed(
                    epochSecond, grown(now.failed() - now.measureFailed(), last.failed() - last.measureFailed()));
            warmup.recordDropped(
                    epochSecond, grown(now.dropped() - now.measureDropped(), last.dropped() - last.measureDropped()));
        }
        last = now;
        lastEpochSecond = epochSecond;
    }

    private static long grown(long now, long before) {
        return Math.max(0, now - before);
    }

    /** The middle of a bucket (geometric), its lower bound for the last, open one. */
    static double representativeMs(int index) {
        double lower = LatencyBuckets.lowerBoundMs(index);
        double upper = LatencyBuckets.upperBoundMs(index);
        if (index == 0) {
            return upper / 2;
        }
        return Double.isInfinite(upper) ? lower : Math.sqrt(lower * upper);
    }
}
