/**
 * From raw measurements to status.summary: k6 runner summaries combined by
 * {@link dev.stackbench.results.ResultAggregator}, and the target's Prometheus scrapes parsed and summarised over the
 * measured window by {@link dev.stackbench.results.TargetMetrics}, and k6's figures checked against the target's own
 * request counters by {@link dev.stackbench.results.ServerSideCheck}.
 */
package dev.stackbench.results;
