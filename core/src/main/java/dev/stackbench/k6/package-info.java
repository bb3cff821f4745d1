/**
 * The k6 side of a run: one script generated from a spec ({@link dev.stackbench.k6.K6ScriptGenerator}), the names
 * it shares with runners ({@link dev.stackbench.k6.K6Env}), the latency buckets that make runners mergeable
 * ({@link dev.stackbench.k6.LatencyBuckets}) and the parser of the summary each runner prints
 * ({@link dev.stackbench.k6.K6SummaryParser}).
 */
package dev.stackbench.k6;
