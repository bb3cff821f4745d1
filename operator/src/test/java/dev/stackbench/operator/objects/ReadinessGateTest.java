package dev.stackbench.operator.objects;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.stackbench.testcluster.ProjectTools;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The readiness gate's script as each runner's init container runs it, with the real k6 of the runners, against
 * health endpoints on 127.0.0.1: it holds the runner back until every endpoint answers 200, and gives up at its
 * deadline with a failure.
 */
class ReadinessGateTest {

    @Test
    void waitsUntilEveryEndpointAnswers200ThenLetsTheRunnerStart(@TempDir Path dir) throws Exception {
        Instant readyAt = Instant.now().plusMillis(1500);
        AtomicInteger asked = new AtomicInteger();
        HttpServer target = server(exchange -> {
            asked.incrementAndGet();
            return Instant.now().isBefore(readyAt) ? 503 : 200;
        });
        HttpServer delay = server(exchange -> 200);
        try {
            Instant started = Instant.now();
            Process gate = gate(dir, 30, url(target), url(delay));

            assertThat(gate.waitFor(30, TimeUnit.SECONDS)).as("the gate ended").isTrue();
            assertThat(gate.exitValue()).isZero();
            assertThat(Instant.now()).as("not before the target answered 200").isAfter(readyAt);
            // Asked every 200 ms while the target was not Ready: several times, not once per second or less.
            assertThat(asked.get()).isGreaterThan(3);
            assertThat(Duration.between(started, Instant.now())).isLessThan(Duration.ofSeconds(20));
        } finally {
            target.stop(0);
            delay.stop(0);
        }
    }

    @Test
    void givesUpAtItsDeadlineSoTheRunnerFails(@TempDir Path dir) throws Exception {
        HttpServer target = server(exchange -> 200);
        HttpServer delay = server(exchange -> 503);
        try {
            Process gate = gate(dir, 2, url(target), url(delay));

            assertThat(gate.waitFor(30, TimeUnit.SECONDS)).as("the gate ended").isTrue();
            assertThat(gate.exitValue())
                    .as("k6 exits non-zero: the runner pod fails")
                    .isNotZero();
        } finally {
            target.stop(0);
            delay.stop(0);
        }
    }

    private interface Status {
        int of(com.sun.net.httpserver.HttpExchange exchange);
    }

    private static HttpServer server(Status status) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/actuator/health", exchange -> {
            exchange.sendResponseHeaders(status.of(exchange), -1);
            exchange.close();
        });
        server.start();
        return server;
    }

    private static String url(HttpServer server) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/actuator/health";
    }

    private static Process gate(Path dir, long seconds, String... urls) throws IOException {
        Path k6 = ProjectTools.requireExecutable("STACKBENCH_K6", "k6 for the readiness gate");
        Path script = dir.resolve(ReadinessGate.SCRIPT_KEY);
        Files.writeString(script, ReadinessGate.SCRIPT);
        ProcessBuilder builder = new ProcessBuilder(
                        k6.toString(), "run", "--quiet", "--no-summary", "--log-output=none", script.toString())
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("k6.log").toFile());
        builder.environment().put("K6_NO_USAGE_REPORT", "true");
        builder.environment().put(ReadinessGate.URLS_ENV, String.join(" ", List.of(urls)));
        builder.environment().put(ReadinessGate.SECONDS_ENV, Long.toString(seconds));
        return builder.start();
    }
}
