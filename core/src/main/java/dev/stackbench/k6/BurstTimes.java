package dev.stackbench.k6;

/**
 * When one runner's measured burst began and ended.
 *
 * @param plannedIterations iterations the burst executor was to send, on all runners together
 * @param firstSentAtMs epoch milliseconds at which this runner sent its first measured request; null when none
 * @param lastDoneAtMs epoch milliseconds at which this runner received its last measured response; null when none
 */
public record BurstTimes(long plannedIterations, Double firstSentAtMs, Double lastDoneAtMs) {}
