package dev.stackbench.operator;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Pages read through the API server's pod proxy (a target's /actuator pages) or from a kubelet (its cAdvisor metrics),
 * each with a byte limit and a time limit: the target's image is the user's choice, and a page that is huge or never
 * ends must cost the operator neither its heap nor a thread for longer than {@link #TIMEOUT}.
 */
public final class ProxyPages {

    /** The most of a target's /actuator/prometheus read: a Spring app's page is some 100 KiB. */
    public static final int PROMETHEUS_LIMIT = 16 * 1024 * 1024;

    /** The most of a target's /actuator/info read: a few KiB of build and Java facts. */
    public static final int INFO_LIMIT = 256 * 1024;

    /** The most of a kubelet's /metrics/cadvisor read: a few MiB on a node with a hundred pods. */
    public static final int CADVISOR_LIMIT = 64 * 1024 * 1024;

    /** How long one page may take, from the request to its last byte. */
    public static final Duration TIMEOUT = Duration.ofSeconds(20);

    /** A page that could not be read, or was refused; the message says which page and why. */
    public static final class Unreadable extends RuntimeException {
        Unreadable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Closes the streams of pages that take longer than {@link #TIMEOUT}: their reads then fail at once. */
    private static final ScheduledExecutorService DEADLINES = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "stackbench-page-deadlines");
        thread.setDaemon(true);
        return thread;
    });

    private final KubernetesClient client;

    public ProxyPages(KubernetesClient client) {
        this.client = client;
    }

    /**
     * The page at {@code path} of the API server, read whole unless it holds more than {@code limitBytes}.
     *
     * @param what the page as messages name it, e.g. "/actuator/prometheus of target pod x"
     * @throws Unreadable when the request failed, timed out, or the page was larger than the limit
     */
    public String get(String path, int limitBytes, String what) {
        return read(
                client.getHttpClient(), client.getMasterUrl().toString().replaceAll("/$", "") + path, limitBytes, what);
    }

    /**
     * The page at {@code url}, with the same limits, through {@code http}: a client that authenticates as the operator
     * (its service-account token or client certificate) and trusts the cluster's CA, e.g. for a kubelet's own API.
     */
    public static String read(HttpClient http, String url, int limitBytes, String what) {
        HttpRequest request = http.newHttpRequestBuilder()
                .uri(url)
                .timeout(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .build();
        long started = System.nanoTime();
        HttpResponse<InputStream> response;
        try {
            response = http.sendAsync(request, InputStream.class).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new Unreadable(what + " did not answer within " + TIMEOUT.toSeconds() + " s", e);
        } catch (ExecutionException e) {
            throw new Unreadable(what + " could not be read: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Unreadable(what + " was not read: the operator is stopping", e);
        }
        InputStream body = response.body();
        if (!response.isSuccessful()) {
            String start = body == null ? "" : BoundedReads.head(body, 512).strip();
            throw new Unreadable(
                    what + " answered HTTP " + response.code() + (start.isEmpty() ? "" : ": " + start), null);
        }
        if (body == null) {
            throw new Unreadable(what + " answered without a body", null);
        }
        long left = TIMEOUT.toNanos() - (System.nanoTime() - started);
        ScheduledFuture<?> deadline = DEADLINES.schedule(() -> close(body), Math.max(0, left), TimeUnit.NANOSECONDS);
        try {
            return BoundedReads.whole(body, limitBytes, what);
        } catch (BoundedReads.TooLarge e) {
            throw new Unreadable(e.getMessage() + ": refused", e);
        } catch (UncheckedIOException e) {
            boolean late = System.nanoTime() - started >= TIMEOUT.toNanos();
            throw new Unreadable(
                    what
                            + (late
                                    ? " was not read whole within " + TIMEOUT.toSeconds() + " s"
                                    : " could not be read: " + e.getCause().getMessage()),
                    e);
        } finally {
            deadline.cancel(false);
        }
    }

    private static void close(InputStream body) {
        try {
            body.close();
        } catch (IOException e) {
            // the read that was cut off says what happened
        }
    }
}
