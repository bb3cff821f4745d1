package dev.stackbench.stats;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The order in which a comparison runs its repetitions. Interleaved (the default): round after round, each round one
 * run of every variant in an order shuffled with the comparison's seed, so a slow drift of the machine (a warming
 * disk, a neighbour's load) falls on every variant alike rather than on whichever ran last. Sequential: every
 * repetition of the first variant, then of the next, for users who want the variants' runs side by side.
 */
public final class ComparisonPlan {

    /** One run of the plan: the variant's index in the comparison and its round (both from 1 in names, from 0 here). */
    public record Slot(int variant, int round) {}

    public enum Order {
        INTERLEAVED,
        SEQUENTIAL
    }

    private ComparisonPlan() {}

    public static List<Slot> of(int variants, int repetitions, Order order, long seed) {
        if (variants < 2) {
            throw new IllegalArgumentException("a comparison needs two or more variants, not " + variants);
        }
        if (repetitions < 1) {
            throw new IllegalArgumentException("repetitions must be at least 1, not " + repetitions);
        }
        List<Slot> slots = new ArrayList<>();
        if (order == Order.SEQUENTIAL) {
            for (int variant = 0; variant < variants; variant++) {
                for (int round = 0; round < repetitions; round++) {
                    slots.add(new Slot(variant, round));
                }
            }
            return slots;
        }
        Random random = new Random(seed);
        for (int round = 0; round < repetitions; round++) {
            List<Integer> indices = new ArrayList<>();
            for (int variant = 0; variant < variants; variant++) {
                indices.add(variant);
            }
            Collections.shuffle(indices, random);
            for (int variant : indices) {
                slots.add(new Slot(variant, round));
            }
        }
        return slots;
    }
}
