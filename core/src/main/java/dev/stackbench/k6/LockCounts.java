package dev.stackbench.k6;

import dev.stackbench.api.status.LatencySummary;

/**
 * What one runner counted in scenario lock's measured groups of concurrent changes of one order.
 *
 * @param groups groups sent
 * @param correct groups with exactly one success and every other change refused with 409
 * @param severalWinners groups in which more than one change succeeded: the lock did not serialise them
 * @param noWinner groups in which every change was refused: none got the order
 * @param withErrors groups with an answer that was neither 200 nor 409 (an error; not judged for correctness)
 * @param waitMs the lock wait the target reported per change (k6's trend statistics, exact for this runner)
 * @param waitCount changes that reported a lock wait
 */
public record LockCounts(
        long groups,
        long correct,
        long severalWinners,
        long noWinner,
        long withErrors,
        LatencySummary waitMs,
        long waitCount) {}
