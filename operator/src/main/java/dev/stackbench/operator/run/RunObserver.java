package dev.stackbench.operator.run;

import dev.stackbench.api.status.Phase;
import dev.stackbench.lifecycle.LoadStep;
import dev.stackbench.lifecycle.RunDriver;
import dev.stackbench.lifecycle.RunFacts;
import dev.stackbench.operator.PoolQueue;
import java.util.Optional;

/**
 * Observes a run in one pass, for {@link RunDriver#next}: its spec's violations, its node pools, readiness and the
 * state of the load under way, from the informers' caches (and the API server where the caches may lag). It changes
 * nothing; each stage knows how to read what it acts on.
 */
public final class RunObserver {

    private final Admission admission;
    private final Provisioning provisioning;
    private final LoadFollowing following;
    private final SteppedLoadStage steps;
    private final WorkVerification verification;

    public RunObserver(
            Admission admission,
            Provisioning provisioning,
            LoadFollowing following,
            SteppedLoadStage steps,
            WorkVerification verification) {
        this.admission = admission;
        this.verification = verification;
        this.provisioning = provisioning;
        this.following = following;
        this.steps = steps;
    }

    /** What the run looks like now. */
    public RunFacts observe(RunContext pass) {
        Optional<LoadStep> load = RunDriver.currentLoad(pass.progress(), pass.resolved());
        boolean handedOver = provisioning.loadHandedOver(pass);
        return new RunFacts(
                admission.violations(pass),
                pools(pass),
                handedOver,
                handedOver ? new RunFacts.Ready() : provisioning.readiness(pass),
                provisioning.readyLimit(pass),
                load.map(step -> steps.targetFresh(pass, step)).orElse(true),
                load.<RunFacts.LoadState>map(step -> following.state(pass, step))
                        .orElseGet(RunFacts.NotCreated::new),
                verification.verified(pass));
    }

    /** The run's node pools: free unless another run that came first holds one ({@link PoolQueue}). */
    private static RunFacts.Pools pools(RunContext pass) {
        if (pass.progress().reached(Phase.Provisioning)) {
            return new RunFacts.Pools(true, "the run holds its node pools");
        }
        return PoolQueue.waitFor(pass.progress().run(), pass.allRuns())
                .map(wait -> new RunFacts.Pools(false, wait.message()))
                .orElseGet(() -> new RunFacts.Pools(true, "no other run uses the node pools of this run"));
    }
}
