package dev.stackbench.operator.objects;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.operator.ExampleRuns;
import dev.stackbench.testcluster.ProjectTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The steps' script as the verification pod's container runs it: sh, the real k6 of the runners, and psql. psql is a
 * stand-in here that prints what it was asked (the pod's psql on the run's PostgreSQL runs in RealNodesE2E); the k6
 * scripts are small ones that print what the counted pass prints.
 */
class VerificationStepsTest {

    private static final String COUNTED_OK = """
            export default function () {}
            export function setup() { console.log('%s 7'); }
            export function teardown() { console.log('%s 27'); }
            """.formatted(VerificationPod.CALLS_BEFORE, VerificationPod.CALLS_AFTER);

    @Test
    void theStepsRunInOrderAndEachAnswerIsReadFromItsPartOfTheLog(@TempDir Path dir) throws Exception {
        Steps steps = run(dir, COUNTED_OK);

        assertThat(steps.exitCode()).as(steps.log()).isZero();
        assertThat(steps.log())
                .containsSubsequence(
                        VerificationSteps.STEP_MARKER + " " + VerificationSteps.WARMUP,
                        "WARMED UP",
                        VerificationSteps.STEP_MARKER + " " + VerificationSteps.RESET,
                        "psql -X -q -A -t -v ON_ERROR_STOP=1 -f reset.sql",
                        VerificationSteps.STEP_MARKER + " " + VerificationSteps.COUNTED,
                        VerificationSteps.STEP_MARKER + " " + VerificationSteps.STATEMENTS,
                        VerificationSteps.STEP_MARKER + " " + VerificationSteps.DONE);
        assertThat(VerificationSteps.lastStep(steps.log())).contains(VerificationSteps.DONE);
        assertThat(VerificationSteps.failedStep(steps.log())).isEmpty();
        String counted = VerificationSteps.output(steps.log(), VerificationSteps.COUNTED);
        assertThat(VerificationSteps.calls(counted, VerificationPod.CALLS_BEFORE))
                .contains(7.0);
        assertThat(VerificationSteps.calls(counted, VerificationPod.CALLS_AFTER))
                .contains(27.0);
        assertThat(counted).doesNotContain("WARMED UP", "statements.sql");
        // The statements step's part holds psql's answer only: the lines WorkQueries reads.
        assertThat(VerificationSteps.output(steps.log(), VerificationSteps.STATEMENTS))
                .isEqualTo("psql -X -q -A -t -v ON_ERROR_STOP=1 -f statements.sql\n20\t20\tselect 1\n");
        assertThat(VerificationSteps.output(steps.log(), "no such step")).isEmpty();
        // What the status says while the steps run: the step, its place, and for the first what it waits for.
        assertThat(VerificationSteps.describe(java.util.Optional.empty()))
                .isEqualTo("warmup (1 of 4), once the target and the delay service answer");
        assertThat(VerificationSteps.describe(VerificationSteps.lastStep(
                        VerificationSteps.STEP_MARKER + " " + VerificationSteps.WARMUP + "\nWARMED UP\n"
                                + VerificationSteps.STEP_MARKER + " " + VerificationSteps.COUNTED + "\n")))
                .isEqualTo(VerificationSteps.COUNTED + " (3 of 4)");
    }

    @Test
    void aFailedStepEndsTheScriptWithItsCodeAndTheLogNamesIt(@TempDir Path dir) throws Exception {
        Steps steps = run(dir, """
                import exec from 'k6/execution';
                export default function () {}
                export function setup() { exec.test.abort('the delay service at http://x answered 503'); }
                """);

        // k6's code for a test aborted by the script.
        assertThat(steps.exitCode()).as(steps.log()).isEqualTo(108);
        assertThat(VerificationSteps.failedStep(steps.log())).contains(VerificationSteps.COUNTED);
        assertThat(VerificationSteps.lastStep(steps.log())).contains(VerificationSteps.COUNTED);
        assertThat(steps.log())
                .contains(VerificationSteps.FAILED_MARKER + " " + VerificationSteps.COUNTED + " 108")
                .contains("answered 503")
                .doesNotContain("statements.sql");
    }

    private record Steps(int exitCode, String log) {}

    /** The pod's scripts in {@code dir} with {@code counted} as the counted pass, run as the container runs them. */
    private static Steps run(Path dir, String counted) throws Exception {
        Path k6 = ProjectTools.requireExecutable("STACKBENCH_K6", "k6 for the verification's steps");
        Map<String, String> scripts = new VerificationPod(ExampleRuns.settings())
                .scripts(ExampleRuns.webfluxR2dbc(), null)
                .getData();
        for (Map.Entry<String, String> file : scripts.entrySet()) {
            Files.writeString(dir.resolve(file.getKey()), file.getValue());
        }
        Files.writeString(
                dir.resolve(VerificationPod.WARMUP_SCRIPT),
                "export default function () {}\n" + "export function setup() { console.log('WARMED UP'); }\n");
        Files.writeString(dir.resolve(VerificationPod.COUNTED_SCRIPT), counted);
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path psql = bin.resolve("psql");
        Files.writeString(psql, """
                #!/bin/sh
                echo "psql $*"
                case "$*" in *statements.sql*) printf '20\\t20\\tselect 1\\n' ;; esac
                """);
        Files.setPosixFilePermissions(psql, PosixFilePermissions.fromString("rwxr-xr-x"));
        ProcessBuilder builder = new ProcessBuilder("sh", VerificationPod.STEPS_SCRIPT)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("steps.log").toFile());
        builder.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        builder.environment().put(VerificationSteps.K6_ENV, k6.toString());
        builder.environment().put("K6_NO_USAGE_REPORT", "true");
        Process process = builder.start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the steps ended").isTrue();
        return new Steps(process.exitValue(), Files.readString(dir.resolve("steps.log")));
    }
}
