package dev.stackbench.operator.run;

/**
 * The step of a sweep or a capacity search under way: its number (1 for the first), its level, what the level counts,
 * the most steps.
 */
record StepUnderWay(int number, int level, String unit, int maxSteps) {}
