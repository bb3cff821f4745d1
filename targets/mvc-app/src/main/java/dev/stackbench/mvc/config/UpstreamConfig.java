package dev.stackbench.mvc.config;

import dev.stackbench.targets.common.ReactiveDelayClient;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.web.reactive.function.client.WebClient;

@Configuration(proxyBeanMethods = false)
@Profile("mvc-webclient")
class UpstreamConfig {

    @Bean
    ReactiveDelayClient reactiveDelayClient(
            WebClient.Builder builder,
            @Value("${stackbench.upstream.url}") String delayServiceUrl,
            @Value("${stackbench.upstream.max-connections}") int maxConnections) {
        return new ReactiveDelayClient(builder, delayServiceUrl, maxConnections);
    }
}
