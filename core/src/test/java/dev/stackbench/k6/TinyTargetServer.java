package dev.stackbench.k6;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small HTTP server on 127.0.0.1 answering {@code GET /api/upstream?delayMs=N} as the target contract says (after
 * N ms, JSON naming the variant), and counting every request it served, warmup included.
 */
public final class TinyTargetServer implements AutoCloseable {

    private final AtomicLong served = new AtomicLong();
    private final ExecutorService workers = Executors.newFixedThreadPool(16);
    private final HttpServer server;
    private final String variant;

    public TinyTargetServer(String variant) throws IOException {
        this.variant = variant;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        server.setExecutor(workers);
        server.createContext("/api/upstream", this::answerUpstream);
        server.start();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public long served() {
        return served.get();
    }

    private void answerUpstream(HttpExchange exchange) throws IOException {
        served.incrementAndGet();
        URI uri = exchange.getRequestURI();
        String delay = uri.getQuery() == null ? "0" : uri.getQuery().replaceAll(".*delayMs=(\\d+).*", "$1");
        try {
            Thread.sleep(Long.parseLong(delay));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        byte[] body = ("{\"variant\":\"" + variant + "\",\"operation\":\"upstream\",\"thread\":\""
                        + Thread.currentThread().getName() + "\",\"virtual\":false,\"delayMs\":" + delay + "}")
                .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
        workers.shutdownNow();
    }
}
