package dev.stackbench.operator.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.PromQLCheck;
import dev.stackbench.api.status.CheckResult;
import dev.stackbench.operator.ExampleRuns;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * How checks are judged from Prometheus' answers, against a stand-in that answers as Prometheus' query API does;
 * MonitoringE2E judges them against the real Prometheus after a real run.
 */
class PromQLChecksTest {

    @Test
    void firesOnAnySeriesOrANonZeroScalarAndSaysWhenACheckCouldNotBeEvaluated() throws Exception {
        Map<String, String> answers = Map.of(
                "up > 0",
                        "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
                                + "[{\"metric\":{},\"value\":[1,\"3\"]},{\"metric\":{},\"value\":[1,\"4\"]}]}}",
                "none", "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}",
                "scalar(0)", "{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":[1,\"0\"]}}",
                "bad(", "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"parse error\"}");
        List<String> asked = new ArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/v1/query", exchange -> {
            String query = exchange.getRequestURI().getRawQuery();
            String expr = URLDecoder.decode(
                    query.replaceFirst("^query=", "").replaceFirst("&time=.*$", ""), StandardCharsets.UTF_8);
            asked.add(expr + " @" + query.replaceFirst(".*&time=", ""));
            byte[] body = answers.getOrDefault(expr, answers.get("none")).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(expr.equals("bad(") ? 400 : 200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            BenchmarkRun run = ExampleRuns.webfluxR2dbc();
            run.getSpec()
                    .setChecks(List.of(
                            check("up > 0", PromQLCheck.CheckSeverity.error),
                            check("none", PromQLCheck.CheckSeverity.error),
                            check("scalar(0)", PromQLCheck.CheckSeverity.warning),
                            check("bad(", PromQLCheck.CheckSeverity.warning),
                            check("rate(x{r=\"$run\",n=\"$namespace\"}[$window])", PromQLCheck.CheckSeverity.error)));
            PromQLChecks checks = new PromQLChecks(
                    Optional.of("http://127.0.0.1:" + server.getAddress().getPort() + "/"));
            Instant start = Instant.ofEpochSecond(1_000);

            List<CheckResult> results = checks.evaluate(run, start, start.plusSeconds(40));

            assertThat(results).extracting(CheckResult::getFired).containsExactly(true, false, false, true, false);
            assertThat(results.get(0).getValue()).isEqualTo("3 (first of 2 series)");
            assertThat(results.get(0).getSeverity()).isEqualTo("error");
            assertThat(results.get(3).getValue()).startsWith("not evaluated: ").contains("bad_data parse error");
            assertThat(results.get(4).getExpr()).isEqualTo("rate(x{r=\"webflux-r2dbc\",n=\"bench\"}[40s])");
            // Every query at the end of the window.
            assertThat(asked).allMatch(line -> line.endsWith("@1040"));
        } finally {
            server.stop(0);
        }

        PromQLChecks nowhere = new PromQLChecks(Optional.of("http://127.0.0.1:9/"));
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        run.getSpec().setChecks(List.of(check("up", PromQLCheck.CheckSeverity.error)));
        CheckResult unreachable = nowhere.evaluate(run, Instant.EPOCH, Instant.EPOCH.plusSeconds(10))
                .get(0);
        assertThat(unreachable.getFired()).isTrue();
        assertThat(unreachable.getValue()).startsWith("not evaluated: ");

        assertThat(new PromQLChecks(Optional.empty()).unavailable(run))
                .hasValueSatisfying(why -> assertThat(why).contains("metrics.prometheusUrl"));
        assertThat(nowhere.unavailable(run)).isEmpty();
    }

    private static PromQLCheck check(String expr, PromQLCheck.CheckSeverity severity) {
        PromQLCheck check = new PromQLCheck();
        check.setExpr(expr);
        check.setSeverity(severity);
        return check;
    }
}
