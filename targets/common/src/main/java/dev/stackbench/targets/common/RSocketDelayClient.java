package dev.stackbench.targets.common;

import io.rsocket.core.RSocketConnector;
import io.rsocket.exceptions.ApplicationErrorException;
import io.rsocket.metadata.WellKnownMimeType;
import io.rsocket.transport.netty.client.WebsocketClientTransport;
import java.net.URI;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.http.MediaType;
import org.springframework.http.codec.json.JacksonJsonDecoder;
import org.springframework.http.codec.json.JacksonJsonEncoder;
import org.springframework.messaging.rsocket.RSocketRequester;
import org.springframework.messaging.rsocket.RSocketStrategies;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;

/**
 * The delay service over RSocket, for {@code protocol=rsocket}: the request-stream route {@value #ROUTE} over
 * WebSocket on the delay service's HTTP port ({@code DELAY_SERVICE_URL} with ws instead of http, path
 * {@value #PATH}). One connection carries every call of the application, multiplexed; it is opened by the first
 * call (not at start, so a target may start before the delay service) and opened again by the next call once it
 * has closed or could not be opened. A call that cannot reach the delay service fails with a 502 that says where it
 * tried.
 *
 * <p>The Flux and Mono returned here do not block; the blocking variants call {@code block()} on them themselves.
 */
public class RSocketDelayClient implements AutoCloseable {

    public static final String ROUTE = "delay.items";
    public static final String PATH = "/rsocket";

    /** The route goes in composite metadata, as Spring's RSocketRequester sends it by default. */
    private static final MimeType COMPOSITE_METADATA =
            MimeTypeUtils.parseMimeType(WellKnownMimeType.MESSAGE_RSOCKET_COMPOSITE_METADATA.getString());

    private final URI uri;
    private final Mono<RSocketRequester> connection;
    private final AtomicReference<RSocketRequester> current = new AtomicReference<>();

    public RSocketDelayClient(String delayServiceUrl) {
        this.uri = websocketUri(delayServiceUrl);
        RSocketStrategies strategies = strategies();
        this.connection = RSocketConnector.create()
                .dataMimeType(MediaType.APPLICATION_JSON_VALUE)
                .metadataMimeType(COMPOSITE_METADATA.toString())
                .connect(WebsocketClientTransport.create(httpClient(uri), uri.getPath()))
                .map(rsocket ->
                        RSocketRequester.wrap(rsocket, MediaType.APPLICATION_JSON, COMPOSITE_METADATA, strategies))
                .doOnNext(current::set)
                // The open connection is shared until it closes; a failed connect is not kept, the next call tries.
                .cacheInvalidateIf(RSocketRequester::isDisposed);
    }

    /**
     * A connection of its own (not from a pool) on Reactor Netty's HTTP event loops, the ones WebClient and the
     * WebFlux server use, so an RSocket call completes on the same kind of thread as an HTTP call.
     */
    private static HttpClient httpClient(URI uri) {
        boolean secure = uri.getScheme().equals("wss");
        HttpClient client = HttpClient.newConnection()
                .host(uri.getHost())
                .port(uri.getPort() != -1 ? uri.getPort() : secure ? 443 : 80);
        return secure ? client.secure() : client;
    }

    /** JSON payloads; the delay service's route uses the same. */
    public static RSocketStrategies strategies() {
        return RSocketStrategies.builder()
                .encoder(new JacksonJsonEncoder())
                .decoder(new JacksonJsonDecoder())
                .build();
    }

    /** {@code http://host:port} becomes {@code ws://host:port/rsocket} (https: wss). */
    static URI websocketUri(String delayServiceUrl) {
        String base = delayServiceUrl.trim().replaceAll("/+$", "");
        if (base.startsWith("http://") || base.startsWith("https://")) {
            return URI.create("ws" + base.substring("http".length()) + PATH);
        }
        throw new IllegalArgumentException(
                "DELAY_SERVICE_URL must start with http:// or https://, got '" + delayServiceUrl + "'");
    }

    public URI uri() {
        return uri;
    }

    /** {@code count} seeded items, each {@code delayMs} after the previous one. */
    public Flux<Item> items(int delayMs, int count) {
        return connection
                .flatMapMany(requester -> requester
                        .route(ROUTE)
                        .data(new DelayItemsRequest(delayMs, count))
                        .retrieveFlux(Item.class))
                .onErrorMap(failure -> !(failure instanceof ApiException), this::failed);
    }

    /** One call: a stream of one item after {@code delayMs}, consumed to its end. */
    public Mono<Void> call(int delayMs) {
        return items(delayMs, 1).then();
    }

    /**
     * {@code calls} calls on the one connection: all subscribed at once (flatMap with a concurrency of {@code calls})
     * or each after the previous one has completed (concatMap). The first failure cancels the others.
     */
    public Mono<Void> fanout(int delayMs, int calls, FanoutMode mode) {
        Flux<Integer> each = Flux.range(0, calls);
        return switch (mode) {
            case PARALLEL -> each.flatMap(call -> call(delayMs), calls).then();
            case SEQUENTIAL -> each.concatMap(call -> call(delayMs)).then();
        };
    }

    /**
     * A 502 like the HTTP client's: the delay service's own refusal (an APPLICATION_ERROR frame) with its message,
     * else the connection problem (refused, closed, reset) and where the client tried.
     */
    private ApiException failed(Throwable failure) {
        if (failure instanceof ApplicationErrorException refused) {
            return new ApiException(
                    502,
                    "the delay service refused the call over RSocket (route " + ROUTE + "): " + refused.getMessage());
        }
        String reason = failure.getMessage() == null
                ? failure.getClass().getSimpleName()
                : failure.getClass().getSimpleName() + ": " + failure.getMessage();
        return new ApiException(
                502,
                "the delay service call over RSocket (" + uri + ", route " + ROUTE + ") failed (" + reason
                        + "): check DELAY_SERVICE_URL and that the delay service is running");
    }

    /** Closes the connection, if one is open. */
    @Override
    public void close() {
        RSocketRequester open = current.getAndSet(null);
        if (open != null) {
            open.dispose();
        }
    }
}
