package dev.stackbench.testcluster;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Injects the JVM-wide {@link TestCluster#shared()} cluster into test constructors, lifecycle methods and test
 * methods that declare a {@code TestCluster} parameter: {@code @ExtendWith(TestClusterExtension.class)}. Its classes
 * work the machine (API server, operators, real k6 and app JVMs), so each holds {@link MachineTurn#busy} while it
 * runs: a test that measures in another JVM waits for it. A class marked {@link MeasuresOnAQuietMachine} holds {@link
 * MachineTurn#quiet} instead.
 */
public final class TestClusterExtension
        implements ParameterResolver, BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(TestClusterExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        Class<?> testClass = context.getRequiredTestClass();
        if (testClass.isAnnotationPresent(MeasuresOnAQuietMachine.class)) {
            context.getStore(NAMESPACE).put("quiet", MachineTurn.quiet(testClass.getSimpleName()));
        } else {
            MachineTurn.busy(testClass.getSimpleName());
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        MachineTurn quiet = context.getStore(NAMESPACE).remove("quiet", MachineTurn.class);
        if (quiet != null) {
            quiet.close();
        } else {
            MachineTurn.idle();
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (context.getRequiredTestMethod().isAnnotationPresent(MeasuresOnAQuietMachine.class)) {
            context.getStore(NAMESPACE)
                    .put(
                            "quietMethod",
                            MachineTurn.quiet(context.getDisplayName() + " of "
                                    + context.getRequiredTestClass().getSimpleName()));
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        MachineTurn quiet = context.getStore(NAMESPACE).remove("quietMethod", MachineTurn.class);
        if (quiet != null) {
            quiet.close();
        }
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
