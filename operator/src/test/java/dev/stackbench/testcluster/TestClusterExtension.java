package dev.stackbench.testcluster;

import dev.stackbench.testsupport.MachineShare;
import dev.stackbench.testsupport.MeasuresOnAQuietMachine;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Injects the JVM-wide {@link TestCluster#shared()} cluster into test constructors, lifecycle methods and test
 * methods that declare a {@code TestCluster} parameter: {@code @ExtendWith(TestClusterExtension.class)}. Its classes
 * work the machine (API server, operators, real k6 and app JVMs), so each takes its share of it as {@link
 * MachineShare} does: busy, or quiet where marked {@link MeasuresOnAQuietMachine}.
 */
public final class TestClusterExtension extends MachineShare implements ParameterResolver {

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == TestCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        try {
            return TestCluster.shared();
        } catch (RuntimeException e) {
            // JUnit's report shows only this message; without it a missing tool reads as "An error has occurred".
            throw new ParameterResolutionException(e.getMessage(), e);
        }
    }
}
