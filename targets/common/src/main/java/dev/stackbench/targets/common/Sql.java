package dev.stackbench.targets.common;

/**
 * The statements every variant runs, with named parameters that both Spring's JdbcClient and R2DBC's DatabaseClient
 * understand, so JDBC and R2DBC variants send PostgreSQL exactly the same work.
 */
public final class Sql {

    public static final String SLEEP = "select pg_sleep(:seconds)";
    public static final String ITEMS = "select id, name, price_cents from items order by id limit :count";
    public static final String ITEM_PRICE = "select price_cents from items where id = :itemId";
    public static final String INSERT_ORDER = "insert into orders (status) values ('NEW') returning id";
    public static final String INSERT_ORDER_LINE = "insert into order_lines (order_id, item_id, quantity, price_cents)"
            + " values (:orderId, :itemId, :quantity, :priceCents)";
    public static final String LOCK_ORDER = "select status from orders where id = :orderId for update";
    public static final String UPDATE_ORDER_STATUS =
            "update orders set status = :status, updated_at = now() where id = :orderId";

    private Sql() {}

    public static double seconds(int millis) {
        return millis / 1000.0;
    }
}
