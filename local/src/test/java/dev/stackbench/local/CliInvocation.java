package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.cli.StackbenchCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * {@code stackbench run|verify --root <repository> ARGS...} in the test's own JVM, as the launcher would call it, with its exit
 * code and what it printed: the real-run ITs drive local mode through its command line.
 */
record CliInvocation(int exitCode, String out, String err) {

    /** The repository the tests run in (Maven runs them in local/). */
    static final Path REPO_ROOT = Path.of("").toAbsolutePath().getParent();

    /** The k6 the CLI runs ($STACKBENCH_K6, as the launcher exports it from hack/setup.sh's env.sh). */
    static Path k6FromEnvironment() {
        String k6 = System.getenv("STACKBENCH_K6");
        assertThat(k6)
                .as("STACKBENCH_K6 is not set: run hack/setup.sh and source .tools/env.sh")
                .isNotBlank();
        return Path.of(k6);
    }

    static CliInvocation run(String... arguments) {
        return command("run", arguments);
    }

    /** {@code stackbench verify --root <repository> ARGS...}. */
    static CliInvocation verify(String... arguments) {
        return command("verify", arguments);
    }

    private static CliInvocation command(String command, String... arguments) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = StackbenchCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        List<String> line = new ArrayList<>(List.of(command, "--root", REPO_ROOT.toString()));
        line.addAll(List.of(arguments));
        int exitCode = cli.execute(line.toArray(String[]::new));
        return new CliInvocation(exitCode, out.toString(), err.toString());
    }
}
