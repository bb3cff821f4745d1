/**
 * The custom resources (stackbench.dev/v1alpha1) shared by the operator and local mode, as POJOs from which the CRDs
 * in crds/ are generated, in sub-packages by role: {@code run} the BenchmarkRun and its spec with its defaults,
 * {@code status} what a run reports (phases, conditions, the summary, steps, the environment), {@code comparison} the
 * BenchmarkComparison with its spec and status. Here, what they share: the YAML reader and writer
 * ({@link dev.stackbench.api.BenchmarkRuns}), the CEL rules and bounds ({@link dev.stackbench.api.SpecRules}) and the
 * duration and quantity formats.
 */
package dev.stackbench.api;
