package dev.stackbench.results;

import java.time.Instant;
import java.util.Collections;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * What one scrape of a target instance says about the requests it has served so far: Micrometer's
 * http.server.requests timer ({@code http_server_requests_seconds_count} and {@code _bucket}), summed over every
 * series of the /api/ paths the scenarios call (actuator requests left out). Both are counters since the instance
 * started.
 *
 * @param instance which target instance was scraped (a pod name; one fixed name in local mode)
 * @param timerPresent whether the scrape has the timer at all (for any path)
 * @param completed requests completed on /api/ paths
 * @param buckets cumulative request counts per bucket upper bound in seconds ({@code le}; +Inf as
 *     {@link Double#POSITIVE_INFINITY}); empty when the timer publishes no histogram
 */
public record ServerRequests(
        Instant at, String instance, boolean timerPresent, double completed, NavigableMap<Double, Double> buckets) {

    static final String COUNT = "http_server_requests_seconds_count";
    static final String BUCKET = "http_server_requests_seconds_bucket";
    static final String API_PREFIX = "/api/";

    public ServerRequests {
        buckets = Collections.unmodifiableNavigableMap(new TreeMap<>(buckets));
    }

    public static ServerRequests of(Instant at, String instance, PrometheusScrape scrape) {
        boolean present = false;
        double completed = 0;
        TreeMap<Double, Double> buckets = new TreeMap<>();
        for (PrometheusScrape.Sample sample : scrape.samples()) {
            boolean count = sample.name().equals(COUNT);
            boolean bucket = sample.name().equals(BUCKET);
            if (!count && !bucket) {
                continue;
            }
            present = true;
            String uri = sample.label("uri");
            if (uri == null || !uri.startsWith(API_PREFIX) || Double.isNaN(sample.value())) {
                continue;
            }
            if (count) {
                completed += sample.value();
            } else {
                String le = sample.label("le");
                if (le != null) {
                    buckets.merge(upperBound(le), sample.value(), Double::sum);
                }
            }
        }
        return new ServerRequests(at, instance, present, completed, buckets);
    }

    public static ServerRequests of(Instant at, String instance, String prometheusText) {
        return of(at, instance, PrometheusTextParser.parse(prometheusText));
    }

    private static double upperBound(String le) {
        return switch (le) {
            case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
            default -> Double.parseDouble(le);
        };
    }
}
