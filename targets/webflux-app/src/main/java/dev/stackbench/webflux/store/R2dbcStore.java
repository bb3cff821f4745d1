package dev.stackbench.webflux.store;

import dev.stackbench.targets.common.Item;
import dev.stackbench.targets.common.OrderRequests;
import dev.stackbench.targets.common.OrderRequests.CreateOrder;
import dev.stackbench.targets.common.OrderStatus;
import dev.stackbench.targets.common.Sql;
import dev.stackbench.targets.common.StatusChange;
import java.util.List;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/** webflux-r2dbc: the same SQL as the JDBC variants over R2DBC; no thread waits for PostgreSQL. */
public class R2dbcStore implements ReactiveStore {

    private final DatabaseClient db;
    private final TransactionalOperator transaction;

    public R2dbcStore(DatabaseClient db, TransactionalOperator transaction) {
        this.db = db;
        this.transaction = transaction;
    }

    @Override
    public Mono<Void> sleep(int millis) {
        return db.sql(Sql.SLEEP).bind("seconds", Sql.seconds(millis)).then();
    }

    @Override
    public Mono<List<Item>> items(int count) {
        return db.sql(Sql.ITEMS)
                .bind("count", count)
                .map(row -> new Item(
                        row.get("id", Long.class),
                        row.get("name", String.class),
                        row.get("price_cents", Integer.class)))
                .all()
                .collectList();
    }

    @Override
    public Mono<Long> createOrder(CreateOrder order) {
        return db.sql(Sql.ITEM_PRICE)
                .bind("itemId", order.itemId())
                .map(row -> row.get("price_cents", Integer.class))
                .one()
                .switchIfEmpty(Mono.error(() -> OrderRequests.unknownItem(order.itemId())))
                .flatMap(priceCents -> db.sql(Sql.INSERT_ORDER)
                        .map(row -> row.get("id", Long.class))
                        .one()
                        .flatMap(orderId -> db.sql(Sql.INSERT_ORDER_LINE)
                                .bind("orderId", orderId)
                                .bind("itemId", order.itemId())
                                .bind("quantity", order.quantity())
                                .bind("priceCents", priceCents)
                                .then()
                                .thenReturn(orderId)))
                .as(transaction::transactional);
    }

    /**
     * SELECT ... FOR UPDATE inside the transaction, exactly like the JDBC variants. The transaction has begun on its
     * connection before this pipeline is subscribed, so the clock starts when the statement goes out.
     */
    @Override
    public Mono<StatusChange> changeStatus(long orderId, OrderStatus target) {
        return Mono.defer(() -> {
                    long lockSent = System.nanoTime();
                    return db.sql(Sql.LOCK_ORDER)
                            .bind("orderId", orderId)
                            .map(row -> row.get("status", String.class))
                            .one()
                            .switchIfEmpty(Mono.error(() -> OrderRequests.unknownOrder(orderId)))
                            .map(current -> StatusChange.afterLock(current, lockSent, target, orderId));
                })
                .flatMap(change -> db.sql(Sql.UPDATE_ORDER_STATUS)
                        .bind("status", change.status().name())
                        .bind("orderId", orderId)
                        .then()
                        .thenReturn(change))
                .as(transaction::transactional);
    }
}
