package dev.stackbench.targets.common;

import reactor.core.publisher.Mono;

/**
 * The delay service over the protocol a request asks for, as Monos: what the variants that never block on their
 * upstream calls (mvc-webclient and the WebFlux ones) compose, so each answers HTTP and RSocket the same way.
 */
public final class ReactiveUpstream {

    private final ReactiveDelayClient http;
    private final RSocketDelayClient rsocket;

    public ReactiveUpstream(ReactiveDelayClient http, RSocketDelayClient rsocket) {
        this.http = http;
        this.rsocket = rsocket;
    }

    /** One call of {@code delayMs}. */
    public Mono<Void> call(UpstreamProtocol protocol, int delayMs) {
        return switch (protocol) {
            case HTTP -> http.delay(delayMs);
            case RSOCKET -> rsocket.call(delayMs);
        };
    }

    /** {@code calls} calls of {@code delayMs}, all at once or one after another. */
    public Mono<Void> fanout(UpstreamProtocol protocol, int delayMs, int calls, FanoutMode mode) {
        return switch (protocol) {
            case HTTP -> http.fanout(delayMs, calls, mode);
            case RSOCKET -> rsocket.fanout(delayMs, calls, mode);
        };
    }
}
