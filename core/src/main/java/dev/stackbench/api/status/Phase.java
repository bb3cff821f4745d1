package dev.stackbench.api.status;

/**
 * The phases of a run, in the order they happen. A run only moves forward; Failed can follow any phase that is not
 * terminal.
 */
public enum Phase {
    Pending,
    Queued,
    Provisioning,
    WarmingUp,
    Running,
    Collecting,
    Succeeded,
    Failed;

    public boolean isTerminal() {
        return this == Succeeded || this == Failed;
    }

    /** True when moving from this phase to {@code next} keeps the run moving forward (or stays). */
    public boolean canMoveTo(Phase next) {
        if (next == null) {
            return false;
        }
        if (isTerminal()) {
            return next == this;
        }
        return next.ordinal() >= ordinal();
    }

    /** Null (no phase yet) counts as before Pending. */
    public static boolean canMove(Phase current, Phase next) {
        return current == null ? next != null : current.canMoveTo(next);
    }
}
