package dev.stackbench.mvc.config;

import dev.stackbench.targets.common.ApiResponses;
import dev.stackbench.targets.common.FanoutMode;
import dev.stackbench.targets.common.FanoutModes;
import dev.stackbench.targets.common.HostCpuMeter;
import dev.stackbench.targets.common.JdbcStore;
import dev.stackbench.targets.common.RSocketDelayClient;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

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
    JdbcStore jdbcStore(JdbcClient jdbc, TransactionTemplate transaction) {
        return new JdbcStore(jdbc, transaction);
    }

    /**
     * The delay service over RSocket ({@code protocol=rsocket}) in all three variants: one WebSocket connection, opened
     * by the first call and closed with the application.
     */
    @Bean
    RSocketDelayClient rsocketDelayClient(@Value("${stackbench.upstream.url}") String delayServiceUrl) {
        return new RSocketDelayClient(delayServiceUrl);
    }

    /**
     * One thread per request and nothing else: running the calls in parallel would take a second pool of platform
     * threads, which is another stack than the one this variant stands for.
     */
    @Bean
    @Profile("mvc-jdbc")
    FanoutModes sequentialFanout(ApiResponses responses) {
        return FanoutModes.only(
                responses.variant(),
                FanoutMode.SEQUENTIAL,
                "makes its upstream calls with a blocking client on the request thread");
    }

    /** The same blocking loop by default; in parallel each call gets a virtual thread of its own, which costs little. */
    @Bean
    @Profile("mvc-virtual-threads")
    FanoutModes virtualThreadFanout(ApiResponses responses) {
        return FanoutModes.all(responses.variant(), FanoutMode.SEQUENTIAL);
    }

    /** Monos compose in parallel as naturally as in sequence, and neither holds the Tomcat thread. */
    @Bean
    @Profile("mvc-webclient")
    FanoutModes webClientFanout(ApiResponses responses) {
        return FanoutModes.all(responses.variant(), FanoutMode.PARALLEL);
    }

    /** /actuator/info: what a benchmark result must record to be reproducible. */
    @Bean
    InfoContributor variantInfo(ApiResponses responses) {
        return builder -> builder.withDetail("variant", responses.variant())
                .withDetail("javaVersion", Runtime.version().toString())
                .withDetail("springBootVersion", SpringBootVersion.getVersion());
    }
}
