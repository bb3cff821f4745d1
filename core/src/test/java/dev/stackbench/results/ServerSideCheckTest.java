package dev.stackbench.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stackbench.api.status.LatencyBucket;
import dev.stackbench.api.status.LatencySummary;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.api.status.ServerAgreement;
import dev.stackbench.api.status.ServerSummary;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The server-side check on scrapes recorded by real local runs of the README demo (resources prometheus/*-scrapes.txt:
 * the scrapes around each edge of the measured window) with the window and k6 figures of the same runs
 * (prometheus/*-k6.json).
 */
class ServerSideCheckTest {

    private static final Path RESOURCES = Path.of("src", "test", "resources", "prometheus");

    /** A recorded run: its scrapes, measured window and k6 figures. */
    private record Recorded(List<TimedScrape> scrapes, Instant windowStart, Instant windowEnd, RunSummary k6) {

        static Recorded load(String name) throws IOException {
            JsonNode figures = new ObjectMapper()
                    .readTree(RESOURCES.resolve(name + "-k6.json").toFile());
            Instant start = Instant.parse(figures.path("windowStart").asText());
            Instant end =
                    start.plusMillis(Math.round(figures.path("measuredSeconds").asDouble() * 1000));
            RunSummary k6 = new RunSummary()
                    .withRps(figures.path("rps").asDouble())
                    .withLatencyMs(new LatencySummary()
                            .withP50(figures.path("p50Ms").asDouble())
                            .withP95(figures.path("p95Ms").asDouble()));
            return new Recorded(ScrapeLog.read(RESOURCES.resolve(name + "-scrapes.txt")), start, end, k6);
        }

        List<ServerRequests> asInstance(String instance) {
            return scrapes.stream()
                    .map(scrape -> ServerRequests.of(scrape.at(), instance, scrape.prometheusText()))
                    .toList();
        }

        List<ServerRequests> requests() {
            return asInstance(TargetMetrics.SINGLE_INSTANCE);
        }

        ServerSideCheck.Result check(Instant start, Instant end) {
            return ServerSideCheck.check(requests(), start, end, ServerSideCheck.ClientFigures.of(k6));
        }

        ServerSideCheck.Result check() {
            return check(windowStart, windowEnd);
        }
    }

    private static LatencyBucket bucket(double lower, Double upper) {
        return new LatencyBucket().withLower(lower).withUpper(upper);
    }

    @Test
    void aTargetThatKeepsUpAgreesWithK6OnThroughputAndBothPercentiles() throws IOException {
        Recorded webflux = Recorded.load("webflux-r2dbc");

        ServerSideCheck.Result result = webflux.check();

        ServerSummary server = result.server();
        assertThat(server.getUnavailableReason()).isNull();
        // Counter 561 -> 621 around the start (00:05:15.93, 00:05:16.92) and 1765 -> 1804 around the end
        // (00:05:35.95, 00:05:36.92), read at 00:05:16 and 00:05:36: 565.0 and 1767.2. The scrapes also count
        // /actuator/prometheus, which is not the load and is left out.
        assertThat(server.getRequests()).isEqualTo(1202);
        assertThat(server.getRps()).isCloseTo(60.11, within(0.01));
        assertThat(server.getRpsCheck()).isEqualTo(ServerAgreement.AGREES);
        // 1243 requests between the outer scrapes, 1028 of them within 400 ms and 1228 within 750 ms.
        assertThat(server.getP50BucketMs()).usingRecursiveComparison().isEqualTo(bucket(300, 400.0));
        assertThat(server.getP95BucketMs()).usingRecursiveComparison().isEqualTo(bucket(500, 750.0));
        assertThat(server.getP50Check()).isEqualTo(ServerAgreement.AGREES);
        assertThat(server.getP95Check()).isEqualTo(ServerAgreement.AGREES);
        assertThat(server.getWindowStart()).isEqualTo("2026-11-23T00:05:16Z");
        assertThat(server.getWindowEnd()).isEqualTo("2026-11-23T00:05:36Z");
        assertThat(server.getScrapes()).isEqualTo(4);
        assertThat(server.getEdgeGapSeconds()).isCloseTo(0.98, within(0.01));
        assertThat(result.warnings()).isEmpty();
    }

    @Test
    void clientLatencyFarAboveTheServersBucketIsReportedAsQueueingInFrontOfTheServer() throws IOException {
        Recorded mvc = Recorded.load("mvc-jdbc-overloaded");

        ServerSideCheck.Result result = mvc.check();

        ServerSummary server = result.server();
        // 10 Tomcat threads at 300 ms each: both sides count the same ~31 requests/s...
        assertThat(server.getRequests()).isEqualTo(626);
        assertThat(server.getRps()).isCloseTo(31.28, within(0.01));
        assertThat(server.getRpsCheck()).isEqualTo(ServerAgreement.AGREES);
        // ...but the server times each request at 300-400 ms while k6 waited 9.4 s (p50) and 9.7 s (p95).
        assertThat(server.getP50BucketMs()).usingRecursiveComparison().isEqualTo(bucket(300, 400.0));
        assertThat(server.getP95BucketMs()).usingRecursiveComparison().isEqualTo(bucket(300, 400.0));
        assertThat(server.getP50Check()).isEqualTo(ServerAgreement.CLIENT_HIGHER);
        assertThat(server.getP95Check()).isEqualTo(ServerAgreement.CLIENT_HIGHER);
        assertThat(result.warnings()).hasSize(2).allSatisfy(warning -> assertThat(warning)
                .contains("(300, 400] ms")
                .contains("requests queued before the server's timer started")
                .contains("accept queue in front of a saturated thread pool")
                .contains("Lower the rate"));
        assertThat(result.warnings().get(1)).contains("client p95 (9672.0 ms)");
    }

    @Test
    void addToPutsTheFiguresAndWarningsIntoTheRunSummary() throws IOException {
        Recorded mvc = Recorded.load("mvc-jdbc-overloaded");
        RunSummary summary = mvc.k6().addWarning("k6 dropped iterations");

        ServerSideCheck.addTo(summary, mvc.requests(), mvc.windowStart(), mvc.windowEnd());

        assertThat(summary.getServer().getRps()).isCloseTo(31.28, within(0.01));
        assertThat(summary.getWarnings()).hasSize(3).first().isEqualTo("k6 dropped iterations");
    }

    @Test
    void theCounterIsInterpolatedBetweenTheScrapesAroundEachEdge() throws IOException {
        Recorded mvc = Recorded.load("mvc-jdbc-overloaded");
        Instant firstScrape = Instant.parse("2026-11-23T00:03:36.944853192Z"); // counter 328
        Instant beforeEnd = Instant.parse("2026-11-23T00:03:56.944831605Z"); // counter 954
        Instant afterEnd = Instant.parse("2026-11-23T00:03:57.944829931Z"); // counter 984
        Instant halfway = beforeEnd.plusNanos(
                java.time.Duration.between(beforeEnd, afterEnd).toNanos() / 2);

        ServerSummary onScrapes = mvc.check(firstScrape, afterEnd).server();
        ServerSummary endHalfway = mvc.check(firstScrape, halfway).server();

        assertThat(onScrapes.getRequests()).isEqualTo(984 - 328);
        assertThat(onScrapes.getEdgeGapSeconds()).isZero();
        assertThat(endHalfway.getRequests()).isEqualTo((954 + 984) / 2 - 328);
        assertThat(endHalfway.getRps()).isCloseTo(641 / 20.499977, within(0.01));
        assertThat(endHalfway.getEdgeGapSeconds()).isCloseTo(1.0, within(0.001));
    }

    @Test
    void aWindowTheScrapesDoNotBracketGivesNoServerFiguresButTheReason() throws IOException {
        Recorded mvc = Recorded.load("mvc-jdbc-overloaded");
        Instant firstScrape = Instant.parse("2026-11-23T00:03:36.944853192Z");
        Instant lastScrape = Instant.parse("2026-11-23T00:03:57.944829931Z");

        // As on a cluster where the first scrape came after the window had started, or the last before it ended.
        ServerSideCheck.Result startsTooEarly = mvc.check(firstScrape.minusSeconds(2), lastScrape);
        ServerSideCheck.Result endsTooLate = mvc.check(firstScrape, lastScrape.plusSeconds(5));

        assertThat(startsTooEarly.server().getUnavailableReason())
                .contains("no scrape of the target at or before the measured window's start")
                .contains("the first was at 2026-11-23T00:03:36.944853192Z");
        assertThat(endsTooLate.server().getUnavailableReason())
                .contains("no scrape of the target at or after the measured window's end")
                .contains("the last was at 2026-11-23T00:03:57.944829931Z");
        for (ServerSideCheck.Result result : List.of(startsTooEarly, endsTooLate)) {
            assertThat(result.server().getRequests()).isNull();
            assertThat(result.server().getRps()).isNull();
            assertThat(result.server().getP95BucketMs()).isNull();
            assertThat(result.server().getRpsCheck()).isNull();
            assertThat(result.warnings()).isEmpty();
        }
        assertThat(ServerSideCheck.check(
                                List.of(),
                                mvc.windowStart(),
                                mvc.windowEnd(),
                                ServerSideCheck.ClientFigures.of(mvc.k6()))
                        .server()
                        .getUnavailableReason())
                .contains("never scraped");
    }

    @Test
    void severalPodsAreEachReadAtTheEdgesAndAddedUp() throws IOException {
        Recorded mvc = Recorded.load("mvc-jdbc-overloaded");
        List<ServerRequests> twoPods = new ArrayList<>(mvc.asInstance("target-a"));
        twoPods.addAll(mvc.asInstance("target-b"));

        ServerSummary both = ServerSideCheck.check(
                        twoPods, mvc.windowStart(), mvc.windowEnd(), ServerSideCheck.ClientFigures.of(mvc.k6()))
                .server();
        ServerSummary oneMissingTheEnd = ServerSideCheck.check(
                        twoPods.subList(0, twoPods.size() - 1),
                        mvc.windowStart(),
                        mvc.windowEnd(),
                        ServerSideCheck.ClientFigures.of(mvc.k6()))
                .server();

        assertThat(both.getRps()).isCloseTo(2 * 31.28, within(0.02));
        // Twice the client's rate: the other pod's requests did not come from this k6.
        assertThat(both.getRpsCheck()).isEqualTo(ServerAgreement.CLIENT_LOWER);
        assertThat(oneMissingTheEnd.getUnavailableReason())
                .contains("target instance target-b")
                .contains("at or after the measured window's end");
    }

    @Test
    void aCounterThatWentDownMeansTheTargetRestartedAndNothingIsCompared() throws IOException {
        Recorded mvc = Recorded.load("mvc-jdbc-overloaded");
        List<TimedScrape> recorded = mvc.scrapes();
        // The late scrapes' texts first, the early ones after, as a restarted target would count.
        List<ServerRequests> restarted = List.of(
                ServerRequests.of(
                        recorded.get(0).at(), "target", recorded.get(2).prometheusText()),
                ServerRequests.of(
                        recorded.get(1).at(), "target", recorded.get(3).prometheusText()),
                ServerRequests.of(
                        recorded.get(2).at(), "target", recorded.get(0).prometheusText()),
                ServerRequests.of(
                        recorded.get(3).at(), "target", recorded.get(1).prometheusText()));

        ServerSummary server = ServerSideCheck.check(
                        restarted, mvc.windowStart(), mvc.windowEnd(), ServerSideCheck.ClientFigures.of(mvc.k6()))
                .server();

        assertThat(server.getUnavailableReason()).contains("went down").contains("restarted");
        assertThat(server.getRps()).isNull();
    }

    @Test
    void clientLatencyBelowTheServersBucketIsADisagreement() throws IOException {
        Recorded webflux = Recorded.load("webflux-r2dbc");
        // What a k6 pointed at another, faster target would report against these scrapes.
        ServerSideCheck.ClientFigures elsewhere = new ServerSideCheck.ClientFigures(59.8, 120.0, 729.1);

        ServerSideCheck.Result result =
                ServerSideCheck.check(webflux.requests(), webflux.windowStart(), webflux.windowEnd(), elsewhere);

        assertThat(result.server().getP50Check()).isEqualTo(ServerAgreement.CLIENT_LOWER);
        assertThat(result.server().getP95Check()).isEqualTo(ServerAgreement.AGREES);
        assertThat(result.warnings()).singleElement().satisfies(warning -> assertThat(warning)
                .contains("client p50 (120.0 ms) is below the target's own p50 bucket (300, 400] ms")
                .contains("measured different requests"));
    }

    @Test
    void aPercentileBetweenTwoGroupsOfRequestsMayLieInTheNextBucket() {
        // Constructed, not recorded: one fast (<= 25 ms) and one slow (50-100 ms) request per iteration, as in the
        // custom example. k6 interpolates its median between the slowest fast and the fastest slow request.
        Instant start = Instant.parse("2026-01-01T10:00:00Z");
        Instant end = start.plusSeconds(10);
        String before = "http_server_requests_seconds_count{uri=\"/api/rows\"} 0\n"
                + "http_server_requests_seconds_count{uri=\"/api/upstream\"} 0\n";
        String after = "http_server_requests_seconds_count{uri=\"/api/rows\"} 200\n"
                + "http_server_requests_seconds_bucket{uri=\"/api/rows\",le=\"0.025\"} 200\n"
                + "http_server_requests_seconds_bucket{uri=\"/api/rows\",le=\"0.05\"} 200\n"
                + "http_server_requests_seconds_bucket{uri=\"/api/rows\",le=\"0.1\"} 200\n"
                + "http_server_requests_seconds_bucket{uri=\"/api/rows\",le=\"+Inf\"} 200\n"
                + "http_server_requests_seconds_count{uri=\"/api/upstream\"} 200\n"
                + "http_server_requests_seconds_bucket{uri=\"/api/upstream\",le=\"0.025\"} 0\n"
                + "http_server_requests_seconds_bucket{uri=\"/api/upstream\",le=\"0.05\"} 0\n"
                + "http_server_requests_seconds_bucket{uri=\"/api/upstream\",le=\"0.1\"} 200\n"
                + "http_server_requests_seconds_bucket{uri=\"/api/upstream\",le=\"+Inf\"} 200\n";
        List<ServerRequests> scrapes =
                List.of(ServerRequests.of(start, "target", before), ServerRequests.of(end, "target", after));

        ServerSideCheck.Result result =
                ServerSideCheck.check(scrapes, start, end, new ServerSideCheck.ClientFigures(40.0, 36.0, 70.0));

        assertThat(result.server().getP50BucketMs()).usingRecursiveComparison().isEqualTo(bucket(0, 25.0));
        assertThat(result.server().getP50Check()).isEqualTo(ServerAgreement.AGREES);
        assertThat(result.server().getP95Check()).isEqualTo(ServerAgreement.AGREES);
        assertThat(result.warnings()).isEmpty();
    }

    @Test
    void requestsServedOutsideTheWindowBetweenTheScrapesAroundItsEdgesCountOnlyForTheirShare() {
        // Constructed: a slow warmup (every request above 100 ms) up to the window's start, then only fast requests
        // (at most 100 ms), 10 a second, with scrapes 2 s before and after each edge of a 30 s window.
        Instant start = Instant.parse("2026-01-01T10:00:00Z");
        Instant end = start.plusSeconds(30);
        List<ServerRequests> scrapes = List.of(
                served(start.minusSeconds(2), 0, 100),
                served(start.plusSeconds(2), 20, 140),
                served(end.minusSeconds(2), 280, 400),
                served(end.plusSeconds(2), 320, 440));

        ServerSideCheck.Result result =
                ServerSideCheck.check(scrapes, start, end, new ServerSideCheck.ClientFigures(10.0, 40.0, 60.0));

        // The window holds 300 requests, all fast. Between the outer scrapes there are 340, 20 of them the warmup's
        // slow ones: 6 % of them, enough to put a p95 read over all 340 into (100, 1000] ms, above k6's 60 ms.
        assertThat(result.server().getRequests()).isEqualTo(300);
        assertThat(result.server().getP95BucketMs()).usingRecursiveComparison().isEqualTo(bucket(0, 100.0));
        assertThat(result.server().getP95Check()).isEqualTo(ServerAgreement.AGREES);
        assertThat(result.warnings()).isEmpty();
    }

    @Test
    void aClientPercentileThatTheRequestsAroundTheEdgesCanExplainAgrees() {
        // Recorded on the real-node test cluster: the third webflux-r2dbc repetition of the demo comparison (60
        // requests/s, 3 s of warmup, a 10 s window, the target scraped every 2.1 s). The young JVM answered many
        // requests above 400 ms at first: 86 of the first 118, 29 of the 132 between the scrapes around the window's
        // start, 15 in the next interval, none after. k6's p95 of the window was 393.1 ms.
        Instant start = Instant.parse("2026-12-06T17:27:07Z");
        Instant end = start.plusSeconds(10);
        List<ServerRequests> scrapes = List.of(
                histogram(start.minusMillis(529), 118, 32, 57, 93, 114),
                histogram(start.plusMillis(1618), 250, 135, 185, 225, 246),
                histogram(start.plusMillis(3823), 383, 253, 317, 358, 379),
                histogram(start.plusMillis(5924), 509, 379, 443, 484, 505),
                histogram(start.plusMillis(8074), 637, 507, 571, 612, 633),
                histogram(start.plusMillis(10146), 765, 635, 699, 740, 761));

        ServerSideCheck.Result result =
                ServerSideCheck.check(scrapes, start, end, new ServerSideCheck.ClientFigures(60.0, 315.7, 393.1));

        // Read evenly across the edges, 6 % of the window's requests took over 400 ms; but if the slow ones around
        // the window's start were the warmup's (as a JVM speeds up, the earliest are the slowest), the window's p95
        // lies in (300, 400] with k6's.
        assertThat(result.server().getP95BucketMs()).usingRecursiveComparison().isEqualTo(bucket(400, 500.0));
        assertThat(result.server().getP95Check()).isEqualTo(ServerAgreement.AGREES);
        assertThat(result.warnings()).isEmpty();

        ServerSideCheck.Result elsewhere =
                ServerSideCheck.check(scrapes, start, end, new ServerSideCheck.ClientFigures(60.0, 315.7, 290.0));

        assertThat(elsewhere.server().getP95Check()).isEqualTo(ServerAgreement.CLIENT_LOWER);
        assertThat(elsewhere.warnings()).singleElement().satisfies(warning -> assertThat(warning)
                .contains("client p95 (290.0 ms) is below the target's own p95 bucket (300, 400] ms")
                .contains("fastest of the requests around the window's edges"));
    }

    /** A scrape of a target that has served {@code total} requests, none within 300 ms, the others up to 1 s. */
    private static ServerRequests histogram(Instant at, int total, int le400, int le500, int le750, int le1000) {
        return scrape(
                at, "/api/mixed", total, Map.of("0.3", 0, "0.4", le400, "0.5", le500, "0.75", le750, "1.0", le1000));
    }

    /** A scrape of a target that has answered {@code fast} requests within 100 ms, {@code total} in all (< 1 s). */
    private static ServerRequests served(Instant at, int fast, int total) {
        return scrape(at, "/api/upstream", total, Map.of("0.1", fast, "1.0", total));
    }

    /** A scrape of one path's timer: its count and cumulative buckets by upper bound (seconds), +Inf the count. */
    private static ServerRequests scrape(Instant at, String path, int total, Map<String, Integer> cumulative) {
        String series = "{uri=\"" + path + "\"";
        StringBuilder text = new StringBuilder("http_server_requests_seconds_count" + series + "} " + total + "\n");
        cumulative.forEach((le, count) -> text.append("http_server_requests_seconds_bucket")
                .append(series)
                .append(",le=\"")
                .append(le)
                .append("\"} ")
                .append(count)
                .append('\n'));
        text.append("http_server_requests_seconds_bucket" + series + ",le=\"+Inf\"} " + total + "\n");
        return ServerRequests.of(at, "target", text.toString());
    }

    @Test
    void aTargetWithoutTheRequestTimerSaysSo() {
        Instant start = Instant.parse("2026-01-01T10:00:00Z");
        List<ServerRequests> scrapes = List.of(
                ServerRequests.of(start, "target", "jvm_threads_live_threads 20\n"),
                ServerRequests.of(start.plusSeconds(10), "target", "jvm_threads_live_threads 21\n"));

        ServerSummary server = ServerSideCheck.check(
                        scrapes, start, start.plusSeconds(10), new ServerSideCheck.ClientFigures(1, 1.0, 1.0))
                .server();

        assertThat(server.getUnavailableReason()).contains("http.server.requests");
        assertThat(server.getRps()).isNull();
    }
}
