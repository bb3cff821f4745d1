package dev.stackbench.local;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/** Waits for a started service to answer, and fetches small documents from it (Actuator health and info). */
final class ServiceProbe {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    /** Spring Boot Actuator's health document of a healthy app. */
    private static final Pattern UP = Pattern.compile("\"status\"\\s*:\\s*\"UP\"");
    /** Pause between two health requests while a service starts. */
    private static final long POLL_MILLIS = 50;

    private ServiceProbe() {}

    /** Whether a health answer is Spring Boot's own, saying UP. */
    static boolean healthy(int status, String body) {
        return status == 200 && body != null && UP.matcher(body).find();
    }

    /**
     * Polls {@code healthUri} until it answers 200 with status UP. Fails fast, with the end of the process log, when the process
     * exits first; fails with a hint when it does not become healthy in time.
     */
    static void awaitHealthy(ManagedProcess process, URI healthUri, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String lastAnswer = "no answer yet";
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new LocalRunException(
                        process.name() + " exited (code " + process.process().exitValue()
                                + ") before it became healthy; last lines of " + process.logFile() + ":\n"
                                + tail(process.logFile(), 25));
            }
            try {
                HttpResponse<String> response = HTTP.send(
                        HttpRequest.newBuilder(healthUri)
                                .timeout(Duration.ofSeconds(2))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                // Spring Boot's own answer, not just any 200: another process on a reused port (k6's REST API answers
                // "ok" to every path) must not pass for a healthy app.
                if (healthy(response.statusCode(), response.body())) {
                    return;
                }
                lastAnswer = "HTTP " + response.statusCode() + " " + response.body();
            } catch (IOException e) {
                lastAnswer = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LocalRunException("interrupted while waiting for " + process.name());
            }
            try {
                // Every repetition waits here for its target, so a poll's delay adds to each one: a refused
                // connection costs the starting JVM nothing, and an answer that is not UP yet came from a JVM
                // that already served it.
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LocalRunException("interrupted while waiting for " + process.name());
            }
        }
        throw new LocalRunException(process.name() + " did not become healthy at " + healthUri + " within "
                + timeout.toSeconds() + "s (" + lastAnswer + "); the machine may be overloaded: see "
                + process.logFile() + ", last lines:\n" + tail(process.logFile(), 25));
    }

    static Optional<String> get(URI uri) {
        try {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(uri)
                            .timeout(Duration.ofSeconds(5))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? Optional.of(response.body()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    static String tail(Path file, int lines) {
        try {
            List<String> all = Files.readAllLines(file);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | RuntimeException e) {
            return "(log not readable: " + e.getMessage() + ")";
        }
    }
}
