package dev.stackbench.targets.common;

/** One row of the seeded {@code items} table. */
public record Item(long id, String name, int priceCents) {

    /**
     * The seeded item {@code id} computed in place of read: the same formula as the seed in
     * {@code db/migration/V1__items_and_orders.sql} ({@code 'item-' || i}, {@code 100 + (i * 23) % 9900}).
     */
    public static Item seeded(long id) {
        return new Item(id, "item-" + id, (int) (100 + (id * 23) % 9900));
    }
}
