package dev.stackbench.operator.comparison;

import dev.stackbench.api.comparison.BenchmarkComparison;
import dev.stackbench.api.comparison.ComparisonPhase;
import dev.stackbench.comparison.ComparisonResults;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The end of a comparison whose runs have all ended: the statistics fill its status, and it Succeeds, or Fails when a
 * variant has too few valid runs.
 */
public final class ComparisonVerdict {

    private static final Logger LOG = LoggerFactory.getLogger(ComparisonVerdict.class);

    private ComparisonVerdict() {}

    public static void conclude(ComparisonPass pass, BenchmarkComparison comparison) {
        ComparisonResults.conclude(comparison.getSpec(), pass.status());
        pass.status().setFinishedAt(pass.clock().instant().toString());
        pass.markChanged();
        boolean succeeded = pass.status().getPhase() == ComparisonPhase.Succeeded;
        pass.event(!succeeded, succeeded ? "Concluded" : "Failed", pass.status().getMessage());
        LOG.info(
                "comparison {} {}: {}",
                comparison.getMetadata().getName(),
                pass.status().getPhase(),
                pass.status().getMessage());
    }
}
