package dev.stackbench.results;

import dev.stackbench.api.status.LatencyBucket;
import dev.stackbench.api.status.LatencySummary;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.api.status.ServerAgreement;
import dev.stackbench.api.status.ServerSummary;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Checks what k6 measured against what the target itself counted over the same measured window (Micrometer's
 * http.server.requests on /api/ paths, from timestamped scrapes of /actuator/prometheus):
 *
 * <ul>
 *   <li>throughput: the target's request counter is read at the window's start and end by interpolating between the
 *       scrapes taken just before and just after each edge; it agrees with k6's rate within 5 % (or 1 request/s);
 *   <li>latency: the server buckets holding p50 and p95 of the requests it served in the window, each bucket's
 *       cumulative count read at the window's edges as the request counter is (interpolated between the scrapes around
 *       each edge, as if the requests of those two scrapes' interval were spread evenly over it), so that requests
 *       served before the window (the end of the warmup) or after it count only for the share of their interval
 *       inside it. A client percentile agrees when it lies in that bucket, allowing 5 % and 5 ms
 *       above it, since k6 also times the network (and up to the bucket of the next request, since k6 interpolates a
 *       percentile between two neighbouring requests). Far above it, requests waited before the server's timer started:
 *       queued for a connection or in the accept queue in front of a saturated thread pool. Below the bucket the
 *       server's percentile would hold even if the fastest of the requests around the window's edges were the
 *       window's ({@code Bracket#fastestInWindow}), the two measured different requests: in a short window the
 *       warmup's requests in flight at its start (the target's, not k6's) can be those.
 * </ul>
 *
 * Without scrapes around both edges of the window nothing is estimated: the result says why it is unavailable.
 * Several instances (pods) are each read separately and added up.
 */
public final class ServerSideCheck {

    /** Relative throughput tolerance. */
    static final double RPS_TOLERANCE = 0.05;
    /** Absolute throughput tolerance in requests/s, for low rates. */
    static final double RPS_FLOOR = 1.0;
    /** Relative allowance above a server bucket's upper bound for a client percentile. */
    static final double LATENCY_TOLERANCE = 0.05;
    /** Absolute allowance above a server bucket's upper bound, in ms: the network and k6's own overhead. */
    static final double LATENCY_FLOOR_MS = 5.0;

    /** The client-side figures compared: k6's throughput and percentiles over the measured window. */
    public record ClientFigures(double rps, Double p50Ms, Double p95Ms) {

        public static ClientFigures of(RunSummary summary) {
            LatencySummary latency = summary.getLatencyMs();
            return new ClientFigures(
                    summary.getRps() == null ? Double.NaN : summary.getRps(),
                    latency == null ? null : latency.getP50(),
                    latency == null ? null : latency.getP95());
        }
    }

    /** The server figures for status.summary.server and the warnings for status.summary.warnings. */
    public record Result(ServerSummary server, List<String> warnings) {

        public Result {
            warnings = List.copyOf(warnings);
        }
    }

    private ServerSideCheck() {}

    /** Checks the summary's client figures, sets {@code summary.server} and adds the warnings to the summary. */
    public static void addTo(RunSummary summary, List<ServerRequests> scrapes, Instant windowStart, Instant windowEnd) {
        Result result = check(scrapes, windowStart, windowEnd, ClientFigures.of(summary));
        summary.setServer(result.server());
        result.warnings().forEach(summary::addWarning);
    }

    /** Sets {@code summary.server} to say why there are no server figures. */
    public static void unavailable(RunSummary summary, String reason) {
        summary.setServer(new ServerSummary().withUnavailableReason(reason));
    }

    public static Result check(
            List<ServerRequests> scrapes, Instant windowStart, Instant windowEnd, ClientFigures client) {
        ServerSummary server =
                new ServerSummary().withWindowStart(windowStart.toString()).withWindowEnd(windowEnd.toString());
        double seconds = Duration.between(windowStart, windowEnd).toNanos() / 1e9;
        if (seconds <= 0) {
            return unavailable(server, "the measured window is empty (" + windowStart + " to " + windowEnd + ")");
        }
        if (scrapes.isEmpty()) {
            return unavailable(
                    server, "the target's /actuator/prometheus was never scraped during the run (see target metrics)");
        }
        Map<String, List<ServerRequests>> byInstance = new LinkedHashMap<>();
        scrapes.stream().sorted(Comparator.comparing(ServerRequests::at)).forEach(scrape -> byInstance
                .computeIfAbsent(scrape.instance(), instance -> new ArrayList<>())
                .add(scrape));

        List<Bracket> brackets = new ArrayList<>();
        for (List<ServerRequests> series : byInstance.values()) {
            Optional<String> problem = bracketProblem(series, windowStart, windowEnd, byInstance.size() > 1);
            if (problem.isPresent()) {
                return unavailable(server, problem.get());
            }
            brackets.add(new Bracket(series, windowStart, windowEnd));
        }
        if (brackets.stream().noneMatch(Bracket::timerPresent)) {
            return unavailable(
                    server,
                    "the target's scrapes hold no http_server_requests_seconds series: it does not publish"
                            + " Micrometer's http.server.requests timer on /actuator/prometheus");
        }

        double requests = brackets.stream().mapToDouble(Bracket::requests).sum();
        double serverRps = requests / seconds;
        server.setRequests(Math.round(requests));
        server.setRps(TargetMetrics.round(serverRps, 2));
        server.setScrapes(brackets.stream().mapToInt(Bracket::scrapes).sum());
        server.setEdgeGapSeconds(TargetMetrics.round(
                brackets.stream().mapToDouble(Bracket::edgeGapSeconds).max().orElse(0), 3));

        List<String> warnings = new ArrayList<>();
        if (!Double.isNaN(client.rps())) {
            ServerAgreement rps = Math.abs(serverRps - client.rps()) <= Math.max(RPS_FLOOR, RPS_TOLERANCE * serverRps)
                    ? ServerAgreement.AGREES
                    : client.rps() > serverRps ? ServerAgreement.CLIENT_HIGHER : ServerAgreement.CLIENT_LOWER;
            server.setRpsCheck(rps);
            if (rps != ServerAgreement.AGREES) {
                warnings.add(String.format(
                        Locale.ROOT,
                        "server-side check: the target itself completed %.1f requests/s on its /api/ paths in the"
                                + " measured window, k6 counted %.1f (more than 5%% apart): the two did not see the"
                                + " same requests. Requests that never reached the target (connection errors), calls"
                                + " outside /api/ in a custom script or another client of the target explain it; check"
                                + " summary.errorRate and the target's log",
                        serverRps,
                        client.rps()));
            }
        }

        TreeMap<Double, Double> served = new TreeMap<>();
        brackets.forEach(
                bracket -> bracket.bucketDeltas().forEach((le, count) -> served.merge(le, count, Double::sum)));
        double total = served.isEmpty() ? 0 : served.lastEntry().getValue();
        if (served.isEmpty()) {
            server.setUnavailableReason("latency buckets unavailable: the target's http.server.requests timer"
                    + " publishes no histogram buckets (set management.metrics.distribution.slo.http.server.requests"
                    + " in the target)");
        } else if (total <= 0) {
            server.setUnavailableReason(
                    "latency buckets unavailable: the target served no /api/ request in the window");
        } else {
            TreeMap<Double, Double> fastest = new TreeMap<>();
            brackets.forEach(
                    bracket -> bracket.fastestInWindow().forEach((le, count) -> fastest.merge(le, count, Double::sum)));
            double fastestTotal = fastest.isEmpty() ? 0 : fastest.lastEntry().getValue();
            LatencyBucket p50 = bucketHolding(served, 0.50 * total);
            LatencyBucket p95 = bucketHolding(served, 0.95 * total);
            server.setP50BucketMs(p50);
            server.setP95BucketMs(p95);
            server.setP50Check(compare(
                    "p50",
                    client.p50Ms(),
                    p50,
                    bucketHolding(fastest, 0.50 * fastestTotal),
                    nextBucket(served, 0.50),
                    warnings));
            server.setP95Check(compare(
                    "p95",
                    client.p95Ms(),
                    p95,
                    bucketHolding(fastest, 0.95 * fastestTotal),
                    nextBucket(served, 0.95),
                    warnings));
        }
        return new Result(server, warnings);
    }

    private static Result unavailable(ServerSummary server, String reason) {
        return new Result(server.withUnavailableReason(reason), List.of());
    }

    /** Why an instance's scrapes cannot be read at both window edges, if they cannot. */
    private static Optional<String> bracketProblem(
            List<ServerRequests> series, Instant start, Instant end, boolean nameInstance) {
        String of = nameInstance ? " of target instance " + series.get(0).instance() : " of the target";
        Instant first = series.get(0).at();
        Instant last = series.get(series.size() - 1).at();
        if (first.isAfter(start)) {
            return Optional.of("no scrape" + of + " at or before the measured window's start " + start
                    + " (the first was at " + first + "), so its request counter cannot be read there; nothing is"
                    + " estimated without a scrape on each side of the window's edges");
        }
        if (last.isBefore(end)) {
            return Optional.of("no scrape" + of + " at or after the measured window's end " + end
                    + " (the last was at " + last + "), so its request counter cannot be read there; nothing is"
                    + " estimated without a scrape on each side of the window's edges");
        }
        for (int i = 1; i < series.size(); i++) {
            ServerRequests before = series.get(i - 1);
            ServerRequests after = series.get(i);
            if (after.completed() < before.completed()) {
                return Optional.of("the request counter" + of + " went down between the scrapes at " + before.at()
                        + " and " + after.at() + ": the target restarted during the run, so its counts cannot be"
                        + " compared; run it again");
            }
        }
        return Optional.empty();
    }

    /** One instance's scrapes around the window: the counter read at each edge, and the buckets across it. */
    private static final class Bracket {
        private final ServerRequests beforeStart;
        private final ServerRequests afterStart;
        private final ServerRequests beforeEnd;
        private final ServerRequests afterEnd;
        private final Instant start;
        private final Instant end;
        private final int scrapes;

        Bracket(List<ServerRequests> series, Instant start, Instant end) {
            this.start = start;
            this.end = end;
            this.beforeStart = lastAtOrBefore(series, start);
            this.afterStart = firstAtOrAfter(series, start);
            this.beforeEnd = lastAtOrBefore(series, end);
            this.afterEnd = firstAtOrAfter(series, end);
            this.scrapes = (int) series.stream()
                    .filter(scrape -> !scrape.at().isBefore(beforeStart.at())
                            && !scrape.at().isAfter(afterEnd.at()))
                    .count();
        }

        boolean timerPresent() {
            return beforeStart.timerPresent() || afterEnd.timerPresent();
        }

        double requests() {
            return countAt(beforeEnd, afterEnd, end) - countAt(beforeStart, afterStart, start);
        }

        int scrapes() {
            return scrapes;
        }

        double edgeGapSeconds() {
            return Math.max(seconds(beforeStart, afterStart), seconds(beforeEnd, afterEnd));
        }

        /**
         * Requests per bucket in the window: each cumulative bucket count read at the window's end less the same read
         * at its start, both interpolated between the scrapes around the edge as {@link #requests} is. Counting every
         * request between the scrape before the window and the one after it would add up to a scrape interval of
         * requests from outside the window on each side: the warmup's last seconds, often slower than the window's
         * on a young JVM, and the requests answered after the load.
         */
        Map<Double, Double> bucketDeltas() {
            Map<Double, Double> deltas = new TreeMap<>();
            Map<Double, Double> atStart = bucketsAt(beforeStart, afterStart, start);
            // A series first seen after the window started began at zero, so a bound missing before counts as 0.
            bucketsAt(beforeEnd, afterEnd, end)
                    .forEach((le, count) -> deltas.put(le, count - atStart.getOrDefault(le, 0.0)));
            return deltas;
        }

        /**
         * The window's requests per bucket (cumulative) if, of the requests between the two scrapes around each edge,
         * the fastest were the ones inside the window: every request between the scrapes inside the window, and as
         * many of those around its edges as the window holds beyond them ({@link #requests}). No reading of the
         * scrapes gives the window a lower percentile, whichever requests the edges held (a young JVM's slow last
         * seconds of warmup among them). What the scrapes cannot show at all: the target counts a request when it
         * answers it, k6 by the scenario that sent it, so the warmup's requests still in flight when the window
         * begins are the target's and not k6's, however they fall between scrapes.
         */
        Map<Double, Double> fastestInWindow() {
            boolean scrapeInside = !afterStart.at().isAfter(beforeEnd.at());
            TreeMap<Double, Double> inner = new TreeMap<>();
            Map<Double, Double> edges = new TreeMap<>();
            afterEnd.buckets().forEach((le, count) -> {
                double outer = count - beforeStart.buckets().getOrDefault(le, 0.0);
                double inside = scrapeInside
                        ? beforeEnd.buckets().getOrDefault(le, 0.0)
                                - afterStart.buckets().getOrDefault(le, 0.0)
                        : 0;
                inner.put(le, inside);
                edges.put(le, outer - inside);
            });
            double innerTotal = inner.isEmpty() ? 0 : inner.lastEntry().getValue();
            double need = Math.max(0, requests() - innerTotal);
            Map<Double, Double> fastest = new TreeMap<>();
            inner.forEach((le, count) -> fastest.put(le, count + Math.min(edges.get(le), need)));
            return fastest;
        }

        private static double countAt(ServerRequests before, ServerRequests after, Instant at) {
            return interpolate(before.completed(), after.completed(), share(before, after, at));
        }

        private static Map<Double, Double> bucketsAt(ServerRequests before, ServerRequests after, Instant at) {
            double share = share(before, after, at);
            Map<Double, Double> counts = new TreeMap<>();
            after.buckets()
                    .forEach((le, count) ->
                            counts.put(le, interpolate(before.buckets().getOrDefault(le, 0.0), count, share)));
            return counts;
        }

        /** Where {@code at} lies between the two scrapes, from 0 (the first) to 1 (the second). */
        private static double share(ServerRequests before, ServerRequests after, Instant at) {
            long span = Duration.between(before.at(), after.at()).toNanos();
            return span == 0 ? 0 : Duration.between(before.at(), at).toNanos() / (double) span;
        }

        private static double interpolate(double before, double after, double share) {
            return before + (after - before) * share;
        }

        private static double seconds(ServerRequests before, ServerRequests after) {
            return Duration.between(before.at(), after.at()).toNanos() / 1e9;
        }

        private static ServerRequests lastAtOrBefore(List<ServerRequests> series, Instant at) {
            ServerRequests found = null;
            for (ServerRequests scrape : series) {
                if (!scrape.at().isAfter(at)) {
                    found = scrape;
                }
            }
            return found;
        }

        private static ServerRequests firstAtOrAfter(List<ServerRequests> series, Instant at) {
            for (ServerRequests scrape : series) {
                if (!scrape.at().isBefore(at)) {
                    return scrape;
                }
            }
            return null;
        }
    }

    /** The bucket (lower, upper] holding the request of a rank: the first whose cumulative count reaches it. */
    private static LatencyBucket bucketHolding(TreeMap<Double, Double> cumulative, double rank) {
        double lower = 0;
        for (Map.Entry<Double, Double> bucket : cumulative.entrySet()) {
            if (bucket.getValue() >= rank) {
                return bucket(lower, bucket.getKey());
            }
            lower = bucket.getKey();
        }
        return bucket(lower, Double.POSITIVE_INFINITY);
    }

    /**
     * The bucket of the request ranked just after quantile q. k6 interpolates a percentile between two neighbouring
     * requests, so where q falls on a bucket edge (two groups of requests, e.g. one fast and one slow call per
     * iteration) its value may lie up to the next request's latency, in the next bucket.
     */
    private static LatencyBucket nextBucket(TreeMap<Double, Double> cumulative, double q) {
        double total = cumulative.lastEntry().getValue();
        return bucketHolding(cumulative, Math.min(total, q * total + 1));
    }

    private static LatencyBucket bucket(double lowerSeconds, double upperSeconds) {
        return new LatencyBucket()
                .withLower(TargetMetrics.round(lowerSeconds * 1000, 3))
                .withUpper(Double.isInfinite(upperSeconds) ? null : TargetMetrics.round(upperSeconds * 1000, 3));
    }

    /**
     * The client percentile against the server's ({@code bucket}): below {@code lowest} (the bucket it would hold with
     * the fastest of the requests around the window's edges taken as the window's), or far above {@code next}.
     */
    private static ServerAgreement compare(
            String name,
            Double clientMs,
            LatencyBucket bucket,
            LatencyBucket lowest,
            LatencyBucket next,
            List<String> warnings) {
        if (clientMs == null) {
            return null;
        }
        if (clientMs < lowest.getLower()) {
            warnings.add(String.format(
                    Locale.ROOT,
                    "server-side check: the client %s (%.1f ms) is below the target's own %s bucket %s ms (even"
                            + " with the fastest of the requests around the window's edges taken as the window's),"
                            + " yet k6 times every request at least as long as the server does: the two measured"
                            + " different requests. The target also counts the warmup's requests still in flight"
                            + " when the window began, which k6 leaves out: in a short window they can be the"
                            + " difference (a longer one makes them a smaller share). Otherwise check that k6 reached"
                            + " this target only and, for a custom script, that its requests go to /api/ paths",
                    name,
                    clientMs,
                    name,
                    lowest));
            return ServerAgreement.CLIENT_LOWER;
        }
        if (next.getUpper() == null || clientMs <= next.getUpper() * (1 + LATENCY_TOLERANCE) + LATENCY_FLOOR_MS) {
            return ServerAgreement.AGREES;
        }
        warnings.add(String.format(
                Locale.ROOT,
                "server-side check: the client %s (%.1f ms) is far above the target's own %s bucket %s ms:"
                        + " requests queued before the server's timer started, in the connection and accept queue in"
                        + " front of a saturated thread pool (or, when the excess is small, on the network between k6 and the target). The target's own"
                        + " latency metrics cannot show that wait; the client figure is what callers get. Lower the"
                        + " rate or give the target more request threads or CPU to remove the queue",
                name,
                clientMs,
                name,
                bucket));
        return ServerAgreement.CLIENT_HIGHER;
    }
}
