/**
 * BenchmarkComparison in both modes: {@link dev.stackbench.comparison.ComparisonRuns} checks a comparison and turns it
 * into its child BenchmarkRuns in the order they run; {@link dev.stackbench.comparison.ComparisonResults} records each
 * finished run and writes the statistics into the comparison's status, which
 * {@link dev.stackbench.comparison.ComparisonTable} prints.
 */
package dev.stackbench.comparison;
