package dev.stackbench.testcluster;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Injects the JVM-wide {@link TestCluster#shared()} cluster into test constructors, lifecycle methods and test
 * methods that declare a {@code TestCluster} parameter: {@code @ExtendWith(TestClusterExtension.class)}. Its classes
 * work the machine (API server, operators, real k6 and app JVMs), so each holds {@link MachineTurn#busy} while it
 * runs: a test that measures in another JVM waits for it.
 */
public final class TestClusterExtension implements ParameterResolver, BeforeAllCallback, AfterAllCallback {

    @Override
    public void beforeAll(ExtensionContext context) {
        MachineTurn.busy(context.getRequiredTestClass().getSimpleName());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        MachineTurn.idle();
    }

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
