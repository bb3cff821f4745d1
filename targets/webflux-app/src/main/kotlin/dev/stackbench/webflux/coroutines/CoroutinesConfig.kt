package dev.stackbench.webflux.coroutines

import dev.stackbench.targets.common.JdbcStore
import dev.stackbench.targets.common.PoolThreadsMeter
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import org.springframework.context.annotation.Profile
import org.springframework.jdbc.core.simple.JdbcClient
import org.springframework.transaction.support.TransactionTemplate

/** Wires webflux-coroutines: the JDBC variants' store on Hikari (DB_POOL_SIZE connections) and its pool's gauge. */
@Configuration(proxyBeanMethods = false)
@Profile("webflux-coroutines")
class CoroutinesConfig {

    @Bean fun jdbcStore(jdbc: JdbcClient, transaction: TransactionTemplate) = JdbcStore(jdbc, transaction)

    /**
     * Dispatchers.IO's live threads. Its workers (`DefaultDispatcher-worker-N`) are shared with Dispatchers.Default,
     * which nothing here uses; they start on demand and an idle one stops after 60 s.
     */
    @Bean fun dispatchersIoThreads() = PoolThreadsMeter("Dispatchers.IO", "DefaultDispatcher-worker-")
}
