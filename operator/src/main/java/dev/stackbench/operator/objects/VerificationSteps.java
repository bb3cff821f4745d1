package dev.stackbench.operator.objects;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The verification's four steps as one shell script for the {@value VerificationPod#RUN_STEPS} container of
 * {@link VerificationPod}, and the reading of its log: each step's output follows a line {@value #STEP_MARKER} and
 * the step's name; a failed step ends the script with its exit code after a line {@value #FAILED_MARKER}, its name
 * and the code.
 */
public final class VerificationSteps {

    public static final String WARMUP = "warmup";
    public static final String RESET = "reset-counters";
    public static final String COUNTED = "counted";
    public static final String STATEMENTS = "statements";

    /** The steps in the order the script runs them. */
    public static final List<String> STEPS = List.of(WARMUP, RESET, COUNTED, STATEMENTS);

    /** The line before each step's output: the marker, a space, the step's name ({@value #DONE} after the last). */
    public static final String STEP_MARKER = "STACKBENCH_VERIFICATION_STEP";

    /** The line after a failed step's output: the marker, the step's name and its exit code. */
    public static final String FAILED_MARKER = "STACKBENCH_VERIFICATION_FAILED";

    public static final String DONE = "done";

    /** The environment variable that names the k6 binary the script runs (the copy of the init container). */
    static final String K6_ENV = "STACKBENCH_K6_BINARY";

    /**
     * The script of the steps, run in the directory of the scripts: each step after its marker line, a failed one
     * ending the script with its code after the failure line.
     */
    static String script() {
        String k6 = "\"$" + K6_ENV + "\" run --quiet --no-color --log-format=raw ";
        String psql = "psql -X -q -A -t -v ON_ERROR_STOP=1 -f ";
        return """
                # The verification's steps, one after another (VerificationPod).
                step() {
                  name="$1"
                  shift
                  echo "%1$s $name"
                  "$@" 2>&1
                  code=$?
                  if [ "$code" -ne 0 ]; then
                    echo "%2$s $name $code"
                    exit "$code"
                  fi
                }
                step %3$s %7$s%8$s
                step %4$s %9$s%10$s
                step %5$s %7$s%11$s
                step %6$s %9$s%12$s
                echo "%1$s %13$s"
                """.formatted(
                        STEP_MARKER,
                        FAILED_MARKER,
                        WARMUP,
                        RESET,
                        COUNTED,
                        STATEMENTS,
                        k6,
                        VerificationPod.WARMUP_SCRIPT,
                        psql,
                        VerificationPod.RESET_SQL,
                        VerificationPod.COUNTED_SCRIPT,
                        VerificationPod.STATEMENTS_SQL,
                        DONE);
    }

    /** Statements for psql's {@code -f}, in order. */
    static String sql(String... statements) {
        StringBuilder text = new StringBuilder();
        for (String statement : statements) {
            text.append(statement).append(";\n");
        }
        return text.toString();
    }

    /**
     * The output of {@code step} in the log of {@link VerificationPod#RUN_STEPS}: the lines after its marker up to the next marker
     * (empty when the step has not begun).
     */
    public static String output(String log, String step) {
        StringBuilder out = new StringBuilder();
        boolean inside = false;
        for (String line : log.lines().toList()) {
            if (line.startsWith(STEP_MARKER + " ") || line.startsWith(FAILED_MARKER + " ")) {
                inside = line.equals(STEP_MARKER + " " + step);
            } else if (inside) {
                out.append(line).append('\n');
            }
        }
        return out.toString();
    }

    /** The last step the log says began ({@link #DONE} after the last), if any. */
    public static Optional<String> lastStep(String log) {
        String last = null;
        for (String line : log.lines().toList()) {
            if (line.startsWith(STEP_MARKER + " ")) {
                last = line.substring(STEP_MARKER.length() + 1).strip();
            }
        }
        return Optional.ofNullable(last);
    }

    /** The step that failed, if the log says one did. */
    public static Optional<String> failedStep(String log) {
        return log.lines()
                .filter(line -> line.startsWith(FAILED_MARKER + " "))
                .map(line -> line.substring(FAILED_MARKER.length() + 1).strip().split(" ")[0])
                .reduce((first, second) -> second);
    }

    private VerificationSteps() {}

    /** Where running steps are, for the status: the step the log names last, its place among the steps. */
    public static String describe(Optional<String> lastStep) {
        String step = lastStep.orElse(WARMUP);
        int index = STEPS.indexOf(step);
        return index < 0
                ? step
                : step + " (" + (index + 1) + " of " + STEPS.size() + ")"
                        + (index == 0 ? ", once the target and the delay service answer" : "");
    }

    /** The last count printed after {@code marker} in the counted pass's output. */
    public static Optional<Double> calls(String log, String marker) {
        Matcher matcher =
                Pattern.compile(Pattern.quote(marker) + " (\\d+(?:\\.\\d+)?)").matcher(log);
        Double last = null;
        while (matcher.find()) {
            last = Double.parseDouble(matcher.group(1));
        }
        return Optional.ofNullable(last);
    }
}
