package dev.stackbench.comparison;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.SpecRules;
import dev.stackbench.api.comparison.BenchmarkComparison;
import dev.stackbench.api.comparison.BenchmarkComparisonSpec;
import dev.stackbench.api.comparison.ComparisonDefaults;
import dev.stackbench.api.comparison.ComparisonOrder;
import dev.stackbench.api.comparison.ComparisonVariant;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.BenchmarkRunDefaults;
import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.run.CleanupPolicy;
import dev.stackbench.api.run.TargetSpec;
import dev.stackbench.stats.ComparisonMetric;
import dev.stackbench.stats.ComparisonPlan;
import dev.stackbench.validation.SpecValidator;
import dev.stackbench.validation.Violation;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A comparison's runs: the rules a comparison must meet (the CRD's, plus each variant's run being a valid
 * BenchmarkRun), the run each variant makes of the template, and the order of all repetitions. Both modes plan the
 * same runs with the same names from the same spec and seed.
 */
public final class ComparisonRuns {

    /** Labels of the child runs: which comparison, which variant (its name in the comparison) and which round. */
    public static final String COMPARISON_LABEL = "stackbench.dev/comparison";

    public static final String VARIANT_LABEL = "stackbench.dev/comparison-variant";
    public static final String ROUND_LABEL = "stackbench.dev/comparison-round";

    private static final Pattern NAME = Pattern.compile(SpecRules.NAME_PATTERN);

    /**
     * One repetition.
     *
     * @param index its place in the order of all runs, from 0
     * @param variant the variant's index in spec.variants (0 is the baseline)
     * @param round from 0; the run's name counts from 1
     */
    public record Child(int index, int variant, String label, int round, BenchmarkRun run) {}

    private ComparisonRuns() {}

    /** The names of the variants in spec order (a variant's name, or the variant when it has none). */
    public static List<String> labels(BenchmarkComparisonSpec spec) {
        return spec.getVariants().stream().map(ComparisonVariant::label).toList();
    }

    /** The name of a repetition's run: {@code <comparison>-<variant name>-r<round from 1>}. */
    public static String childName(String comparison, String label, int round) {
        return comparison + "-" + label + "-r" + (round + 1);
    }

    /**
     * The run a variant makes of the template: the template's target with the variant, its image, its JVM options
     * after the template's, and its environment over the template's. Defaults are applied.
     */
    public static BenchmarkRunSpec childSpec(BenchmarkComparisonSpec spec, ComparisonVariant variant) {
        BenchmarkRunSpec child = BenchmarkRuns.yamlMapper().convertValue(spec.getTemplate(), BenchmarkRunSpec.class);
        TargetSpec target = child.getTarget() == null ? new TargetSpec() : child.getTarget();
        target.setVariant(variant.getVariant());
        if (variant.getImage() != null) {
            target.setImage(variant.getImage());
        }
        String jvmOptions = String.join(
                        " ",
                        target.getJvmOptions() == null ? "" : target.getJvmOptions(),
                        variant.getJvmOptions() == null ? "" : variant.getJvmOptions())
                .strip();
        target.setJvmOptions(jvmOptions.isEmpty() ? null : jvmOptions);
        if (variant.getEnv() != null && !variant.getEnv().isEmpty()) {
            Map<String, String> env = new LinkedHashMap<>();
            if (target.getEnv() != null) {
                env.putAll(target.getEnv());
            }
            env.putAll(variant.getEnv());
            target.setEnv(env);
        }
        child.setTarget(target);
        return BenchmarkRunDefaults.apply(child);
    }

    /**
     * Every repetition in the order it runs, named and labelled; the spec must be valid and have its defaults.
     *
     * @param seed the seed of the interleaved order (the spec's, or the one chosen when the comparison started)
     */
    public static List<Child> plan(BenchmarkComparison comparison, long seed) {
        BenchmarkComparisonSpec spec = comparison.getSpec();
        List<String> labels = labels(spec);
        ComparisonPlan.Order order = spec.getOrder() == ComparisonOrder.SEQUENTIAL
                ? ComparisonPlan.Order.SEQUENTIAL
                : ComparisonPlan.Order.INTERLEAVED;
        List<ComparisonPlan.Slot> slots = ComparisonPlan.of(labels.size(), spec.getRepetitions(), order, seed);
        List<Child> children = new ArrayList<>();
        for (ComparisonPlan.Slot slot : slots) {
            String label = labels.get(slot.variant());
            BenchmarkRun run = new BenchmarkRun();
            Map<String, String> runLabels = new LinkedHashMap<>();
            runLabels.put(COMPARISON_LABEL, comparison.getMetadata().getName());
            runLabels.put(VARIANT_LABEL, label);
            runLabels.put(ROUND_LABEL, Integer.toString(slot.round() + 1));
            run.setMetadata(new ObjectMetaBuilder()
                    .withName(childName(comparison.getMetadata().getName(), label, slot.round()))
                    .withNamespace(comparison.getMetadata().getNamespace())
                    .withLabels(runLabels)
                    .build());
            run.setSpec(childSpec(spec, spec.getVariants().get(slot.variant())));
            children.add(new Child(children.size(), slot.variant(), label, slot.round(), run));
        }
        return children;
    }

    /**
     * Every reason a comparison is refused: the CRD's rules, the variants' runs (each checked as the BenchmarkRun it
     * will create, with the catalogue when one is given) and the length of the runs' names. Empty when it is valid.
     */
    public static List<Violation> validate(BenchmarkComparison comparison, SpecValidator validator) {
        List<Violation> violations = new ArrayList<>();
        String name = comparison.getMetadata() == null
                ? null
                : comparison.getMetadata().getName();
        if (name == null || name.isBlank()) {
            violations.add(new Violation(
                    "metadata.name", "metadata.name is required: name the comparison, e.g. metadata: {name: demo}"));
        } else if (!NAME.matcher(name).matches()) {
            violations.add(new Violation(
                    "metadata.name",
                    "metadata.name '" + name + "' must be lower-case letters, digits and '-' (it starts the names"
                            + " of the comparison's runs)"));
        }
        BenchmarkComparisonSpec spec = comparison.getSpec();
        if (spec == null) {
            violations.add(
                    new Violation("spec", "spec is required: give spec.template, spec.variants and spec.repetitions"));
            return violations;
        }
        if (spec.getTemplate() == null) {
            violations.add(new Violation(
                    "spec.template",
                    "spec.template is required: the BenchmarkRun spec every repetition runs, without the variant"
                            + " (e.g. template: {target: {resources: {cpu: \"1\"}}, workload: {...}})"));
        } else if (spec.getTemplate().getTarget() == null) {
            violations.add(new Violation(
                    "spec.template.target",
                    "spec.template.target is required: give at least the target's resources, e.g. target:"
                            + " {resources: {cpu: \"1\", memory: 1Gi}}"));
        } else {
            if (spec.getTemplate().getTarget().getVariant() != null) {
                violations.add(new Violation(
                        "spec.template.target.variant",
                        "spec.template.target.variant is not allowed: the variants are listed in spec.variants"));
            }
            if (spec.getTemplate().getTarget().getImage() != null) {
                violations.add(new Violation(
                        "spec.template.target.image",
                        "spec.template.target.image is not allowed: set image on the entry of spec.variants it"
                                + " belongs to"));
            }
        }
        if (spec.getTemplate() != null
                && spec.getTemplate().getCleanup() != null
                && spec.getTemplate().getCleanup() != CleanupPolicy.ALWAYS) {
            violations.add(new Violation(
                    "spec.template.cleanup",
                    "spec.template.cleanup must be Always (the default) in a comparison: each repetition frees its"
                            + " nodes for the next one, and its figures stay in the comparison's status"));
        }
        variants(spec, violations);
        if (spec.getRepetitions() != null
                && (spec.getRepetitions() < ComparisonDefaults.MIN_REPETITIONS
                        || spec.getRepetitions() > SpecRules.MAX_REPETITIONS)) {
            violations.add(new Violation(
                    "spec.repetitions",
                    "spec.repetitions must be between " + ComparisonDefaults.MIN_REPETITIONS + " (the fewest a rank"
                            + " test can use) and " + SpecRules.MAX_REPETITIONS + "; 6 or more give a 95% interval"
                            + " of each median, 10 is the default"));
        }
        if (spec.getConfidence() != null && !(spec.getConfidence() >= 0.5 && spec.getConfidence() <= 0.999)) {
            violations.add(new Violation(
                    "spec.confidence", "spec.confidence must be between 0.5 and 0.999, e.g. 0.95 (the default)"));
        }
        if (spec.getMetrics() != null) {
            List<String> known = SpecRules.celStrings(SpecRules.COMPARISON_METRIC_NAMES);
            if (spec.getMetrics().isEmpty()
                    || spec.getMetrics().size() > known.size()
                    || !known.containsAll(spec.getMetrics())) {
                violations.add(new Violation("spec.metrics", SpecRules.COMPARISON_METRICS_MESSAGE));
            }
            if (spec.getMetrics().contains(ComparisonMetric.CAPACITY.value())
                    && (spec.getTemplate() == null
                            || spec.getTemplate().getWorkload() == null
                            || spec.getTemplate().getWorkload().getCapacity() == null)) {
                violations.add(new Violation(
                        "spec.metrics",
                        "spec.metrics has capacity, but the template is not a capacity search: add"
                                + " template.spec.workload.capacity, or remove capacity from spec.metrics"));
            }
        }
        if (violations.isEmpty()) {
            runs(comparison, validator, violations);
        }
        return violations;
    }

    /** What a valid comparison should still be told: too few repetitions for an interval. */
    public static List<String> warnings(BenchmarkComparisonSpec spec) {
        List<String> warnings = new ArrayList<>();
        int repetitions = spec.getRepetitions() == null ? ComparisonDefaults.REPETITIONS : spec.getRepetitions();
        if (repetitions < ComparisonDefaults.REPETITIONS_FOR_95_INTERVAL) {
            warnings.add(String.format(
                    Locale.ROOT,
                    "%d repetitions: no 95%% confidence interval of a median can be given below %d runs (the"
                            + " verdicts still use the rank test); use repetitions: %d or more for intervals",
                    repetitions,
                    ComparisonDefaults.REPETITIONS_FOR_95_INTERVAL,
                    ComparisonDefaults.REPETITIONS_FOR_95_INTERVAL));
        }
        return warnings;
    }

    private static void variants(BenchmarkComparisonSpec spec, List<Violation> violations) {
        List<ComparisonVariant> variants = spec.getVariants();
        if (variants == null || variants.size() < 2) {
            violations.add(new Violation(
                    "spec.variants",
                    "spec.variants needs two or more entries (the first is the baseline), e.g. variants:"
                            + " [{variant: mvc-jdbc}, {variant: webflux-r2dbc}]"));
            return;
        }
        if (variants.size() > SpecRules.MAX_COMPARISON_VARIANTS) {
            violations.add(new Violation(
                    "spec.variants",
                    "spec.variants has " + variants.size() + " entries; at most " + SpecRules.MAX_COMPARISON_VARIANTS
                            + " can be compared at once"));
        }
        Set<String> seen = new HashSet<>();
        Set<String> repeated = new LinkedHashSet<>();
        for (int i = 0; i < variants.size(); i++) {
            ComparisonVariant variant = variants.get(i);
            String field = "spec.variants[" + i + "]";
            if (variant == null
                    || variant.getVariant() == null
                    || variant.getVariant().isBlank()) {
                violations.add(new Violation(
                        field + ".variant", field + ".variant is required: name a catalogue variant, e.g. mvc-jdbc"));
                continue;
            }
            if (variant.getName() != null
                    && (variant.getName().length() > SpecRules.MAX_COMPARISON_LABEL
                            || !NAME.matcher(variant.getName()).matches())) {
                violations.add(new Violation(
                        field + ".name",
                        field + ".name '" + variant.getName() + "' must be at most " + SpecRules.MAX_COMPARISON_LABEL
                                + " lower-case letters, digits and '-' (it is part of its runs' names)"));
            }
            if (!seen.add(variant.label())) {
                repeated.add(variant.label());
            }
        }
        if (!repeated.isEmpty()) {
            violations.add(new Violation(
                    "spec.variants",
                    SpecRules.COMPARISON_LABELS_UNIQUE_MESSAGE + " (repeated: " + String.join(", ", repeated) + ")"));
        }
    }

    /** Each variant's run, checked as the BenchmarkRun it becomes; the template's problems are reported once. */
    private static void runs(BenchmarkComparison comparison, SpecValidator validator, List<Violation> violations) {
        BenchmarkComparisonSpec spec = comparison.getSpec();
        Set<String> reported = new HashSet<>();
        int longestRound = spec.getRepetitions() == null ? ComparisonDefaults.REPETITIONS : spec.getRepetitions();
        for (int i = 0; i < spec.getVariants().size(); i++) {
            ComparisonVariant variant = spec.getVariants().get(i);
            String runName = childName(comparison.getMetadata().getName(), variant.label(), longestRound - 1);
            if (runName.length() > SpecRules.MAX_CHILD_RUN_NAME) {
                violations.add(new Violation(
                        "metadata.name",
                        "the runs of variant " + variant.label() + " would be named up to " + runName + " ("
                                + runName.length() + " characters; at most " + SpecRules.MAX_CHILD_RUN_NAME
                                + " fit the names and labels derived from them): shorten metadata.name or give the"
                                + " variant a shorter name"));
            }
            BenchmarkRunSpec child = childSpec(spec, variant);
            for (Violation violation : validator.validate(child)) {
                boolean aboutVariant = violation.field().startsWith("spec.target.variant")
                        || violation.field().startsWith("spec.target.image");
                String key = aboutVariant ? i + violation.toString() : violation.toString();
                if (reported.add(key)) {
                    violations.add(new Violation(
                            aboutVariant
                                    ? "spec.variants[" + i + "]"
                                    : violation.field().replaceFirst("^spec", "spec.template"),
                            "the run of " + variant.label() + ": " + violation));
                }
            }
        }
    }
}
