package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JavaProcessSpecTest {

    @Test
    void sizesTheJvmLikeAPodWithTheSameLimits() {
        JavaProcessSpec spec = JavaProcessSpec.of(
                Path.of("/jdk/bin/java"),
                Path.of("targets/mvc-app.jar"),
                1,
                1L << 30,
                "-XX:MaxRAMPercentage=75 -Dgreeting='hello world'",
                Map.of("PORT", "18080"),
                List.of("--spring.profiles.active=mvc-jdbc"));

        assertThat(spec.command())
                .containsExactly(
                        "/jdk/bin/java",
                        "-XX:ActiveProcessorCount=1",
                        "-XX:MaxRAM=1073741824",
                        "-XX:MaxRAMPercentage=75",
                        "-Dgreeting=hello world",
                        "-jar",
                        "targets/mvc-app.jar",
                        "--spring.profiles.active=mvc-jdbc");
        assertThat(spec.environment()).containsEntry("PORT", "18080");
    }

    @Test
    void noJvmOptionsAndNoMemoryLimitAddNothing() {
        JavaProcessSpec spec = JavaProcessSpec.of(Path.of("java"), Path.of("a.jar"), 2, 0, "  ", Map.of(), List.of());

        assertThat(spec.command()).containsExactly("java", "-XX:ActiveProcessorCount=2", "-jar", "a.jar");
    }

    @Test
    void anUnclosedQuoteIsRefusedWithTheField() {
        assertThatThrownBy(() -> JavaProcessSpec.splitOptions("-Da='x"))
                .hasMessageContaining("spec.target.jvmOptions")
                .hasMessageContaining("close the quote");
    }
}
