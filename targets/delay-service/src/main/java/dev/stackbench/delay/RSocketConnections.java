package dev.stackbench.delay;

import io.rsocket.RSocket;
import io.rsocket.SocketAcceptor;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.context.SmartLifecycle;
import reactor.core.publisher.Mono;

/**
 * The open RSocket connections, closed when the application stops. A target keeps its one connection open for as
 * long as it runs, and to the web server's graceful shutdown an open WebSocket is a request still in progress: without
 * this, every stop of the delay service would wait the whole shutdown timeout (30 s) for connections that never end.
 * Streams still running when the service stops fail on the client, as a connection refused would.
 */
class RSocketConnections implements SmartLifecycle {

    private final Set<RSocket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean running;

    /** Registers every accepted connection (its requester side, whose disposal closes it) until it closes. */
    SocketAcceptor tracking(SocketAcceptor acceptor) {
        return (setup, connection) -> {
            open.add(connection);
            connection.onClose().doFinally(signal -> open.remove(connection)).subscribe();
            return Mono.defer(() -> acceptor.accept(setup, connection));
        };
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        open.forEach(RSocket::dispose);
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Before the web server's graceful shutdown (which stops in phase {@code DEFAULT_PHASE - 1024}). */
    @Override
    public int getPhase() {
        return DEFAULT_PHASE;
    }
}
