package dev.stackbench.targets.common;

/** One row of the seeded {@code items} table. */
public record Item(long id, String name, int priceCents) {}
