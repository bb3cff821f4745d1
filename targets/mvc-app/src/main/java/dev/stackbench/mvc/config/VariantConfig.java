package dev.stackbench.mvc.config;

import dev.stackbench.targets.common.ApiResponses;
import dev.stackbench.targets.common.JdbcStore;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

@Configuration(proxyBeanMethods = false)
class VariantConfig {

    /** The variant's profile sets stackbench.variant; the application refuses to start without one. */
    @Bean
    ApiResponses apiResponses(@Value("${stackbench.variant}") String variant) {
        return new ApiResponses(variant);
    }

    @Bean
    JdbcStore jdbcStore(JdbcClient jdbc, TransactionTemplate transaction) {
        return new JdbcStore(jdbc, transaction);
    }

    /** /actuator/info: what a benchmark result must record to be reproducible. */
    @Bean
    InfoContributor variantInfo(ApiResponses responses) {
        return builder -> builder.withDetail("variant", responses.variant())
                .withDetail("javaVersion", Runtime.version().toString())
                .withDetail("springBootVersion", SpringBootVersion.getVersion());
    }
}
