package dev.stackbench.k6;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small HTTP server on 127.0.0.1 answering {@code GET /api/upstream?delayMs=N} and {@code GET /api/fanout} as the
 * target contract says (after N ms, JSON naming the variant), creating orders and changing their status under a
 * per-order lock as the contract's {@code SELECT ... FOR UPDATE} does (one NEW -> PAID wins, the others get 409 with
 * the time they waited), and counting every request it served, warmup included. A server built with
 * {@code honourLock = false} lets every concurrent change win, the lost update the lock scenario must catch.
 */
public final class TinyTargetServer implements AutoCloseable {

    private final AtomicLong served = new AtomicLong();
    private final ExecutorService workers = Executors.newFixedThreadPool(64);
    private final HttpServer server;
    private final String variant;
    private final boolean honourLock;
    private final AtomicLong nextOrder = new AtomicLong();
    private final Map<Long, String> orders = new ConcurrentHashMap<>();
    private final long startedNanos = System.nanoTime();
    private volatile long stallEveryNanos;
    private volatile long stallNanos;

    public TinyTargetServer(String variant) throws IOException {
        this(variant, true);
    }

    public TinyTargetServer(String variant, boolean honourLock) throws IOException {
        this.variant = variant;
        this.honourLock = honourLock;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 256);
        server.setExecutor(workers);
        server.createContext("/api/upstream", this::answerUpstream);
        server.createContext("/api/fanout", this::answerUpstream);
        server.createContext("/api/orders", this::answerOrders);
        server.start();
    }

    /**
     * Makes the server stall: for {@code length} at the start of every {@code period} (counted from the server's
     * start) each request waits until the stall is over before it is answered, as a stop-the-world pause would.
     */
    public TinyTargetServer stallEvery(java.time.Duration period, java.time.Duration length) {
        stallNanos = length.toNanos();
        stallEveryNanos = period.toNanos();
        return this;
    }

    private void waitOutStall() {
        long every = stallEveryNanos;
        if (every <= 0) {
            return;
        }
        long phase = (System.nanoTime() - startedNanos) % every;
        if (phase < stallNanos) {
            sleepNanos(stallNanos - phase);
        }
    }

    private static void sleepNanos(long nanos) {
        try {
            Thread.sleep(java.time.Duration.ofNanos(nanos));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public long served() {
        return served.get();
    }

    private void answerUpstream(HttpExchange exchange) throws IOException {
        served.incrementAndGet();
        waitOutStall();
        URI uri = exchange.getRequestURI();
        String delay = uri.getQuery() == null ? "0" : uri.getQuery().replaceAll(".*delayMs=(\\d+).*", "$1");
        try {
            Thread.sleep(Long.parseLong(delay));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        String calls = uri.getQuery() == null || !uri.getQuery().contains("calls=")
                ? ""
                : ",\"count\":" + uri.getQuery().replaceAll(".*calls=(\\d+).*", "$1");
        byte[] body = ("{\"variant\":\"" + variant + "\",\"operation\":\"upstream\",\"thread\":\""
                        + Thread.currentThread().getName() + "\",\"virtual\":false,\"delayMs\":" + delay + calls
                        + ",\"protocol\":\"http\"}")
                .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    private void answerOrders(HttpExchange exchange) throws IOException {
        served.incrementAndGet();
        String path = exchange.getRequestURI().getPath();
        exchange.getRequestBody().readAllBytes();
        if (exchange.getRequestMethod().equals("POST") && path.equals("/api/orders")) {
            long id = nextOrder.incrementAndGet();
            orders.put(id, "NEW");
            send(exchange, 201, order(id, "NEW", null));
            return;
        }
        long id = Long.parseLong(path.replaceAll("^/api/orders/(\\d+)/status$", "$1"));
        long asked = System.nanoTime();
        Object lock = honourLock ? orders : new Object();
        synchronized (lock) {
            double waitedMs = (System.nanoTime() - asked) / 1e6;
            // Hold the lock as a transaction would, so that concurrent changes really queue.
            sleep(5);
            if (!orders.get(id).equals("NEW")) {
                send(
                        exchange,
                        409,
                        "{\"error\":\"order " + id + " is PAID\",\"status\":409,\"lockWaitMs\":" + waitedMs + "}");
                return;
            }
            if (honourLock) {
                orders.put(id, "PAID");
            }
            send(exchange, 200, order(id, "PAID", waitedMs));
        }
    }

    private String order(long id, String status, Double lockWaitMs) {
        return "{\"variant\":\"" + variant + "\",\"operation\":\"order\",\"orderId\":" + id + ",\"status\":\"" + status
                + "\"" + (lockWaitMs == null ? "" : ",\"lockWaitMs\":" + lockWaitMs) + "}";
    }

    private static void send(HttpExchange exchange, int status, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        workers.shutdownNow();
    }
}
