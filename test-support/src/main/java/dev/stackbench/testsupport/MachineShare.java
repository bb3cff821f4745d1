package dev.stackbench.testsupport;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A test class's share of the machine ({@code @ExtendWith(MachineShare.class)}): it works the machine (JVMs, k6,
 * PostgreSQL, clusters), so it holds {@link MachineTurn#busy} while it runs, and a test that measures in another JVM
 * waits for it. A class marked {@link MeasuresOnAQuietMachine} holds {@link MachineTurn#quiet} instead; a method so
 * marked holds it around itself.
 */
public class MachineShare implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(MachineShare.class);

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
}
