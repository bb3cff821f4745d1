package dev.stackbench.testcluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Where the operator's test minutes go: each test class and method of both test JVMs, and each wait for and hold of
 * the machine ({@link MachineTurn}), as one line with the wall-clock time in target/test-timeline.txt. Both JVMs
 * append to the same file, so one read shows what ran beside what and what waited for what.
 */
public final class TestTimeline implements TestExecutionListener {

    private static final long PID = ProcessHandle.current().pid();
    private static final Map<String, Instant> STARTED = new ConcurrentHashMap<>();

    @Override
    public void executionStarted(TestIdentifier test) {
        String name = name(test);
        if (name != null) {
            STARTED.put(test.getUniqueId(), Instant.now());
            note("start " + name);
        }
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        String name = name(test);
        Instant started = STARTED.remove(test.getUniqueId());
        if (name != null && started != null) {
            note("end " + name + " " + result.getStatus() + " after "
                    + Duration.between(started, Instant.now()).toMillis() / 1000.0 + " s");
        }
    }

    /** One line of the timeline: now, this JVM, what happened. */
    public static synchronized void note(String what) {
        Path file = ProjectTools.repositoryRoot().resolve("operator/target/test-timeline.txt");
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(
                    file,
                    Instant.now() + " jvm " + PID + " " + what + "\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            System.err.println("cannot write the test timeline " + file + ": " + e.getMessage());
        }
    }

    /** The class, or class#method, of a test class or method; null for engines and suites' other nodes. */
    private static String name(TestIdentifier test) {
        return test.getSource()
                .map(source -> switch (source) {
                    case MethodSource method -> simple(method.getClassName()) + "#" + method.getMethodName();
                    case ClassSource type -> simple(type.getClassName());
                    default -> null;
                })
                .orElse(null);
    }

    private static String simple(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }
}
