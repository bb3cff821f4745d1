package dev.stackbench.operator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;

/** /healthz (liveness) and /readyz (readiness) for the kubelet's probes, on a port of its own. */
public final class HealthServer implements AutoCloseable {

    private final HttpServer server;

    public HealthServer(String bindAddress, int port, BooleanSupplier alive, BooleanSupplier ready) {
        try {
            server = HttpServer.create(new InetSocketAddress(bindAddress, port), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot listen on " + bindAddress + ":" + port + " for health checks: " + e.getMessage()
                            + "; choose another port with --health-port",
                    e);
        }
        server.createContext("/healthz", exchange -> answer(exchange, alive.getAsBoolean()));
        server.createContext("/readyz", exchange -> answer(exchange, ready.getAsBoolean()));
        server.setExecutor(Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "stackbench-health");
            thread.setDaemon(true);
            return thread;
        }));
        server.start();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private static void answer(HttpExchange exchange, boolean ok) throws IOException {
        byte[] body = (ok ? "ok\n" : "not ready\n").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(ok ? 200 : 503, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
