package dev.stackbench.suites;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.testcluster.MeasuresOnAQuietMachine;
import dev.stackbench.testcluster.ProjectTools;
import dev.stackbench.testcluster.QuietMethodsLast;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.platform.suite.api.SelectClasses;

/** Failsafe runs only the two suites: every integration and end-to-end class must be in one, in its order. */
class SuitesTest {

    @Test
    void everyIntegrationAndEndToEndClassIsInASuite() throws IOException {
        Path sources = ProjectTools.repositoryRoot().resolve("operator/src/test/java");
        List<String> classes;
        try (Stream<Path> files = Files.walk(sources)) {
            classes = files.map(f -> sources.relativize(f).toString())
                    .filter(f -> f.endsWith("IT.java") || f.endsWith("E2E.java"))
                    .map(f -> f.substring(0, f.length() - ".java".length()).replace('/', '.'))
                    .sorted()
                    .toList();
        }
        List<String> selected = new ArrayList<>(names(FakeNodesSuite.class));
        selected.addAll(names(RealNodesSuite.class));

        assertThat(selected).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(classes);
        assertThat(names(RealNodesSuite.class)).allMatch(name -> name.endsWith("E2E"));
    }

    @Test
    void eachSuiteListsItsClassesInTheirOrderAndMeasuringClassesComeLast() throws ClassNotFoundException {
        for (Class<?> suite : List.of(FakeNodesSuite.class, RealNodesSuite.class)) {
            List<Integer> orders = new ArrayList<>();
            boolean measuring = false;
            for (String name : names(suite)) {
                Class<?> testClass = Class.forName(name);
                assertThat(testClass.getAnnotation(Order.class))
                        .as(name + " has an @Order")
                        .isNotNull();
                orders.add(testClass.getAnnotation(Order.class).value());
                boolean measuringMethods = Arrays.stream(testClass.getDeclaredMethods())
                        .anyMatch(m -> m.isAnnotationPresent(MeasuresOnAQuietMachine.class));
                if (measuringMethods) {
                    assertThat(testClass.getAnnotation(TestMethodOrder.class))
                            .as(name + " runs its measuring methods after the others")
                            .isNotNull()
                            .extracting(TestMethodOrder::value)
                            .isEqualTo(QuietMethodsLast.class);
                }
                boolean measures = measuringMethods || testClass.isAnnotationPresent(MeasuresOnAQuietMachine.class);
                assertThat(measures || !measuring)
                        .as(name + " does not measure, so it runs before the measuring classes")
                        .isTrue();
                measuring |= measures;
            }
            assertThat(orders).as(suite.getSimpleName()).isSorted().doesNotHaveDuplicates();
        }
    }

    private static List<String> names(Class<?> suite) {
        return List.of(suite.getAnnotation(SelectClasses.class).names());
    }
}
