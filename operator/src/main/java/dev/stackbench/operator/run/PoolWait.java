package dev.stackbench.operator.run;

import dev.stackbench.api.Phase;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.operator.PoolQueue;
import java.util.Optional;

/** Queued: the run waits while another run holds one of its node pools ({@link PoolQueue}). */
public final class PoolWait {

    /** Takes the run's pools, or queues it behind the run that holds one; returns true while it waits. */
    public boolean waitForPools(RunContext pass) {
        RunProgress progress = pass.progress();
        if (progress.reached(Phase.Provisioning)) {
            return false;
        }
        Optional<PoolQueue.Wait> wait = PoolQueue.waitFor(progress.run(), pass.allRuns());
        if (wait.isPresent()) {
            progress.moveTo(Phase.Queued, "WaitingForPool", wait.get().message());
            progress.condition(
                    RunProgress.POOLS_AVAILABLE,
                    false,
                    "WaitingForPool",
                    wait.get().message());
            progress.status().setMessage(wait.get().message());
            progress.checkAgainIn(pass.settings().pollInterval());
            return true;
        }
        progress.poolsAcquired("no other run uses the node pools of this run");
        return false;
    }
}
