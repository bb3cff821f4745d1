package dev.stackbench.k6;

import dev.stackbench.api.run.Scenario;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metrics a threshold may name in a generated script: the ones k6 itself registers, and the ones the script
 * stackbench generates defines for them (the {@link LatencyBuckets} counters). Each has a type, and a type allows only
 * some aggregations, as k6 checks when it starts.
 */
public final class K6Metrics {

    /** k6's metric types and the aggregations a threshold may use on each. */
    public enum Type {
        COUNTER("counter", Set.of("count", "rate"), "count or rate"),
        GAUGE("gauge", Set.of("value"), "value"),
        RATE("rate", Set.of("rate"), "rate"),
        TREND("trend", Set.of("avg", "min", "max", "med", "p"), "avg, min, max, med or p(N)");

        private final String label;
        private final Set<String> methods;
        private final String described;

        Type(String label, Set<String> methods, String described) {
            this.label = label;
            this.methods = methods;
            this.described = described;
        }

        /** Whether a threshold may aggregate a metric of this type so (p for any p(N)). */
        public boolean allows(String method) {
            return methods.contains(method);
        }

        /** The aggregations allowed, e.g. "count or rate". */
        public String aggregations() {
            return described;
        }

        @Override
        public String toString() {
            return label;
        }
    }

    /** A threshold's key: a metric name and optional tag filters, e.g. http_req_duration{name:upstream}. */
    public record MetricKey(String name, Map<String, String> tags) {}

    private static final Map<String, Type> BUILT_IN = new LinkedHashMap<>();

    /**
     * HTTP statuses counted one by one in {@code status.summary.statusCodes}: k6 tags every request with its status,
     * and a threshold on each tagged sub-metric makes k6 report its count (0 is a request that got no response).
     * Requests with any other status are the difference to the total.
     */
    public static final List<Integer> COUNTED_STATUSES = List.of(
            0, 200, 201, 204, 301, 302, 304, 400, 401, 403, 404, 405, 408, 409, 413, 422, 429, 500, 502, 503, 504);

    /** Trends of a burst's measured requests: when each was sent and answered, as epoch milliseconds. */
    public static final String BURST_SENT_AT = "stackbench_burst_sent_at_ms";

    public static final String BURST_DONE_AT = "stackbench_burst_done_at_ms";

    /** What scenario lock counts per group of concurrent changes, and the lock wait its targets report. */
    public static final String LOCK_GROUPS = "stackbench_lock_groups";

    public static final String LOCK_GROUPS_CORRECT = "stackbench_lock_groups_correct";
    public static final String LOCK_GROUPS_SEVERAL_WINNERS = "stackbench_lock_groups_several_winners";
    public static final String LOCK_GROUPS_NO_WINNER = "stackbench_lock_groups_no_winner";
    public static final String LOCK_GROUPS_WITH_ERRORS = "stackbench_lock_groups_with_errors";
    public static final String LOCK_WAIT = "stackbench_lock_wait_ms";

    /** The measured sub-metric counting requests that got one status, e.g. http_reqs{scenario:measure,status:409}. */
    public static String statusMetric(int status) {
        return "http_reqs{scenario:" + K6Env.MEASURE_SCENARIO + ",status:" + status + "}";
    }

    static {
        // What k6 registers for every test (k6 refuses a threshold on any other name it does not know).
        for (String trend : List.of(
                "http_req_duration",
                "http_req_blocked",
                "http_req_connecting",
                "http_req_tls_handshaking",
                "http_req_sending",
                "http_req_waiting",
                "http_req_receiving",
                "iteration_duration",
                "group_duration")) {
            BUILT_IN.put(trend, Type.TREND);
        }
        BUILT_IN.put("http_req_failed", Type.RATE);
        BUILT_IN.put("checks", Type.RATE);
        for (String counter : List.of("http_reqs", "iterations", "dropped_iterations", "data_sent", "data_received")) {
            BUILT_IN.put(counter, Type.COUNTER);
        }
        BUILT_IN.put("vus", Type.GAUGE);
        BUILT_IN.put("vus_max", Type.GAUGE);
        for (String websocket : List.of("ws_sessions", "ws_msgs_sent", "ws_msgs_received")) {
            BUILT_IN.put(websocket, Type.COUNTER);
        }
        for (String websocket : List.of("ws_ping", "ws_session_duration", "ws_connecting")) {
            BUILT_IN.put(websocket, Type.TREND);
        }
        BUILT_IN.put("grpc_req_duration", Type.TREND);
        // What the generated script defines.
        for (int group = 0; group < LatencyBuckets.GROUPS; group++) {
            BUILT_IN.put(LatencyBuckets.groupMetric(group), Type.COUNTER);
        }
    }

    private static final Pattern NAME = Pattern.compile("^[A-Za-z_][A-Za-z0-9_]*$");
    private static final Pattern KEY = Pattern.compile("^([^{}]*)(?:\\{([^{}]*)\\})?$");

    private K6Metrics() {}

    /** The type of a metric the generated script always has, or empty for a name it does not know. */
    public static Optional<Type> type(String name) {
        return Optional.ofNullable(BUILT_IN.get(name));
    }

    /** The names of the metrics every generated script has, for messages. */
    public static List<String> knownNames() {
        return new ArrayList<>(BUILT_IN.keySet());
    }

    /** Scenario lock's own metrics: its group counts and the lock wait the target reports. */
    private static final Map<String, Type> LOCK = Map.of(
            LOCK_GROUPS, Type.COUNTER,
            LOCK_GROUPS_CORRECT, Type.COUNTER,
            LOCK_GROUPS_SEVERAL_WINNERS, Type.COUNTER,
            LOCK_GROUPS_NO_WINNER, Type.COUNTER,
            LOCK_GROUPS_WITH_ERRORS, Type.COUNTER,
            LOCK_WAIT, Type.TREND);

    /** The type of a metric the script of this scenario has: every script's, plus the scenario's own. */
    public static Optional<Type> type(String name, Scenario scenario) {
        Optional<Type> common = type(name);
        if (common.isPresent() || scenario != Scenario.LOCK) {
            return common;
        }
        return Optional.ofNullable(LOCK.get(name));
    }

    /** The metric names a threshold may use with this scenario, for messages. */
    public static List<String> knownNames(Scenario scenario) {
        List<String> names = knownNames();
        if (scenario == Scenario.LOCK) {
            LOCK.keySet().stream().sorted().forEach(names::add);
        }
        return names;
    }

    /**
     * Reads a threshold's key; the problem, as a sentence naming what to change, when it is not a metric name with
     * optional {@code {tag:value,...}} filters.
     */
    public static ParsedKey parseKey(String key) {
        Matcher matcher = KEY.matcher(key == null ? "" : key.strip());
        if (!matcher.matches()) {
            return ParsedKey.problem("write a metric name, optionally with tag filters in one pair of braces, e.g."
                    + " http_req_duration{name:upstream}");
        }
        String name = matcher.group(1).strip();
        if (!NAME.matcher(name).matches()) {
            return ParsedKey.problem(
                    "'" + name + "' is not a metric name: use letters, digits and '_', e.g." + " http_req_duration");
        }
        Map<String, String> tags = new LinkedHashMap<>();
        String filters = matcher.group(2);
        if (filters != null && !filters.isBlank()) {
            for (String filter : filters.split(",")) {
                int colon = filter.indexOf(':');
                String tag = colon < 0 ? "" : filter.substring(0, colon).strip();
                String value = colon < 0 ? "" : filter.substring(colon + 1).strip();
                if (tag.isEmpty() || value.isEmpty()) {
                    return ParsedKey.problem("the tag filter '" + filter.strip() + "' is not tag:value: write e.g."
                            + " " + name + "{name:upstream} or " + name + "{status:200}");
                }
                tags.put(tag, value);
            }
        }
        return new ParsedKey(Optional.of(new MetricKey(name, tags)), Optional.empty());
    }

    /** A read key, or why it could not be read. */
    public record ParsedKey(Optional<MetricKey> key, Optional<String> problem) {
        static ParsedKey problem(String problem) {
            return new ParsedKey(Optional.empty(), Optional.of(problem));
        }
    }
}
