package dev.stackbench.operator.run;

import dev.stackbench.api.SpecRules;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.Phase;
import dev.stackbench.catalogue.VariantCatalogue;
import dev.stackbench.lifecycle.RunDriver;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.operator.OperatorSettings;
import dev.stackbench.operator.RunLabels;
import dev.stackbench.validation.SpecValidator;
import dev.stackbench.validation.Violation;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Pending: what the operator alone can say about a spec. The API server checked the schema and CEL rules; the
 * catalogue (the variant) and k6's thresholds only the operator knows, so a spec breaking them fails before the run
 * takes its pools or creates anything. So does a spec the cluster's {@link AdmissionPolicy} refuses, with a reason of
 * its own: the spec is valid, the cluster does not run it. A spec changed after the start is ignored, saying so.
 */
public final class Admission {

    /** The reason of a run the cluster's policy refuses. */
    public static final String REFUSED_BY_POLICY = "RefusedByPolicy";

    /** On the run's script ConfigMap: the generation of the spec the run started with. */
    static final String SPEC_GENERATION_ANNOTATION = "stackbench.dev/spec-generation";

    private final SpecValidator validator;
    private final PolicyCheck policy;
    private final PromQLChecks checks = new PromQLChecks();

    /** The reason of a run that lists PromQL checks where the operator knows no Prometheus. */
    public static final String CHECKS_NEED_PROMETHEUS = "ChecksNeedPrometheus";

    public Admission(VariantCatalogue catalogue, OperatorSettings settings) {
        this.validator = new SpecValidator(catalogue);
        this.policy =
                new PolicyCheck(settings.policy(), catalogue, settings.imageTag(), settings.defaultDatabaseSecret());
    }

    /**
     * Fails a run the cluster's policy refuses, before it takes its pools or creates anything; empty for a run the
     * policy allows, and for one that started already (it was allowed then).
     */
    public Optional<RunDriver.Action> refuse(RunContext pass) {
        RunProgress progress = pass.progress();
        if (progress.isTerminal() || progress.reached(Phase.Provisioning)) {
            return Optional.empty();
        }
        Optional<String> noPrometheus = checks.unavailable(pass.run());
        if (noPrometheus.isPresent()) {
            progress.fail(CHECKS_NEED_PROMETHEUS, noPrometheus.get());
            return Optional.of(new RunDriver.Fail(CHECKS_NEED_PROMETHEUS, noPrometheus.get()));
        }
        List<Violation> refusals = policy.check(
                pass.run().getSpec(),
                PolicyCheck.secretsIn(pass.client(), pass.run().getMetadata().getNamespace()));
        if (refusals.isEmpty()) {
            return Optional.empty();
        }
        String message = refusals.stream().map(Violation::toString).collect(Collectors.joining("; "));
        progress.fail(REFUSED_BY_POLICY, message);
        return Optional.of(new RunDriver.Fail(REFUSED_BY_POLICY, message));
    }

    /** What is wrong with the run's spec, one sentence each; empty when it is valid. */
    List<String> violations(RunContext pass) {
        List<String> violations = new ArrayList<>();
        nameTooLong(pass.run().getMetadata().getName()).ifPresent(violations::add);
        validator.validate(pass.run().getSpec()).stream()
                .map(Violation::toString)
                .forEach(violations::add);
        return violations;
    }

    /**
     * A name longer than {@link SpecRules#MAX_RUN_NAME}: k6-operator could not create the Jobs and Services it names
     * after the run, and the run would wait for them until its timeout.
     */
    public static Optional<String> nameTooLong(String name) {
        if (name == null || name.length() <= SpecRules.MAX_RUN_NAME) {
            return Optional.empty();
        }
        return Optional.of("metadata.name: '" + name + "' is " + name.length() + " characters long, at most "
                + SpecRules.MAX_RUN_NAME + " are allowed (k6-operator names Jobs and Services after the run, up to 16"
                + " characters longer, and Kubernetes allows 63): create the run again with a shorter name");
    }

    /** Says, in a condition, that a spec changed after the run started is ignored. */
    public void noteSpecChange(RunContext pass) {
        BenchmarkRun run = pass.run();
        Optional<Long> started = startedGeneration(pass);
        if (started.isPresent() && !Objects.equals(run.getMetadata().getGeneration(), started.get())) {
            pass.progress()
                    .condition(
                            RunProgress.SPEC_CHANGE_IGNORED,
                            true,
                            "RunInProgress",
                            "the spec changed (generation "
                                    + run.getMetadata().getGeneration() + ") after the run started with generation "
                                    + started.get() + ": the run continues with the spec it started with; create a"
                                    + " new BenchmarkRun to run the changed spec");
        }
    }

    /** The generation of the spec the run started with, once it started (recorded on its script ConfigMap). */
    private static Optional<Long> startedGeneration(RunContext pass) {
        return pass.secondary(ConfigMap.class, RunLabels.scriptConfigMapName(pass.run()))
                .map(configMap -> configMap.getMetadata().getAnnotations())
                .map(annotations -> annotations.get(SPEC_GENERATION_ANNOTATION))
                .map(Long::valueOf);
    }
}
