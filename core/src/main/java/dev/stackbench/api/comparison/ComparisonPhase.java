package dev.stackbench.api.comparison;

/** The phases of a comparison: waiting to start, running its repetitions one at a time, and done. */
public enum ComparisonPhase {
    Pending,
    Running,
    Succeeded,
    Failed;

    public boolean isTerminal() {
        return this == Succeeded || this == Failed;
    }
}
