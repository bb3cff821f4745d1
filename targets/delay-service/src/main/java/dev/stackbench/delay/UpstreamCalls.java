package dev.stackbench.delay;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.stereotype.Component;

/**
 * Counts the calls the delay service answers, by protocol, as {@value #METRIC} on /actuator/prometheus. A benchmark
 * reads it before and after a few requests to learn how many upstream calls each request of a variant makes: a
 * variant that calls twice, or caches and never calls, would otherwise win or lose for the wrong reason.
 */
@Component
class UpstreamCalls {

    /** The counter's name as Micrometer knows it; Prometheus shows it with a {@code _total} suffix. */
    static final String METRIC = "stackbench.delay.calls";

    private final Counter http;
    private final Counter rsocket;

    UpstreamCalls(MeterRegistry registry) {
        this.http = counter(registry, "http");
        this.rsocket = counter(registry, "rsocket");
    }

    private static Counter counter(MeterRegistry registry, String protocol) {
        return Counter.builder(METRIC)
                .description("Calls answered by the delay service (GET /delay, or one RSocket stream)")
                .tag("protocol", protocol)
                .register(registry);
    }

    void http() {
        http.increment();
    }

    void rsocket() {
        rsocket.increment();
    }
}
