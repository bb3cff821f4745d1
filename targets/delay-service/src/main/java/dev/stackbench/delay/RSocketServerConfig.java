package dev.stackbench.delay;

import dev.stackbench.targets.common.RSocketDelayClient;
import io.rsocket.core.RSocketServer;
import io.rsocket.transport.ServerTransport;
import io.rsocket.transport.netty.server.WebsocketRouteTransport;
import org.springframework.boot.reactor.netty.NettyRouteProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.messaging.rsocket.annotation.support.RSocketMessageHandler;
import reactor.netty.http.server.WebsocketServerSpec;

/**
 * RSocket over WebSocket on the HTTP port, at {@value RSocketDelayClient#PATH}: no second port to deploy or expose.
 * What Spring Boot's RSocket server support would configure with {@code spring.rsocket.server.transport=websocket}
 * and {@code mapping-path=/rsocket}, wired here by hand: a route of Reactor Netty's HTTP server that upgrades to
 * WebSocket and hands the connection to an RSocket server, whose requests Spring Messaging's
 * {@link RSocketMessageHandler} routes to the {@code @MessageMapping} methods ({@link DelayItemsController}).
 */
@Configuration(proxyBeanMethods = false)
class RSocketServerConfig {

    @Bean
    RSocketMessageHandler rsocketMessageHandler() {
        RSocketMessageHandler handler = new RSocketMessageHandler();
        handler.setRSocketStrategies(RSocketDelayClient.strategies());
        return handler;
    }

    @Bean
    RSocketConnections rsocketConnections() {
        return new RSocketConnections();
    }

    @Bean
    NettyRouteProvider rsocketOverWebSocket(RSocketMessageHandler handler, RSocketConnections connections) {
        ServerTransport.ConnectionAcceptor acceptor =
                RSocketServer.create(connections.tracking(handler.responder())).asConnectionAcceptor();
        return routes -> routes.ws(
                RSocketDelayClient.PATH,
                WebsocketRouteTransport.newHandler(acceptor),
                WebsocketServerSpec.builder().build());
    }
}
