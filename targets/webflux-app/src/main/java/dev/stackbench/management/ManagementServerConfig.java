package dev.stackbench.management;

import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import reactor.netty.resources.LoopResources;

/**
 * The management server (its own port) on an event loop of its own, one thread named {@code stackbench-management-*}:
 * by default it shares reactor-netty's global event loop with the application, and a variant that blocks that loop
 * (webflux-jdbc-blocking) then leaves its metrics unanswered exactly when they matter. The application's requests
 * keep the loop they had; only the scrapes, about one a second, move. Outside the application's package, so that
 * its component scan leaves this to the management context.
 */
@ManagementContextConfiguration(ManagementContextType.CHILD)
class ManagementServerConfig {

    @Bean(destroyMethod = "dispose")
    LoopResources managementLoop() {
        return LoopResources.create("stackbench-management", 1, true);
    }

    @Bean
    WebServerFactoryCustomizer<NettyReactiveWebServerFactory> managementServerOnItsOwnLoop(
            LoopResources managementLoop) {
        return factory -> factory.addServerCustomizers(server -> server.runOn(managementLoop));
    }
}
