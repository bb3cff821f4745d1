package dev.stackbench.k6;

/**
 * Environment variables the generated script reads through {@code __ENV}, and the names that tie the script to the
 * parser. k6 passes the process environment to {@code __ENV}; {@code k6 run -e NAME=value} works too.
 */
public final class K6Env {

    /** Base URL of the target's API, e.g. http://127.0.0.1:8080 (required in practice; that is the default). */
    public static final String BASE_URL = "STACKBENCH_BASE_URL";
    /** Variant every response must report; defaults to spec.target.variant baked into the script. */
    public static final String VARIANT = "STACKBENCH_VARIANT";
    /** When set, handleSummary also writes the summary block's JSON to this file (local mode). */
    public static final String SUMMARY_FILE = "STACKBENCH_SUMMARY_FILE";
    /** Optional runner label copied into the summary (e.g. the k6-operator runner index). */
    public static final String RUNNER_ID = "STACKBENCH_RUNNER_ID";
    /** k6's own switch that stops it from reporting usage to Grafana: a run sends nothing beyond its target. */
    public static final String NO_USAGE_REPORT = "K6_NO_USAGE_REPORT";

    /** Scenario names in the script's options; every reported figure uses {@link #MEASURE} only. */
    public static final String WARMUP_SCENARIO = "warmup";

    public static final String MEASURE_SCENARIO = "measure";

    /** Lines around the summary JSON on stdout (the operator reads it from runner pod logs). */
    public static final String SUMMARY_BEGIN = "=====STACKBENCH-K6-SUMMARY-BEGIN v1=====";

    public static final String SUMMARY_END = "=====STACKBENCH-K6-SUMMARY-END=====";
    /** Value of the "format" field of the summary JSON. */
    public static final String SUMMARY_FORMAT = "stackbench-k6-summary/1";

    /** k6's exit code when thresholds failed: the run completed and its results are valid. */
    public static final int EXIT_THRESHOLDS_FAILED = 99;

    /**
     * Counter of measured responses completed after the measured window closed (during the graceful stop). The
     * window's completions, the numerator of rps, are the measured responses less these plus {@link
     * #WINDOW_FROM_WARMUP_METRIC}.
     */
    public static final String WINDOW_LATE_METRIC = "stackbench_window_late";

    /** Counter of warmup responses completed inside the measured window. */
    public static final String WINDOW_FROM_WARMUP_METRIC = "stackbench_window_from_warmup";

    /** "http_req_duration" -> "http_req_duration{scenario:measure}"; existing tag filters are kept. */
    public static String measureMetric(String metric) {
        String tag = "scenario:" + MEASURE_SCENARIO;
        int brace = metric.indexOf('{');
        if (brace < 0) {
            return metric + "{" + tag + "}";
        }
        if (metric.contains(tag)) {
            return metric;
        }
        String filters = metric.substring(brace + 1, metric.lastIndexOf('}')).trim();
        return metric.substring(0, brace) + "{" + (filters.isEmpty() ? "" : filters + ",") + tag + "}";
    }

    private K6Env() {}
}
