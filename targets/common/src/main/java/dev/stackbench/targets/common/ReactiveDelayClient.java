package dev.stackbench.targets.common;

import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * The delay service through WebClient, for the WebFlux variants and mvc-webclient. Reactor Netty's default pool
 * allows only 2 * max(cpus, 8) connections per host, which would cap upstream concurrency far below what the blocking
 * clients get; the pool here is sized by {@code UPSTREAM_MAX_CONNECTIONS} instead, so the variants are compared on
 * their threading, not on their client pool.
 */
public class ReactiveDelayClient {

    private final WebClient webClient;

    public ReactiveDelayClient(WebClient.Builder builder, String delayServiceUrl, int maxConnections) {
        ConnectionProvider pool = ConnectionProvider.builder("delay-service")
                .maxConnections(maxConnections)
                .pendingAcquireMaxCount(-1)
                .build();
        this.webClient = builder.baseUrl(delayServiceUrl)
                .clientConnector(new ReactorClientHttpConnector(HttpClient.create(pool)))
                .build();
    }

    public Mono<Void> delay(int delayMs) {
        return webClient
                .get()
                .uri("/delay?ms={ms}", delayMs)
                .retrieve()
                .toBodilessEntity()
                .then();
    }

    /**
     * {@code calls} delay calls: all subscribed at once (flatMap with a concurrency of {@code calls}, so none waits
     * for another) or each after the previous one has answered (concatMap). The first failure cancels the others.
     */
    public Mono<Void> fanout(int delayMs, int calls, FanoutMode mode) {
        Flux<Integer> each = Flux.range(0, calls);
        return switch (mode) {
            case PARALLEL -> each.flatMap(call -> delay(delayMs), calls).then();
            case SEQUENTIAL -> each.concatMap(call -> delay(delayMs)).then();
        };
    }
}
