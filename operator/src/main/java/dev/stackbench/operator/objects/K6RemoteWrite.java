package dev.stackbench.operator.objects;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Where the k6 runners send their metrics while they run, with k6's Prometheus remote-write output: trends (the
 * request durations) as native histograms, so that a Prometheus can compute the run's percentiles over all runners. The
 * series carry the run ({@code stackbench_run}), the load ({@code testrun_name}: the run, or a step's TestRun) and the
 * runner ({@code instance_id}), the last two added by k6-operator. The runners' NetworkPolicy then also lets them
 * reach the Prometheus pods named here, on the URL's port, and nothing else new.
 *
 * @param url the remote-write receiver, e.g. http://prometheus.monitoring:9090/api/v1/write
 * @param namespace the namespace of the Prometheus pods
 * @param podLabels labels that select the Prometheus pods
 */
public record K6RemoteWrite(String url, String namespace, Map<String, String> podLabels) {

    /** The receiver's URL (chart value k6.remoteWrite.url, or the bundled Prometheus). */
    public static final String URL_ENV = "STACKBENCH_K6_REMOTE_WRITE_URL";

    public static final String NAMESPACE_ENV = "STACKBENCH_K6_REMOTE_WRITE_NAMESPACE";

    /** Comma-separated key=value labels of the receiver's pods. */
    public static final String POD_LABELS_ENV = "STACKBENCH_K6_REMOTE_WRITE_POD_LABELS";

    public K6RemoteWrite {
        URI parsed = URI.create(url);
        if (parsed.getScheme() == null || parsed.getHost() == null) {
            throw new IllegalArgumentException(
                    URL_ENV + " '" + url + "' is not an http(s) URL with a host: set the"
                            + " chart value k6.remoteWrite.url to the receiver, e.g. http://prometheus.monitoring:9090/api/v1/write");
        }
        if (namespace == null || namespace.isBlank() || podLabels.isEmpty()) {
            throw new IllegalArgumentException("k6 remote write to " + url + " needs the namespace and the pod labels"
                    + " of the receiver (" + NAMESPACE_ENV + ", " + POD_LABELS_ENV + "; chart values"
                    + " k6.remoteWrite.namespace and k6.remoteWrite.podLabels), for the runners' NetworkPolicy");
        }
        podLabels = Map.copyOf(podLabels);
    }

    /** The receiver the chart configured, or none. */
    public static Optional<K6RemoteWrite> fromEnvironment() {
        return from(System.getenv());
    }

    static Optional<K6RemoteWrite> from(Map<String, String> env) {
        String url = env.get(URL_ENV);
        if (url == null || url.isBlank()) {
            return Optional.empty();
        }
        Map<String, String> labels = new LinkedHashMap<>();
        for (String pair : env.getOrDefault(POD_LABELS_ENV, "").split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            int equals = pair.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException(POD_LABELS_ENV + " holds '" + pair + "', not key=value: set the"
                        + " chart value k6.remoteWrite.podLabels as a map of labels");
            }
            labels.put(
                    pair.substring(0, equals).strip(),
                    pair.substring(equals + 1).strip());
        }
        return Optional.of(new K6RemoteWrite(url.strip(), env.get(NAMESPACE_ENV), labels));
    }

    /** The receiver's port: the URL's, else the scheme's. */
    public int port() {
        URI parsed = URI.create(url);
        return parsed.getPort() > 0 ? parsed.getPort() : "https".equals(parsed.getScheme()) ? 443 : 80;
    }
}
