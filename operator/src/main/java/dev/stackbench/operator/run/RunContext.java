package dev.stackbench.operator.run;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.lifecycle.LoadStep;
import dev.stackbench.lifecycle.ResolvedRun;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.operator.ApiErrors;
import dev.stackbench.operator.OperatorSettings;
import dev.stackbench.operator.RunEvents;
import dev.stackbench.operator.RunLabels;
import dev.stackbench.operator.objects.K6TestRun;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What every stage works with in one pass over a run: the run with the spec it started with, its progress, the
 * operator's settings, the run's objects as the informers see them, and the writes that create or change them.
 */
public final class RunContext {

    private final Context<BenchmarkRun> context;
    private final OperatorSettings settings;
    private final RunProgress progress;
    private final BenchmarkRun run;
    private final ResolvedRun resolved;

    /** One pass over {@code run}, the run with the spec it started with, resolved (copied and defaulted) already. */
    public RunContext(
            Context<BenchmarkRun> context, OperatorSettings settings, RunProgress progress, BenchmarkRun run) {
        this.context = context;
        this.settings = settings;
        this.progress = progress;
        this.run = run;
        this.resolved = new ResolvedRun(
                run.getMetadata().getName(),
                run.getMetadata().getNamespace(),
                run.getMetadata().getGeneration(),
                run.getSpec());
    }

    BenchmarkRun run() {
        return run;
    }

    /** The run as the driver sees it: identity and the spec it started with, defaulted. */
    public ResolvedRun resolved() {
        return resolved;
    }

    /**
     * The run as the objects of one load are named after it: the run itself for its only load, a step's view of it
     * ({@link RunLabels#forStep}) for a step of a sweep or a capacity search.
     */
    BenchmarkRun view(LoadStep load) {
        return load.isStep() ? RunLabels.forStep(run, load.number(), load.spec()) : run;
    }

    /** Whether the run is a sweep or a capacity search: steps of load instead of one. */
    public boolean isStepped() {
        return run.getSpec().getWorkload().isStepped();
    }

    /** The run's progress in this pass: its status as it will be written. */
    public RunProgress progress() {
        return progress;
    }

    OperatorSettings settings() {
        return settings;
    }

    KubernetesClient client() {
        return context.getClient();
    }

    /** When the run got its pools: the timeout and the target's readiness limit count from there. */
    Instant start() {
        return progress.trueSince(RunProgress.POOLS_AVAILABLE).orElse(progress.now());
    }

    /** Every run the operator watches, for the pool queue. */
    List<BenchmarkRun> allRuns() {
        return context.getPrimaryCache().list().toList();
    }

    /**
     * The run's objects of one kind as the informers see them, without those an earlier BenchmarkRun of the same
     * name owns (still being deleted when the run was created again): a run never takes over another's objects.
     */
    <R extends HasMetadata> Set<R> secondaries(Class<R> type) {
        return context.getSecondaryResources(type).stream()
                .filter(resource -> !ownedByAnotherRun(resource))
                .collect(Collectors.toSet());
    }

    /**
     * The objects of an earlier BenchmarkRun of this name that are not gone yet, as "kind/name"; creating this run's
     * objects of the same names would take them over.
     */
    List<String> earlierRunsObjects() {
        return Stream.of(Deployment.class, Service.class, ConfigMap.class, GenericKubernetesResource.class)
                .flatMap(type -> context.getSecondaryResources(type).stream())
                .filter(this::ownedByAnotherRun)
                .map(resource -> resource.getKind().toLowerCase(java.util.Locale.ROOT) + "/"
                        + resource.getMetadata().getName())
                .sorted()
                .toList();
    }

    private boolean ownedByAnotherRun(HasMetadata resource) {
        String uid = run.getMetadata().getUid();
        return uid != null
                && resource.getMetadata().getOwnerReferences() != null
                && resource.getMetadata().getOwnerReferences().stream()
                        .anyMatch(owner -> BenchmarkRun.KIND.equals(owner.getKind()) && !uid.equals(owner.getUid()));
    }

    /** One of the run's objects by name, as the informers see it. */
    <R extends HasMetadata> Optional<R> secondary(Class<R> type, String name) {
        return secondaries(type).stream()
                .filter(resource -> name.equals(resource.getMetadata().getName()))
                .findFirst();
    }

    /** The run's pods of one role (target, delay service, database). */
    List<Pod> pods(String role) {
        return secondaries(Pod.class).stream()
                .filter(pod -> role.equals(pod.getMetadata().getLabels().get(RunLabels.ROLE)))
                .toList();
    }

    /** The k6 runner pods of the TestRun of {@code load}: the run, or a step's view of it. */
    List<Pod> runnerPods(BenchmarkRun load) {
        String testRunName = RunLabels.testRunName(load);
        return secondaries(Pod.class).stream()
                .filter(pod -> testRunName.equals(pod.getMetadata().getLabels().get(RunLabels.K6_TEST_RUN))
                        && "true".equals(pod.getMetadata().getLabels().get(RunLabels.K6_RUNNER)))
                .toList();
    }

    /**
     * Creates the Secret unless it exists: its content (a password made for the run) must never change once the
     * database was initialised with it, and the operator has no right to read Secrets back.
     */
    void createSecretOnce(Secret secret) {
        try {
            client().secrets()
                    .inNamespace(secret.getMetadata().getNamespace())
                    .resource(secret)
                    .create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw new ApiErrors.RequestFailed(ApiErrors.describe("create", secret), secret, e);
            }
        }
    }

    /** Creates the object unless the informers know it already. */
    <R extends HasMetadata> void applyIfMissing(R desired) {
        @SuppressWarnings("unchecked")
        Class<R> type = (Class<R>) desired.getClass();
        if (secondary(type, desired.getMetadata().getName()).isEmpty()) {
            apply(desired);
        }
    }

    /**
     * Creates or updates one of the run's objects (server-side apply). A failure carries what was asked and the
     * object, so the reconciler can tell a refused object from a missing right or a passing failure
     * ({@link ApiErrors}).
     */
    void apply(HasMetadata desired) {
        KubernetesClient client = client();
        try {
            if (desired instanceof GenericKubernetesResource generic) {
                client.genericKubernetesResources(K6TestRun.CONTEXT)
                        .inNamespace(generic.getMetadata().getNamespace())
                        .resource(generic)
                        .fieldManager(RunEvents.COMPONENT)
                        .forceConflicts()
                        .serverSideApply();
            } else {
                client.resource(desired)
                        .fieldManager(RunEvents.COMPONENT)
                        .forceConflicts()
                        .serverSideApply();
            }
        } catch (KubernetesClientException e) {
            throw new ApiErrors.RequestFailed(ApiErrors.describe("apply", desired), desired, e);
        }
    }
}
