package dev.stackbench.local;

import dev.stackbench.api.run.BenchmarkRun;

/**
 * A run ready to start: valid, with defaults applied, and for scenario custom the text of its k6 module, which local
 * mode reads from disk where the operator reads a ConfigMap.
 */
public record PlannedRun(BenchmarkRun run, String customModule) {}
