package dev.stackbench.targets.common;

import java.util.List;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The database work of every JDBC variant: honest blocking calls that hold the calling thread until PostgreSQL
 * answers. Which thread that is (Tomcat, virtual, event loop, boundedElastic) is what the variants differ in.
 */
public class JdbcStore {

    private final JdbcClient jdbc;
    private final TransactionTemplate transaction;

    public JdbcStore(JdbcClient jdbc, TransactionTemplate transaction) {
        this.jdbc = jdbc;
        this.transaction = transaction;
    }

    public void sleep(int millis) {
        jdbc.sql(Sql.SLEEP).param("seconds", Sql.seconds(millis)).query((RowCallbackHandler) row -> {});
    }

    public List<Item> items(int count) {
        return jdbc.sql(Sql.ITEMS)
                .param("count", count)
                .query((row, index) -> new Item(row.getLong("id"), row.getString("name"), row.getInt("price_cents")))
                .list();
    }

    /** Inserts the order and its line in one transaction, at the item's current price. */
    public long createOrder(OrderRequests.CreateOrder order) {
        return transaction.execute(status -> {
            int priceCents = jdbc.sql(Sql.ITEM_PRICE)
                    .param("itemId", order.itemId())
                    .query(Integer.class)
                    .optional()
                    .orElseThrow(() -> OrderRequests.unknownItem(order.itemId()));
            long orderId = jdbc.sql(Sql.INSERT_ORDER).query(Long.class).single();
            jdbc.sql(Sql.INSERT_ORDER_LINE)
                    .param("orderId", orderId)
                    .param("itemId", order.itemId())
                    .param("quantity", order.quantity())
                    .param("priceCents", priceCents)
                    .update();
            return orderId;
        });
    }

    /**
     * Locks the order row (SELECT ... FOR UPDATE) so concurrent changes queue up behind each other and each one sees
     * the status its predecessor committed: of three concurrent NEW -> PAID, one wins and two get a conflict. The
     * transaction holds its connection already, so the time around the statement is the lock wait plus one round
     * trip.
     */
    public StatusChange changeStatus(long orderId, OrderStatus target) {
        return transaction.execute(status -> {
            long lockSent = System.nanoTime();
            String current = jdbc.sql(Sql.LOCK_ORDER)
                    .param("orderId", orderId)
                    .query(String.class)
                    .optional()
                    .orElseThrow(() -> OrderRequests.unknownOrder(orderId));
            StatusChange change = StatusChange.afterLock(current, lockSent, target, orderId);
            jdbc.sql(Sql.UPDATE_ORDER_STATUS)
                    .param("status", change.status().name())
                    .param("orderId", orderId)
                    .update();
            return change;
        });
    }
}
