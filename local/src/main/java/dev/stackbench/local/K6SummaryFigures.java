package dev.stackbench.local;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stackbench.report.RunDetails;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the report's error and per-request tables take from k6's end-of-test summary (k6-summary.json): the checks by
 * name with their passes and fails, and the latency and failure rate of each request name that has sub-metrics
 * (http_req_duration{name:...}). A summary without them gives empty lists.
 */
final class K6SummaryFigures {

    private static final Pattern NAMED = Pattern.compile("http_req_duration\\{(?:.*,)?name:([^,}]+)(?:,.*)?}");

    private K6SummaryFigures() {}

    static List<RunDetails.CheckCount> checks(Path summary) {
        JsonNode k6 = k6(summary);
        List<RunDetails.CheckCount> checks = new ArrayList<>();
        if (k6 != null) {
            collectChecks(k6.path("root_group"), checks);
        }
        return checks;
    }

    /** A group's checks, then those of its groups, depth first. */
    private static void collectChecks(JsonNode group, List<RunDetails.CheckCount> checks) {
        for (JsonNode check : group.path("checks")) {
            checks.add(new RunDetails.CheckCount(
                    check.path("name").asText(),
                    check.path("passes").asLong(),
                    check.path("fails").asLong()));
        }
        for (JsonNode child : group.path("groups")) {
            collectChecks(child, checks);
        }
    }

    static List<RunDetails.RequestNameFigures> requestNames(Path summary) {
        JsonNode k6 = k6(summary);
        List<RunDetails.RequestNameFigures> names = new ArrayList<>();
        if (k6 == null) {
            return names;
        }
        JsonNode metrics = k6.path("metrics");
        for (Iterator<Map.Entry<String, JsonNode>> it = metrics.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> metric = it.next();
            Matcher named = NAMED.matcher(metric.getKey());
            if (!named.matches()) {
                continue;
            }
            String name = named.group(1);
            JsonNode values = metric.getValue().path("values");
            JsonNode failed = metrics.path("http_req_failed{name:" + name + "}").path("values");
            names.add(new RunDetails.RequestNameFigures(
                    name,
                    values.has("count") ? values.path("count").asLong() : null,
                    number(values, "p(50)"),
                    number(values, "p(95)"),
                    number(values, "p(99)"),
                    number(values, "max"),
                    number(failed, "rate")));
        }
        return names;
    }

    private static Double number(JsonNode values, String field) {
        return values.has(field) && values.path(field).isNumber()
                ? values.path(field).asDouble()
                : null;
    }

    /** k6's own summary inside stackbench's (under "k6"), or the whole file when it is k6's alone. */
    private static JsonNode k6(Path summary) {
        JsonNode json = RunResults.json(summary);
        if (json == null) {
            return null;
        }
        return json.has("k6") ? json.path("k6") : json;
    }
}
