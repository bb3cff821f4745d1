package dev.stackbench.contract;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A small JSON-over-HTTP client for the contract checks. */
final class Http implements AutoCloseable {

    record Response(int status, String body, JsonNode json) {

        @Override
        public String toString() {
            return status + " " + body;
        }
    }

    static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    HttpClient client() {
        return client;
    }

    Response get(String url) {
        return send(request(url).GET().build());
    }

    /** A GET that times out after {@code timeout} rather than the default minute. */
    Response get(String url, Duration timeout) {
        return send(request(url).timeout(timeout).GET().build());
    }

    /**
     * A GET on a connection of its own, closed after the answer. The shared client's pool once handed a scrape a
     * kept-alive connection on which the request never reached the server; a check that times an answer must not
     * depend on the state of a connection another request left behind.
     */
    static Response getOnNewConnection(String url, Duration timeout) {
        try (Http once = new Http()) {
            return once.sendOnce(request(url).timeout(timeout).GET().build());
        }
    }

    @Override
    public void close() {
        client.close();
    }

    Response post(String url, String json) {
        return send(request(url)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build());
    }

    Response put(String url, String json) {
        return send(putRequest(url, json));
    }

    CompletableFuture<Response> getAsync(String url) {
        return client.sendAsync(request(url).GET().build(), HttpResponse.BodyHandlers.ofString())
                .thenApply(Http::parse);
    }

    CompletableFuture<Response> putAsync(String url, String json) {
        return client.sendAsync(putRequest(url, json), HttpResponse.BodyHandlers.ofString())
                .thenApply(Http::parse);
    }

    /**
     * Sends on the shared client. A GET unanswered until its timeout is asked once more on a connection of its own,
     * saying so: the shared client's pool has handed requests (scrapes, and once a delay-service call) a kept-alive
     * connection on which they never reached the server, which answered at once on a new one.
     */
    Response send(HttpRequest request) {
        try {
            return sendOnce(request);
        } catch (UncheckedIOException e) {
            if (!(e.getCause() instanceof HttpTimeoutException)
                    || !request.method().equals("GET")) {
                throw e;
            }
            System.err.printf(
                    "GET %s unanswered within %s on the shared client; asking again on a new connection%n",
                    request.uri(), request.timeout().map(Duration::toString).orElse("its timeout"));
            try (Http once = new Http()) {
                return once.sendOnce(request);
            }
        }
    }

    private Response sendOnce(HttpRequest request) {
        try {
            return parse(client.send(request, HttpResponse.BodyHandlers.ofString()));
        } catch (IOException e) {
            throw new UncheckedIOException(request.method() + " " + request.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static HttpRequest.Builder request(String url) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60));
    }

    private static HttpRequest putRequest(String url, String json) {
        return request(url)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json))
                .build();
    }

    private static Response parse(HttpResponse<String> response) {
        String body = response.body();
        JsonNode json = null;
        String contentType = response.headers().firstValue("Content-Type").orElse("");
        if (contentType.contains("json") && !body.isEmpty()) {
            json = JSON.readTree(body);
        }
        return new Response(response.statusCode(), body, json);
    }
}
