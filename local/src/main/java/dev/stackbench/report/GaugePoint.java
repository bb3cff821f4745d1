package dev.stackbench.report;

/** One sampled value, {@code second} seconds after the measured window started (negative: during warmup). */
public record GaugePoint(double second, double value) {}
