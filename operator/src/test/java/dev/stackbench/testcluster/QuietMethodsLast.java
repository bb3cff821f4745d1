package dev.stackbench.testcluster;

import java.util.Comparator;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.MethodOrdererContext;

/**
 * Runs a class's {@link MeasuresOnAQuietMachine} methods after its other methods, each group by name: the others share
 * the machine with the other test JVM's work, so they run while it works too, and the measured ones wait for quiet once
 * that is done.
 */
public final class QuietMethodsLast implements MethodOrderer {

    @Override
    public void orderMethods(MethodOrdererContext context) {
        context.getMethodDescriptors()
                .sort(Comparator.comparing((org.junit.jupiter.api.MethodDescriptor m) ->
                                m.isAnnotated(MeasuresOnAQuietMachine.class))
                        .thenComparing(m -> m.getMethod().getName()));
    }
}
