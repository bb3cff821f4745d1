package dev.stackbench.operator.run;

import dev.stackbench.api.BenchmarkRun;
import dev.stackbench.api.Durations;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.operator.RunLabels;
import dev.stackbench.validation.SpecValidator;
import dev.stackbench.validation.Violation;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Pending: whether the run may go on at all. Its spec must be valid and its variant in the catalogue; a spec changed
 * after the start is ignored, saying so; and once spec.timeout has passed the run fails (TimedOut), whatever it was
 * doing.
 */
public final class Admission {

    /** On the run's script ConfigMap: the generation of the spec the run started with. */
    static final String SPEC_GENERATION_ANNOTATION = "stackbench.dev/spec-generation";

    private final SpecValidator validator;

    public Admission(VariantCatalogue catalogue) {
        this.validator = new SpecValidator(catalogue);
    }

    /** Accepts the run, or fails it on its spec; returns true when it failed. */
    public boolean admit(RunContext pass) {
        RunProgress progress = pass.progress();
        BenchmarkRun run = pass.run();
        progress.accepted();
        // The API server checked the schema and CEL rules; the catalogue (the variant) and k6's thresholds only the
        // operator knows: a spec breaking them fails here, before the run takes its pools or creates anything.
        List<Violation> violations = validator.validate(run.getSpec());
        if (!violations.isEmpty()) {
            progress.fail(
                    "InvalidSpec", violations.stream().map(Violation::toString).collect(Collectors.joining("; ")));
            return true;
        }
        Optional<Long> started = startedGeneration(pass);
        if (started.isPresent() && !Objects.equals(run.getMetadata().getGeneration(), started.get())) {
            progress.condition(
                    RunProgress.SPEC_CHANGE_IGNORED,
                    true,
                    "RunInProgress",
                    "the spec changed (generation "
                            + run.getMetadata().getGeneration() + ") after the run started with generation "
                            + started.get() + ": the run continues with the spec it started with; create a new"
                            + " BenchmarkRun to run the changed spec");
        }
        return false;
    }

    /** Fails the run once spec.timeout has passed since it got its pools; else asks to be back by then. */
    public boolean failWhenTimedOut(RunContext pass) {
        RunProgress progress = pass.progress();
        BenchmarkRun run = pass.run();
        Duration timeout = Durations.parse(run.getSpec().getTimeout());
        Instant start = pass.start();
        if (progress.now().isAfter(start.plus(timeout))) {
            progress.fail(
                    "TimedOut",
                    "the run did not finish within spec.timeout ("
                            + run.getSpec().getTimeout()
                            + "); it was in phase " + progress.phase() + ": "
                            + progress.status().getMessage()
                            + ". Raise spec.timeout or look at the events of the run");
            return true;
        }
        progress.checkAgainIn(
                Duration.between(progress.now(), start.plus(timeout)).plusMillis(100));
        return false;
    }

    /** The generation of the spec the run started with, once it started (recorded on its script ConfigMap). */
    private static Optional<Long> startedGeneration(RunContext pass) {
        return pass.secondary(ConfigMap.class, RunLabels.scriptConfigMapName(pass.run()))
                .map(configMap -> configMap.getMetadata().getAnnotations())
                .map(annotations -> annotations.get(SPEC_GENERATION_ANNOTATION))
                .map(Long::valueOf);
    }
}
