package dev.stackbench.webflux.api;

import reactor.core.publisher.Mono;

/**
 * How a variant waits inside its own process for the sleep endpoint: on a timer (webflux-r2dbc) or with
 * {@code Thread.sleep} on the thread that runs it (the event loop for webflux-jdbc-blocking, boundedElastic for
 * webflux-jdbc-elastic), the same threads each variant gives its JDBC calls.
 */
@FunctionalInterface
public interface InProcessSleep {

    Mono<Void> sleep(int millis);
}
