package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.operator.run.AdmissionPolicy;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The operator's options become its settings: the admission policy the chart hands over as comma-separated lists, and
 * the strict policy when nothing is given (an operator started by hand is no more permissive than the chart).
 */
class OperatorCommandTest {

    private static OperatorSettings parse(String... args) {
        OperatorCommand command = new OperatorCommand();
        new CommandLine(command).parseArgs(args);
        return command.settings();
    }

    @Test
    void thePolicyOptionsBecomeTheAdmissionPolicy() {
        OperatorSettings settings = parse(
                "--allowed-image-repositories=registry.example.com/bench/,stackbench/mvc-app",
                "--database-secret-label=stackbench.dev/database=true",
                "--denied-env=JAVA_OPTS,HTTP_PROXY",
                "--allowed-database-hosts=sb-postgresql,Shared.DB");

        assertThat(settings.policy())
                .isEqualTo(new AdmissionPolicy(
                        List.of("registry.example.com/bench/", "docker.io/stackbench/mvc-app"),
                        Optional.of("stackbench.dev/database=true"),
                        List.of("JAVA_OPTS", "HTTP_PROXY"),
                        List.of("sb-postgresql", "shared.db")));
    }

    @Test
    void emptyOptionsAsTheChartWritesThemAllowNothingExtra() {
        OperatorSettings settings = parse(
                "--allowed-image-repositories=",
                "--database-secret-label=",
                "--denied-env=",
                "--allowed-database-hosts=");

        assertThat(settings.policy()).isEqualTo(new AdmissionPolicy(List.of(), Optional.empty(), List.of(), List.of()));
    }
}
