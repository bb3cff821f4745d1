package dev.stackbench.api.comparison;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.stackbench.api.SpecRules;
import dev.stackbench.api.run.BenchmarkRunSpec;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;
import lombok.Getter;
import lombok.Setter;

/**
 * A comparison: the run every repetition shares (the template), the variants, how often and in which order they run,
 * and what is compared at which confidence.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = SpecRules.COMPARISON_LABELS_UNIQUE,
        message = SpecRules.COMPARISON_LABELS_UNIQUE_MESSAGE,
        fieldPath = ".variants")
@Getter
@Setter
public class BenchmarkComparisonSpec {

    @Required
    @JsonPropertyDescription("A BenchmarkRun spec without the variant (target resources, placement, backend,"
            + " workload, cleanup, timeout): every repetition runs it.")
    private BenchmarkRunSpec template;

    @Required
    @Size(min = 2, max = SpecRules.MAX_COMPARISON_VARIANTS)
    @JsonPropertyDescription("Two or more variants; the first is the baseline the others are compared with.")
    private List<ComparisonVariant> variants;

    @Default(ComparisonDefaults.REPETITIONS_TEXT)
    @Min(ComparisonDefaults.MIN_REPETITIONS)
    @Max(SpecRules.MAX_REPETITIONS)
    @JsonPropertyDescription(
            "Runs of each variant (at least 3; 6 or more give a 95% confidence interval of each" + " median).")
    private Integer repetitions;

    @Default(ComparisonDefaults.ORDER)
    @JsonPropertyDescription("interleaved: rounds of one run per variant, shuffled with the seed, so a drift of the"
            + " machine hits every variant alike; sequential: all runs of one variant, then the next.")
    private ComparisonOrder order;

    @JsonPropertyDescription(
            "Seed of the interleaved order (default: chosen at the start and recorded in the" + " status).")
    private Long seed;

    @Size(min = 1, max = 8)
    @ValidationRule(value = SpecRules.COMPARISON_METRICS, message = SpecRules.COMPARISON_METRICS_MESSAGE)
    @JsonPropertyDescription("Figures to compare, among rps, p50, p90, p95, p99, max, errorRate and capacity (the"
            + " rate a capacity search found: the template needs workload.capacity) (default: rps, p50, p95, p99,"
            + " errorRate); the first is the verdict's headline.")
    private List<String> metrics;

    @Default(ComparisonDefaults.CONFIDENCE_TEXT)
    @Min(0.5)
    @Max(0.999)
    @JsonPropertyDescription("Confidence of the intervals and significance level of the tests (default 0.95).")
    private Double confidence;

    @Default("false")
    @JsonPropertyDescription("Count runs whose load generator could not keep up (dropped iterations, saturated"
            + " runner); by default they are left out, with a warning naming them.")
    private Boolean includeFlaggedRuns;

    public BenchmarkComparisonSpec withTemplate(BenchmarkRunSpec template) {
        this.template = template;
        return this;
    }

    public BenchmarkComparisonSpec withVariants(List<ComparisonVariant> variants) {
        this.variants = variants;
        return this;
    }

    public BenchmarkComparisonSpec withRepetitions(Integer repetitions) {
        this.repetitions = repetitions;
        return this;
    }

    public BenchmarkComparisonSpec withOrder(ComparisonOrder order) {
        this.order = order;
        return this;
    }

    public BenchmarkComparisonSpec withSeed(Long seed) {
        this.seed = seed;
        return this;
    }

    public BenchmarkComparisonSpec withMetrics(List<String> metrics) {
        this.metrics = metrics;
        return this;
    }

    public BenchmarkComparisonSpec withConfidence(Double confidence) {
        this.confidence = confidence;
        return this;
    }

    public BenchmarkComparisonSpec withIncludeFlaggedRuns(Boolean includeFlaggedRuns) {
        this.includeFlaggedRuns = includeFlaggedRuns;
        return this;
    }
}
