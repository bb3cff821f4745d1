package dev.stackbench.webflux.config;

import dev.stackbench.targets.common.ApiResponses;
import dev.stackbench.targets.common.BlockingSleep;
import dev.stackbench.targets.common.EventLoopBlockedMeter;
import dev.stackbench.targets.common.FanoutMode;
import dev.stackbench.targets.common.FanoutModes;
import dev.stackbench.targets.common.HostCpuMeter;
import dev.stackbench.targets.common.JdbcStore;
import dev.stackbench.targets.common.PoolThreadsMeter;
import dev.stackbench.targets.common.RSocketDelayClient;
import dev.stackbench.targets.common.ReactiveDelayClient;
import dev.stackbench.webflux.api.InProcessSleep;
import dev.stackbench.webflux.store.JdbcReactiveStore;
import dev.stackbench.webflux.store.R2dbcStore;
import dev.stackbench.webflux.store.ReactiveStore;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Wires the variant chosen by Spring profile; the three differ only in their {@link ReactiveStore} and the matching
 * {@link InProcessSleep}.
 */
@Configuration(proxyBeanMethods = false)
class VariantConfig {

    /** The machine's CPU ticks and those its hypervisor took, so a run can say its node lost CPU to other guests. */
    @Bean
    HostCpuMeter hostCpu() {
        return new HostCpuMeter();
    }

    /** The variant's profile sets stackbench.variant; the application refuses to start without one. */
    @Bean
    ApiResponses apiResponses(@Value("${stackbench.variant}") String variant) {
        return new ApiResponses(variant);
    }

    @Bean
    ReactiveDelayClient reactiveDelayClient(
            WebClient.Builder builder,
            @Value("${stackbench.upstream.url}") String delayServiceUrl,
            @Value("${stackbench.upstream.max-connections}") int maxConnections) {
        return new ReactiveDelayClient(builder, delayServiceUrl, maxConnections);
    }

    /**
     * The delay service over RSocket ({@code protocol=rsocket}) in every variant: one WebSocket connection, opened by
     * the first call and closed with the application.
     */
    @Bean
    RSocketDelayClient rsocketDelayClient(@Value("${stackbench.upstream.url}") String delayServiceUrl) {
        return new RSocketDelayClient(delayServiceUrl);
    }

    /**
     * WebClient in every variant, whatever its database access: the calls are subscribed all at once unless the
     * request asks for them one after another.
     */
    @Bean
    FanoutModes fanoutModes(ApiResponses responses) {
        return FanoutModes.all(responses.variant(), FanoutMode.PARALLEL);
    }

    @Bean
    @Profile("webflux-r2dbc")
    ReactiveStore r2dbcStore(DatabaseClient db, TransactionalOperator transaction) {
        return new R2dbcStore(db, transaction);
    }

    /** The anti-pattern, on purpose: JDBC runs on whichever event-loop thread subscribes. */
    @Bean
    @Profile("webflux-jdbc-blocking")
    ReactiveStore jdbcOnEventLoop(JdbcClient jdbc, TransactionTemplate transaction) {
        return new JdbcReactiveStore(new JdbcStore(jdbc, transaction), Schedulers.immediate());
    }

    @Bean
    @Profile("webflux-jdbc-elastic")
    ReactiveStore jdbcOnBoundedElastic(JdbcClient jdbc, TransactionTemplate transaction) {
        return new JdbcReactiveStore(new JdbcStore(jdbc, transaction), Schedulers.boundedElastic());
    }

    /** boundedElastic's live threads (it starts them on demand, up to 10 per CPU): how many were busy at once. */
    @Bean
    @Profile("webflux-jdbc-elastic")
    PoolThreadsMeter boundedElasticThreads() {
        return new PoolThreadsMeter("boundedElastic", "boundedElastic-");
    }

    /**
     * The event loop's threads found blocked at each scrape, for the variants whose thread pool the catalogue names as
     * the event loop (the others publish their offloading pool's threads instead): never, by design, on
     * webflux-r2dbc; on webflux-jdbc-blocking, for every database call and sleep.
     */
    @Bean
    @Profile({"webflux-r2dbc", "webflux-jdbc-blocking"})
    EventLoopBlockedMeter eventLoopBlockedThreads() {
        return new EventLoopBlockedMeter("reactor-netty event loop", "reactor-http-");
    }

    @Bean
    @Profile("webflux-r2dbc")
    InProcessSleep sleepOnTimer() {
        return millis -> Mono.delay(Duration.ofMillis(millis)).then();
    }

    @Bean
    @Profile("webflux-jdbc-blocking")
    InProcessSleep sleepOnEventLoop() {
        return millis -> Mono.fromRunnable(() -> BlockingSleep.sleep(millis));
    }

    @Bean
    @Profile("webflux-jdbc-elastic")
    InProcessSleep sleepOnBoundedElastic() {
        return millis ->
                Mono.<Void>fromRunnable(() -> BlockingSleep.sleep(millis)).subscribeOn(Schedulers.boundedElastic());
    }

    /** /actuator/info: what a benchmark result must record to be reproducible. */
    @Bean
    InfoContributor variantInfo(ApiResponses responses) {
        return builder -> builder.withDetail("variant", responses.variant())
                .withDetail("javaVersion", Runtime.version().toString())
                .withDetail("springBootVersion", SpringBootVersion.getVersion());
    }
}
