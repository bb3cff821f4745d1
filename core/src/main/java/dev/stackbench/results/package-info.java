/**
 * From raw measurements to status.summary: k6 runner summaries combined by
 * {@link dev.stackbench.results.ResultAggregator}, and the target's Prometheus scrapes parsed and summarised over the
 * measured window by {@link dev.stackbench.results.TargetMetrics}.
 */
package dev.stackbench.results;
