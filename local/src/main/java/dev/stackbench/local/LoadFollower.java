package dev.stackbench.local;

import dev.stackbench.report.RequestTimeline;
import java.nio.file.Path;

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

    /** Once k6 has exited and written its summary there: adds what the polls missed, if the follower needs it. */
    default void finish(Path k6Summary) {}

    /**
     * The follower for a k6 with the stackbench output (its per-second file), else for one without it (its REST API
     * at {@code apiAddress}).
     */
    static LoadFollower of(boolean perSecondOutput, String apiAddress, Path perSecondFile) {
        return perSecondOutput ? new K6PerSecondTail(perSecondFile) : new K6ApiFollower(apiAddress);
    }
}
