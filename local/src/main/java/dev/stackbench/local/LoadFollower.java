package dev.stackbench.local;

import dev.stackbench.report.RequestTimeline;

/**
 * Follows a running k6 for the live progress line and the status' phases, one {@link #poll} a second: through the
 * per-second file of k6's stackbench output when k6 has it ({@link K6PerSecondTail}, which asks k6 nothing), else
 * through k6's REST API ({@link K6ApiFollower}).
 */
interface LoadFollower {

    /**
     * Takes in what k6 counted since the previous poll; a k6 that has not counted anything yet changes nothing.
     *
     * @return whether there was anything to read
     */
    boolean poll();

    /** The timeline of one scenario (e.g. "measure"); empty until a request of it was counted. */
    RequestTimeline timeline(String scenario);

    /** The second whose requests the progress line shows as the current rate. */
    long latestSecond();
}
