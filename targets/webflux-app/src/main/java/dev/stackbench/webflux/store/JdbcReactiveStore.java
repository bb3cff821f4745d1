package dev.stackbench.webflux.store;

import dev.stackbench.targets.common.Item;
import dev.stackbench.targets.common.JdbcStore;
import dev.stackbench.targets.common.OrderRequests.CreateOrder;
import dev.stackbench.targets.common.OrderStatus;
import dev.stackbench.targets.common.StatusChange;
import java.util.List;
import java.util.concurrent.Callable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Blocking JDBC behind a reactive signature. The scheduler is the whole difference between two variants:
 * webflux-jdbc-blocking passes {@code Schedulers.immediate()}, so each call blocks the Netty event loop that
 * subscribed; webflux-jdbc-elastic passes {@code Schedulers.boundedElastic()}, Reactor's pool for blocking work.
 */
public class JdbcReactiveStore implements ReactiveStore {

    private final JdbcStore jdbc;
    private final Scheduler blockingWork;

    public JdbcReactiveStore(JdbcStore jdbc, Scheduler blockingWork) {
        this.jdbc = jdbc;
        this.blockingWork = blockingWork;
    }

    @Override
    public Mono<Void> sleep(int millis) {
        return call(() -> {
                    jdbc.sleep(millis);
                    return true;
                })
                .then();
    }

    @Override
    public Mono<List<Item>> items(int count) {
        return call(() -> jdbc.items(count));
    }

    @Override
    public Mono<Long> createOrder(CreateOrder order) {
        return call(() -> jdbc.createOrder(order));
    }

    @Override
    public Mono<StatusChange> changeStatus(long orderId, OrderStatus target) {
        return call(() -> jdbc.changeStatus(orderId, target));
    }

    private <T> Mono<T> call(Callable<T> blockingCall) {
        return Mono.fromCallable(blockingCall).subscribeOn(blockingWork);
    }
}
