package dev.stackbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.local.ResultsFixtures;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * `stackbench report`, `stackbench compare` and `stackbench --version` on results directories real local runs wrote
 * (src/test/resources/results), run in-process as a user would type them.
 */
class ResultsCommandsTest {

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = StackbenchCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    /** A results file changed as another run would have written it. */
    private static void edit(Path file, java.util.function.UnaryOperator<String> change) throws IOException {
        Files.writeString(file, change.apply(Files.readString(file)));
    }

    private Path results(String name) throws IOException, URISyntaxException {
        return ResultsFixtures.copy(name, dir);
    }

    @Test
    void reportOfOneDirectoryIsWrittenIntoItWithRelativeLinks() throws Exception {
        Path plain = results("plain");

        assertThat(run("report", plain.toString())).as(err.toString()).isZero();

        String html = Files.readString(plain.resolve("report.html"));
        assertThat(html)
                .contains("<td>fx-mvc-jdbc</td>")
                .contains("<td>fx-mvc-virtual-threads</td>")
                .contains("href=\"01-fx-mvc-jdbc/requests-per-second.csv\"")
                .contains("stackbench commit")
                .contains("upstream: status 200");
        assertThat(err.toString()).contains("report of 2 run(s) from 1 directory");
    }

    @Test
    void reportOfADirectoryWithoutRunsSaysWhatIsMissingAndWhatToPass() throws Exception {
        Path empty = Files.createDirectories(dir.resolve("not-results"));

        assertThat(run("report", empty.toString())).isEqualTo(ExitCodes.INVALID_INPUT);

        assertThat(err.toString())
                .contains("is not a stackbench results directory")
                .contains("benchmarkrun.yaml and status.json")
                .contains("pass a directory ./stackbench run wrote");
    }

    /** A cluster resource is read with kubectl; a kubectl that cannot reach a cluster says so, naming the command. */
    @Test
    void reportOfAClusterResourceWithoutAClusterSaysWhatKubectlSaid() {
        assertThat(run("report", "-n", "team-a", "benchmarkrun/demo")).isEqualTo(ExitCodes.INVALID_INPUT);

        assertThat(err.toString())
                .startsWith("stackbench report: ")
                .contains("get benchmarkrun demo --namespace team-a --output json failed");
    }

    @Test
    void compareGroupsRunsOfSeparateInvocationsByVariantAndPrintsTheStatistics() throws Exception {
        int exit = run(
                "compare",
                "--include-flagged-runs",
                "--baseline",
                "mvc-jdbc",
                results("comparison").toString(),
                results("plain").toString());

        assertThat(exit).as(err.toString()).isZero();
        assertThat(out.toString())
                .contains("mvc-jdbc: comparison/fx-mvc-jdbc-r1, comparison/fx-mvc-jdbc-r2, comparison/fx-mvc-jdbc-r3,"
                        + " comparison/fx-mvc-jdbc-r4, comparison/fx-mvc-jdbc-r5, comparison/fx-mvc-jdbc-r6,"
                        + " plain/fx-mvc-jdbc")
                .contains("mvc-virtual-threads: comparison/fx-mvc-virtual-threads-r1")
                .containsPattern("metric +variant +median")
                .containsPattern("rps +mvc-virtual-threads +[0-9.]+ req/s")
                .contains("verdict: mvc-virtual-threads")
                // The comparison was run by a later build of stackbench than the plain runs, on the same machine.
                .containsPattern("stackbench commit differs: [0-9a-f]{40}\\S* \\(comparison/fx-mvc-jdbc-r1, .*\\);"
                        + " [0-9a-f]{40}\\S* \\(plain/fx-mvc-jdbc, plain/fx-mvc-virtual-threads\\)")
                .doesNotContain("CPU model differs")
                .doesNotContain("JDK differs")
                .doesNotContain("mvc-jdbc jar digest differs");
    }

    @Test
    void compareSaysWhichRunsWereMadeInOtherConditions() throws Exception {
        Path again = results("again");
        edit(again.resolve("01-fx-mvc-jdbc/provenance.json"), text -> text.replaceFirst(
                        "\"stackbenchCommit\" : \"[0-9a-f]+\"", "\"stackbenchCommit\" : \"0123abcd\"")
                .replaceFirst("\"cpus\" : \\d+", "\"cpus\" : 64"));

        run("compare", "--include-flagged-runs", results("plain").toString(), again.toString());

        assertThat(out.toString())
                .contains("these runs were not made in the same conditions, so the comparison may not be fair")
                .containsPattern("stackbench commit differs: [0-9a-f]{40}\\S* \\(plain/fx-mvc-jdbc,"
                        + " plain/fx-mvc-virtual-threads\\); 0123abcd\\S* \\(again/fx-mvc-jdbc\\)")
                .contains("CPU count differs: 2 (plain/fx-mvc-jdbc, plain/fx-mvc-virtual-threads); 64"
                        + " (again/fx-mvc-jdbc)");
    }

    @Test
    void runsOfOneVariantWithOtherParametersAreASideOfTheirOwn() throws Exception {
        Path again = results("again");
        edit(
                again.resolve("01-fx-mvc-jdbc/benchmarkrun.yaml"),
                text -> text.replace("SERVER_TOMCAT_THREADS_MAX: \"10\"", "SERVER_TOMCAT_THREADS_MAX: \"20\""));

        run("compare", "--include-flagged-runs", results("comparison").toString(), again.toString());

        assertThat(out.toString())
                // Named as the comparison named its side, and after its first run where nothing named it.
                .contains("fx-mvc-jdbc: comparison/fx-mvc-jdbc-r1,")
                .contains("mvc-jdbc (again_fx-mvc-jdbc): again/fx-mvc-jdbc")
                .contains("mvc-virtual-threads: comparison/fx-mvc-virtual-threads-r1,");
    }

    @Test
    void compareOfOneVariantOnlySaysThereIsNothingToCompareWith() throws Exception {
        assertThat(run("compare", results("again").toString())).isEqualTo(ExitCodes.INVALID_INPUT);

        assertThat(err.toString()).contains("nothing to compare it with");
    }

    @Test
    void versionPrintsTheCommitTheCliWasBuiltFrom() {
        assertThat(run("--version")).isZero();

        assertThat(out.toString()).containsPattern("stackbench \\S+ \\(commit [0-9a-f]{40}");
    }
}
