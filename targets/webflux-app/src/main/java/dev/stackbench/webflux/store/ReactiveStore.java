package dev.stackbench.webflux.store;

import dev.stackbench.targets.common.Item;
import dev.stackbench.targets.common.OrderRequests.CreateOrder;
import dev.stackbench.targets.common.OrderStatus;
import dev.stackbench.targets.common.StatusChange;
import java.util.List;
import reactor.core.publisher.Mono;

/** The database work behind the WebFlux endpoints; how it runs (R2DBC or JDBC, on which thread) is the variant. */
public interface ReactiveStore {

    Mono<Void> sleep(int millis);

    Mono<List<Item>> items(int count);

    Mono<Long> createOrder(CreateOrder order);

    Mono<StatusChange> changeStatus(long orderId, OrderStatus target);
}
