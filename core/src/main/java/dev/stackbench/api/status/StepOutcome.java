package dev.stackbench.api.status;

/** What one step of a sweep or one probe of a capacity search came to. */
public enum StepOutcome {
    /** The step met its thresholds (a sweep) or the objective (a capacity search). */
    Passed,
    /** The step missed its thresholds or the objective. */
    Failed,
    /** The step missed its thresholds badly: the stack has broken, and a sweep stops after it. */
    Broken,
    /** k6 could not deliver the step's load, so the step says nothing about the target. */
    GeneratorLimited
}
