package dev.stackbench.testcluster;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a test class, or a test method, on the fake-node cluster whose runs are measured and judged (rates, latency
 * against the nominal, steps that passed, a generator that kept up, verdicts): {@link TestClusterExtension} takes
 * {@link MachineTurn#quiet} for the whole class, or around the method, so no test class of the other test JVM works
 * the machine meanwhile. The rest of such a class runs under {@link MachineTurn#busy}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface MeasuresOnAQuietMachine {}
