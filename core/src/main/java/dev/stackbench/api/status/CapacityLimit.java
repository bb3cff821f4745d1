package dev.stackbench.api.status;

/** What ended a capacity search. */
public enum CapacityLimit {
    /** The objective held at one rate and broke at a higher one, within the asked resolution. */
    Target,
    /** The load generator could not deliver a probe's rate: the capacity found is a lower bound. */
    Generator,
    /** The objective still held at capacity.to, the highest rate the search may probe. */
    Range,
    /** The objective broke already at capacity.from, the lowest rate the search may probe. */
    Floor
}
