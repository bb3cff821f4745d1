package dev.stackbench.operator.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.PromQLCheck;
import dev.stackbench.api.status.CheckResult;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A run's PromQL checks ({@code spec.checks}), judged against the Prometheus the chart names
 * ({@value #URL_ENV}: the bundled one, or {@code metrics.prometheusUrl}) once the run's results are read: each
 * expression, its placeholders replaced, is an instant query at the end of the measured window; it fires when it
 * returns a series (or a scalar other than 0), as an alert rule does. A check that cannot be evaluated (Prometheus
 * unreachable, a malformed expression) counts as fired and says why, since a check nobody could run passed nothing.
 */
public final class PromQLChecks {

    /** The Prometheus the operator queries (its HTTP API's base URL). */
    public static final String URL_ENV = "STACKBENCH_PROMETHEUS_URL";

    /** The reason of a run an error check failed. */
    public static final String CHECK_FAILED = "CheckFailed";

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final int MAX_ANSWER = 1024 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Optional<URI> prometheus;
    private final HttpClient http;

    public PromQLChecks() {
        this(Optional.ofNullable(System.getenv(URL_ENV))
                .filter(url -> !url.isBlank())
                .map(String::strip));
    }

    PromQLChecks(Optional<String> prometheus) {
        this.prometheus = prometheus.map(url -> URI.create(url.replaceAll("/+$", "")));
        this.http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    }

    /** Why the run's checks cannot be evaluated here, for admission; empty when it lists none or a Prometheus is known. */
    public Optional<String> unavailable(BenchmarkRun run) {
        List<PromQLCheck> checks = run.getSpec().getChecks();
        if (checks == null || checks.isEmpty() || prometheus.isPresent()) {
            return Optional.empty();
        }
        return Optional.of("spec.checks lists " + checks.size() + " PromQL check(s), but this operator knows no"
                + " Prometheus to evaluate them: install the chart with kube-prometheus-stack.enabled=true or set"
                + " metrics.prometheusUrl to a Prometheus in the cluster, or remove spec.checks");
    }

    /** Each check's result at the end of the measured window [{@code start}, {@code end}]. */
    public List<CheckResult> evaluate(BenchmarkRun run, Instant start, Instant end) {
        List<CheckResult> results = new ArrayList<>();
        List<PromQLCheck> checks = run.getSpec().getChecks();
        if (checks == null) {
            return results;
        }
        long window = Math.max(1, Duration.between(start, end).toSeconds());
        for (PromQLCheck check : checks) {
            String expr = check.getExpr()
                    .replace(PromQLCheck.RUN, run.getMetadata().getName())
                    .replace(PromQLCheck.NAMESPACE, run.getMetadata().getNamespace())
                    .replace(PromQLCheck.WINDOW, window + "s");
            CheckResult result = new CheckResult();
            result.setExpr(expr);
            result.setSeverity(
                    check.getSeverity() == null
                            ? PromQLCheck.CheckSeverity.error.name()
                            : check.getSeverity().name());
            result.setDescription(check.getDescription());
            try {
                Optional<String> value = query(expr, end);
                result.setFired(value.isPresent());
                result.setValue(value.orElse(null));
            } catch (IOException | RuntimeException e) {
                result.setFired(true);
                result.setValue("not evaluated: " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                result.setFired(true);
                result.setValue("not evaluated: the operator is stopping");
            }
            results.add(result);
        }
        return results;
    }

    /** The value of the first series the expression returns at {@code at}, empty when it returns none. */
    private Optional<String> query(String expr, Instant at) throws IOException, InterruptedException {
        URI uri = URI.create(prometheus.orElseThrow() + "/api/v1/query?query="
                + URLEncoder.encode(expr, StandardCharsets.UTF_8) + "&time=" + at.getEpochSecond());
        HttpResponse<String> answer = http.send(
                HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (answer.body().length() > MAX_ANSWER) {
            throw new IOException("Prometheus answered with more than " + MAX_ANSWER + " bytes");
        }
        JsonNode body = JSON.readTree(answer.body());
        if (!"success".equals(body.path("status").asText())) {
            throw new IOException("Prometheus at " + prometheus.get() + " answered HTTP " + answer.statusCode() + ": "
                    + body.path("errorType").asText() + " " + body.path("error").asText());
        }
        JsonNode data = body.path("data");
        JsonNode result = data.path("result");
        if ("scalar".equals(data.path("resultType").asText())) {
            String value = result.path(1).asText();
            return value.equals("0") ? Optional.empty() : Optional.of(value);
        }
        if (!result.isArray() || result.isEmpty()) {
            return Optional.empty();
        }
        JsonNode first = result.get(0);
        return Optional.of(
                first.path("value").path(1).asText(first.path("metric").toString())
                        + (result.size() > 1 ? " (first of " + result.size() + " series)" : ""));
    }
}
